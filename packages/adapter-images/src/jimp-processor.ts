import { availableParallelism } from "node:os";
import { LineageError, mimeOfFormat, type ImageProcessor } from "@lineage/core";
import { Piscina } from "piscina";

export interface JimpProcessorOptions {
  /** Worker threads; one less than the cores by default (at least one), so the event loop keeps a core. */
  readonly workers?: number;
  /**
   * Resizes that may wait for a free worker; one more is refused at once with 503 IMAGE0002 rather
   * than queued behind minutes of work its client will not wait for. 16 per worker by default.
   */
  readonly maxQueue?: number;
}

/** What piscina rejects a task with when its queue is full. */
const QUEUE_FULL = "Task queue is at limit";

/** An ImageProcessor with jimp (pure JavaScript), each resize in a worker thread of a piscina pool. */
export function createJimpProcessor(options: JimpProcessorOptions = {}): ImageProcessor & { readonly computations: number } {
  const size = Math.max(1, options.workers ?? availableParallelism() - 1);
  const maxQueue = options.maxQueue ?? 16 * size;
  const pool = new Piscina({ filename: new URL("./jimp-worker.mjs", import.meta.url).href, minThreads: size, maxThreads: size, maxQueue });
  return {
    name: "jimp",
    /** Resizes run to their end, done or failed (for tests of single flight and caching). */
    get computations() {
      return pool.completed;
    },
    async transform(source, plan, format) {
      // A copy is moved to the worker: the caller's bytes (maybe the cache's or the vault's) stay usable.
      const copy = source.slice();
      try {
        return await (pool.run({ source: copy, plan, mime: mimeOfFormat(format) }, { transferList: [copy.buffer as ArrayBuffer] }) as Promise<Uint8Array>);
      } catch (error) {
        if (error instanceof Error && error.message === QUEUE_FULL) throw new LineageError("IMAGE0002", [maxQueue]);
        throw error;
      }
    },
    close: () => pool.destroy(),
  };
}
