import type { ImageFormat } from "../images/image-format.ts";
import type { ResizePlan } from "../images/image-size.ts";

/**
 * Decodes, resizes, crops and encodes images. Implementations must not block the caller's
 * event loop for the length of a resize (worker threads, a native thread pool).
 */
export interface ImageProcessor {
  /** A short name for logs and benchmarks (`jimp`, `sharp`). */
  readonly name: string;
  /**
   * `source` resized to the plan's dimensions, then cropped to its region if it has one, encoded as `format`.
   * Rejects when the bytes cannot be decoded (the caller has already checked their header and size), or
   * with LineageError IMAGE0002 when too many transforms are waiting already.
   */
  transform(source: Uint8Array, plan: ResizePlan, format: ImageFormat): Promise<Uint8Array>;
  /** Releases workers or native resources. */
  close(): Promise<void>;
}
