import { LineageError } from "../errors/lineage-error.ts";

/**
 * A requested size (api-v2.md, Images, rule 5): `W`, `xH`, `WxH` (fit in the box), `WxHc`
 * (cover the box, then a centred crop) or `WxHs` (stretch). `WxHf` is the fit, as the original allows.
 */
export type ImageSize =
  | { readonly mode: "width"; readonly width: number }
  | { readonly mode: "height"; readonly height: number }
  | { readonly mode: "fit" | "cover" | "stretch"; readonly width: number; readonly height: number };

/** What to do to an original: keep it, or resize it to `width`x`height` then maybe crop a region. */
export type ResizePlan =
  | { readonly keep: true }
  | {
    readonly keep: false;
    readonly width: number;
    readonly height: number;
    readonly crop?: { readonly left: number; readonly top: number; readonly width: number; readonly height: number };
  };

/** Past this a size cannot be a real request; numbers stay exact integers. */
const MAX_DIGITS = 9;
const ONE = new RegExp(`^(x?)([0-9]{1,${MAX_DIGITS}})$`);
const BOX = new RegExp(`^([0-9]{1,${MAX_DIGITS}})x([0-9]{1,${MAX_DIGITS}})([fsc]?)$`);

/** Parses a size of the Images routes; an invalid one is 400 CRUD0603 naming `imageName`. */
export function parseImageSize(text: string, imageName: string): ImageSize {
  const invalid = () => new LineageError("CRUD0603", [imageName, text]);
  const one = ONE.exec(text);
  if (one) {
    const value = Number(one[2]);
    if (value < 1) throw invalid();
    return one[1] ? { mode: "height", height: value } : { mode: "width", width: value };
  }
  const box = BOX.exec(text);
  if (!box) throw invalid();
  const width = Number(box[1]);
  const height = Number(box[2]);
  if (width < 1 || height < 1) throw invalid();
  const mode = box[3] === "c" ? "cover" : box[3] === "s" ? "stretch" : "fit";
  return { mode, width, height };
}

/** ImageMagick's rounding of a scaled dimension: to the nearest, at least 1. */
const scaled = (length: number, scale: number) => Math.max(1, Math.round(length * scale));

/**
 * The resize plan of a size for an original of `width`x`height`, never larger than the original
 * (original-notes.md 2.10, step 3): a dimension asked larger than the original is clamped to it,
 * and the original is kept whole when every asked dimension was clamped.
 */
export function planResize(size: ImageSize, original: { readonly width: number; readonly height: number }): ResizePlan {
  const keep: ResizePlan = { keep: true };
  if (size.mode === "width") {
    return size.width >= original.width ? keep : { keep: false, width: size.width, height: scaled(original.height, size.width / original.width) };
  }
  if (size.mode === "height") {
    return size.height >= original.height ? keep : { keep: false, width: scaled(original.width, size.height / original.height), height: size.height };
  }
  // Both dimensions at least the original's: the original itself, whatever the mode.
  if (size.width >= original.width && size.height >= original.height) return keep;
  const width = Math.min(size.width, original.width);
  const height = Math.min(size.height, original.height);
  if (size.mode === "stretch") return { keep: false, width, height };
  if (size.mode === "fit") {
    const scale = Math.min(width / original.width, height / original.height);
    return scale >= 1 ? keep : { keep: false, width: scaled(original.width, scale), height: scaled(original.height, scale) };
  }
  const scale = Math.max(width / original.width, height / original.height);
  const resizedWidth = scaled(original.width, scale);
  const resizedHeight = scaled(original.height, scale);
  const crop = {
    left: Math.floor((resizedWidth - width) / 2),
    top: Math.floor((resizedHeight - height) / 2),
    width: Math.min(width, resizedWidth),
    height: Math.min(height, resizedHeight),
  };
  return { keep: false, width: resizedWidth, height: resizedHeight, crop };
}

/** The dimensions a plan produces from an original. */
export function plannedDimensions(plan: ResizePlan, original: { readonly width: number; readonly height: number }): { width: number; height: number } {
  if (plan.keep) return { width: original.width, height: original.height };
  return plan.crop ? { width: plan.crop.width, height: plan.crop.height } : { width: plan.width, height: plan.height };
}
