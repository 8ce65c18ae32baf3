import { availableParallelism } from "node:os";
import { mimeOfFormat, type ImageProcessor } from "@lineage/core";
import { createWorkerPool } from "./worker-pool.ts";

export interface JimpProcessorOptions {
  /** Worker threads; one less than the cores by default (at least one), so the event loop keeps a core. */
  readonly workers?: number;
}

/** An ImageProcessor with jimp (pure JavaScript), each resize in a worker thread. */
export function createJimpProcessor(options: JimpProcessorOptions = {}): ImageProcessor & { readonly computations: number } {
  const size = Math.max(1, options.workers ?? availableParallelism() - 1);
  const pool = createWorkerPool(new URL("./jimp-worker.mjs", import.meta.url), size);
  return {
    name: "jimp",
    get computations() {
      return pool.started;
    },
    transform(source, plan, format) {
      // A copy is moved to the worker: the caller's bytes (maybe the cache's or the vault's) stay usable.
      const copy = source.slice();
      return pool.run({ source: copy, plan, mime: mimeOfFormat(format) }, [copy.buffer as ArrayBuffer]);
    },
    close: () => pool.close(),
  };
}
