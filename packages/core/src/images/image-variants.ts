import { LineageError, isLineageError } from "../errors/lineage-error.ts";
import type { ImageProcessor } from "../ports/image-processor.port.ts";
import type { ImageStore, SourceImage } from "../ports/image-store.port.ts";
import type { ImageFormat } from "./image-format.ts";
import { readImageHeader, type ImageHeader } from "./image-header.ts";
import { parseImageSize, planResize, type ResizePlan } from "./image-size.ts";

/** Caps that keep a crafted image from exhausting the server. */
export interface ImageLimits {
  /** The largest source file resized (bytes); 32 MiB by default. */
  readonly maxInputBytes: number;
  /** The most pixels a source may decode to (width x height); 40 million by default. */
  readonly maxPixels: number;
}

export const DEFAULT_IMAGE_LIMITS: ImageLimits = { maxInputBytes: 32 * 1024 * 1024, maxPixels: 40_000_000 };

/** An image ready to send: its bytes, format, and the key naming exactly these bytes (the strong ETag). */
export interface ImageAnswer {
  readonly bytes: Uint8Array;
  readonly format: ImageFormat;
  readonly key: string;
}

export interface ImageVariants {
  /** The original as it is, once its content is checked to be an image (CRUD0601 otherwise). */
  original(source: SourceImage): ImageAnswer;
  /** `source` at `size` (api-v2.md syntax), encoded as `format` (the source's own when undefined); computed once, then cached. */
  variant(source: SourceImage, size: string, format?: ImageFormat): Promise<ImageAnswer>;
}

/** The header of a source that must be an image; CRUD0601 when its content is none. */
export function checkedHeader(source: SourceImage): ImageHeader {
  const header = readImageHeader(source.bytes);
  if (!header) throw new LineageError("CRUD0601", [source.name]);
  return header;
}

function planKey(plan: ResizePlan): string {
  if (plan.keep) return "o";
  const crop = plan.crop ? `c${plan.crop.left}_${plan.crop.top}_${plan.crop.width}x${plan.crop.height}` : "";
  return `${plan.width}x${plan.height}${crop}`;
}

/**
 * Resized variants through a processor, kept in the store's cache. A variant's key is made of the
 * source's content hash, the resize plan (so `2000` and `3000` on a 400 px image share one) and
 * the format; concurrent asks for one key share one computation.
 */
export function createImageVariants(options: { store: ImageStore; processor: ImageProcessor; limits?: Partial<ImageLimits> }): ImageVariants {
  const { store, processor } = options;
  const limits = { ...DEFAULT_IMAGE_LIMITS, ...options.limits };
  const inFlight = new Map<string, Promise<Uint8Array>>();

  async function compute(key: string, source: SourceImage, plan: ResizePlan, format: ImageFormat): Promise<Uint8Array> {
    const cached = await store.variant(key);
    if (cached) return cached;
    let bytes: Uint8Array;
    try {
      bytes = await processor.transform(source.bytes, plan, format);
    } catch (error) {
      // The processor's own refusal (IMAGE0002: too busy) says what it means; any other failure is
      // a header that parses over a body that does not: the client gets a clear 4xx, never a crash.
      if (isLineageError(error)) throw error;
      throw new LineageError("CRUD0602", [source.name, planKey(plan)]);
    }
    await store.saveVariant(key, bytes);
    return bytes;
  }

  return {
    original(source) {
      const header = checkedHeader(source);
      return { bytes: source.bytes, format: header.format, key: `${source.hash.slice(0, 32)}-o-${header.format}` };
    },
    async variant(source, sizeText, format) {
      const size = parseImageSize(sizeText, source.name);
      const header = checkedHeader(source);
      const target = format ?? header.format;
      const plan = planResize(size, header);
      const key = `${source.hash.slice(0, 32)}-${planKey(plan)}-${target}`;
      if (plan.keep && target === header.format) return { bytes: source.bytes, format: target, key };
      if (source.bytes.byteLength > limits.maxInputBytes) {
        throw new LineageError("IMAGE0001", [source.name, `${source.bytes.byteLength} bytes, the limit is ${limits.maxInputBytes}`]);
      }
      if (header.width * header.height > limits.maxPixels) {
        throw new LineageError("IMAGE0001", [source.name, `${header.width}x${header.height} pixels, the limit is ${limits.maxPixels}`]);
      }
      let flight = inFlight.get(key);
      if (!flight) {
        flight = compute(key, source, plan, target).finally(() => inFlight.delete(key));
        inFlight.set(key, flight);
      }
      return { bytes: await flight, format: target, key };
    },
  };
}
