import { availableParallelism } from "node:os";
import sharp from "sharp";
import type { ImageProcessor } from "@lineage/core";

export interface SharpProcessorOptions {
  /** Images processed at once; one less than the cores by default (at least one), so the event loop keeps a core. */
  readonly parallel?: number;
  /** libvips threads per image; 1 by default, for the same reason. */
  readonly concurrency?: number;
}

/**
 * An ImageProcessor with sharp (libvips): the work runs on libuv's thread pool, off the event loop,
 * and at most `parallel` images at a time so that a burst of resizes cannot take every core.
 * The caller caps input pixels before; sharp's own cap stays on as a second guard.
 */
export function createSharpProcessor(options: SharpProcessorOptions = {}): ImageProcessor {
  sharp.concurrency(options.concurrency ?? 1);
  // The variants are cached on disk: libvips' own operation cache would only hold memory.
  sharp.cache(false);
  const parallel = Math.max(1, options.parallel ?? availableParallelism() - 1);
  let running = 0;
  const waiting: Array<() => void> = [];
  // A freed slot passes straight to the next waiter, so no newcomer can slip in between.
  const slot = async () => {
    if (running < parallel) running++;
    else await new Promise<void>((go) => waiting.push(go));
  };
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running--;
  };

  return {
    name: "sharp",
    async transform(source, plan, format) {
      await slot();
      try {
        let image = sharp(source, { failOn: "error", animated: false });
        if (!plan.keep) {
          image = image.resize(plan.width, plan.height, { fit: "fill" });
          if (plan.crop) image = image.extract(plan.crop);
        }
        const encoded = format === "jpeg"
          ? image.flatten({ background: "#ffffff" }).jpeg({ quality: 85 })
          : format === "png" ? image.png() : image.gif();
        return new Uint8Array(await encoded.toBuffer());
      } finally {
        release();
      }
    },
    async close() {},
  };
}
