import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { open, rename } from "node:fs/promises";
import { join } from "node:path";

/** Where a search index keeps its snapshots: one file per domain and generation, `<domain>.<generation>.<extension>`. */
export interface SnapshotFiles {
  path(domain: string, generation: number): string;
  /** The snapshot files of a domain, whatever their generation. */
  of(domain: string): string[];
  /**
   * Writes a snapshot, off the event loop, so that a reader sees the old file
   * or the new one, never half of one; answers its size in bytes. Writes of a domain
   * land in the order they were asked.
   */
  write(domain: string, generation: number, parts: readonly (string | NodeJS.ArrayBufferView)[]): Promise<number>;
  /** Removes a domain's snapshots of generations before `generation` (all of them without it), now and once the writes in flight land. */
  removeBefore(domain: string, generation?: number): void;
}

/** The snapshot files of an index in `dir` (created when missing). */
export function snapshotFiles(dir: string, extension: string): SnapshotFiles {
  mkdirSync(dir, { recursive: true });
  const pattern = new RegExp(`^(.*)\\.(\\d+)\\.${extension}$`);
  const path = (domain: string, generation: number) => join(dir, `${encodeURIComponent(domain)}.${generation}.${extension}`);
  const of = (domain: string) => readdirSync(dir).filter((name) => pattern.exec(name)?.[1] === encodeURIComponent(domain));
  const queues = new Map<string, Promise<unknown>>();

  async function writeNow(target: string, parts: readonly (string | NodeJS.ArrayBufferView)[]): Promise<number> {
    const temporary = `${target}.${process.pid}.tmp`;
    let size = 0;
    // Part by part: a large index is never copied into one buffer to be written.
    const file = await open(temporary, "w");
    try {
      for (const part of parts) {
        const bytes = typeof part === "string" ? Buffer.from(part, "utf8") : new Uint8Array(part.buffer, part.byteOffset, part.byteLength);
        for (let written = 0; written < bytes.length;) written += (await file.write(bytes, written)).bytesWritten;
        size += bytes.length;
      }
    } finally {
      await file.close();
    }
    await rename(temporary, target);
    return size;
  }

  return {
    path,
    of,
    write(domain, generation, parts) {
      const target = path(domain, generation);
      const previous = queues.get(domain) ?? Promise.resolve();
      const written = previous.catch(() => {}).then(() => writeNow(target, parts));
      queues.set(domain, written);
      void written.finally(() => queues.get(domain) === written && queues.delete(domain)).catch(() => {});
      return written;
    },
    removeBefore(domain, generation = Number.POSITIVE_INFINITY) {
      const remove = () => {
        for (const name of of(domain)) {
          if (Number(pattern.exec(name)?.[2]) < generation) rmSync(join(dir, name), { force: true });
        }
      };
      remove();
      // A cleanup that fails (the directory gone) leaves nothing worse than stale files.
      void queues.get(domain)?.then(remove, remove).catch(() => {});
    },
  };
}
