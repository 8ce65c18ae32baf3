import { closeSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";

/** Where a search index keeps its snapshots: one file per domain and generation, `<domain>.<generation>.<extension>`. */
export interface SnapshotFiles {
  path(domain: string, generation: number): string;
  /** The snapshot files of a domain, whatever their generation. */
  of(domain: string): string[];
  /** Writes a snapshot so that a reader sees the old file or the new one, never half of one. */
  write(domain: string, generation: number, parts: readonly (string | NodeJS.ArrayBufferView)[]): string;
  /** Removes a domain's snapshots of generations before `generation` (all of them without it). */
  removeBefore(domain: string, generation?: number): void;
}

/** The snapshot files of an index in `dir` (created when missing). */
export function snapshotFiles(dir: string, extension: string): SnapshotFiles {
  mkdirSync(dir, { recursive: true });
  const pattern = new RegExp(`^(.*)\\.(\\d+)\\.${extension}$`);
  const path = (domain: string, generation: number) => join(dir, `${encodeURIComponent(domain)}.${generation}.${extension}`);
  const of = (domain: string) => readdirSync(dir).filter((name) => pattern.exec(name)?.[1] === encodeURIComponent(domain));
  return {
    path,
    of,
    write(domain, generation, parts) {
      const target = path(domain, generation);
      const temporary = `${target}.${process.pid}.tmp`;
      // Part by part: a large index is never copied into one buffer to be written.
      const fd = openSync(temporary, "w");
      try {
        for (const part of parts) {
          if (typeof part === "string") writeSync(fd, part);
          else writeAll(fd, part);
        }
      } finally {
        closeSync(fd);
      }
      renameSync(temporary, target);
      return target;
    },
    removeBefore(domain, generation = Number.POSITIVE_INFINITY) {
      for (const name of of(domain)) {
        if (Number(pattern.exec(name)?.[2]) < generation) rmSync(join(dir, name), { force: true });
      }
    },
  };
}

function writeAll(fd: number, part: NodeJS.ArrayBufferView): void {
  const bytes = new Uint8Array(part.buffer, part.byteOffset, part.byteLength);
  for (let written = 0; written < bytes.length;) written += writeSync(fd, bytes, written);
}
