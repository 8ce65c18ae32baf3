import { createImageVariants, type ImageLimits, type ImageProcessor, type ImageStore, type ImageVariants } from "@lineage/core";
import { createFsImageStore } from "./fs-image-store.ts";
import { createJimpProcessor } from "./jimp-processor.ts";

export interface ImagesOptions {
  /** The server Images directory (assets). */
  readonly imagesDir?: string | undefined;
  /** Where resized variants are cached, e.g. `<data>/image-cache`. */
  readonly cacheDir: string;
  /** Worker threads of the jimp processor. */
  readonly workers?: number;
  /** Resizes of the jimp processor that may wait for a worker; beyond, 503 IMAGE0002 (16 per worker by default). */
  readonly maxQueue?: number;
  readonly limits?: Partial<ImageLimits>;
  /** Another processor (sharp) instead of jimp. */
  readonly processor?: ImageProcessor;
}

/** The parts the Images routes need: the store, the processor and the variants over both. */
export interface Images {
  readonly store: ImageStore;
  readonly processor: ImageProcessor;
  readonly variants: ImageVariants;
  close(): Promise<void>;
}

/**
 * Images on the file system, resized by jimp in worker threads (or by the processor given).
 * @example
 * const images = createJimpImages({ imagesDir: "examples/demo/images", cacheDir: "data/image-cache" });
 */
export function createJimpImages(options: ImagesOptions): Images {
  const store = createFsImageStore({ imagesDir: options.imagesDir, cacheDir: options.cacheDir });
  const processor = options.processor ?? createJimpProcessor({ workers: options.workers, maxQueue: options.maxQueue });
  const variants = createImageVariants({ store, processor, limits: options.limits });
  return { store, processor, variants, close: () => processor.close() };
}
