import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { open, readdir, readFile, rename } from "node:fs/promises";
import { join } from "node:path";

/** What a snapshot file says of itself, and how to load the rest. */
export interface SnapshotHead<T> {
  readonly format: number;
  /** The fingerprint of the domain definition it was built for. */
  readonly fingerprint: string;
  load(): T;
}

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
  /**
   * Loads the snapshot of a domain built for `expected`, or tells `log` why
   * there is none to use (another generation, format or definition, or an
   * unreadable file, `parse` or `load` having thrown) and answers undefined.
   */
  read<T>(domain: string, expected: { readonly fingerprint: string; readonly generation: number }, format: number, parse: (bytes: Buffer) => SnapshotHead<T>): Promise<T | undefined>;
}

/** The snapshot files of an index in `dir` (created when missing); `log` (the console by default) is told why a snapshot is not used. */
export function snapshotFiles(dir: string, extension: string, log = (message: string) => console.log(`[search] ${message}`)): SnapshotFiles {
  mkdirSync(dir, { recursive: true });
  const pattern = new RegExp(`^(.*)\\.(\\d+)\\.${extension}$`);
  const path = (domain: string, generation: number) => join(dir, `${encodeURIComponent(domain)}.${generation}.${extension}`);
  const isOf = (domain: string, name: string) => pattern.exec(name)?.[1] === encodeURIComponent(domain);
  const of = (domain: string) => readdirSync(dir).filter((name) => isOf(domain, name));
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
    async read(domain, expected, format, parse) {
      const file = path(domain, expected.generation);
      const why = (reason: string) => void log(`domain "${domain}": snapshot ${file} ${reason}: rebuilding`);
      let bytes: Buffer;
      try {
        // Read off the event loop: a search waits for it after another process rebuilt the domain.
        bytes = await readFile(file);
      } catch {
        const others = (await readdir(dir).catch((): string[] => [])).filter((name) => isOf(domain, name));
        if (others.length > 0) log(`domain "${domain}": snapshot ${others.join(", ")} is of another generation than ${expected.generation}: rebuilding`);
        return undefined;
      }
      try {
        const head = parse(bytes);
        if (head.format !== format) return why(`has format ${head.format}, not ${format}`);
        if (head.fingerprint !== expected.fingerprint) return why("was built for another definition of the domain");
        return head.load();
      } catch (error) {
        return why(`is unreadable (${(error as Error).message})`);
      }
    },
  };
}
