import { createReadStream } from "node:fs";
import { mkdir, mkdtemp, open, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { JSONParser } from "@streamparser/json";
import type { BundlePart, BundleSource } from "@lineage/core";

/*
 * A bundle file as the import reads it, never as one string: the first read parses it as it
 * streams (@streamparser/json, measured against stream-json on the 1,000,000-element bundle:
 * about half the CPU time) and stages each element as one line of a temporary file; the later
 * reads (the import reads a bundle three or four times) replay the definitions kept in memory
 * and the staged lines, parsed line by line. So the definitions may stand before or after the
 * elements in the file, and memory holds one batch of elements plus the definitions.
 */

/** Elements per batch. */
const BATCH = 1000;
const CHUNK_BYTES = 1 << 20;

export interface BundleStreamOptions {
  /** The folder the staging folder is made in (and removed from by close()). */
  readonly stagingDir: string;
  /** Told the bytes read of the file during the first read. */
  readonly onBytes?: ((read: number, total: number) => void) | undefined;
}

/** A bundle file as a source of parts; close() removes what it staged. */
export interface BundleStream extends BundleSource {
  close(): Promise<void>;
}

/**
 * Opens a bundle file for importBundleSource. Its first read throws `FILE: message` when the file
 * is not JSON.
 * @example
 * const bundle = openBundleStream("bundle.json", { stagingDir: "./data" });
 * try { await platform.bundles.importSource(bundle, { readFile }); } finally { await bundle.close(); }
 */
export function openBundleStream(path: string, options: BundleStreamOptions): BundleStream {
  let staging: string | undefined;
  let staged: { sections: BundlePart[]; file: string } | undefined;
  let reading = false;
  return {
    read() {
      if (staged) return replay(staged.sections, staged.file);
      if (reading) throw new Error(`${path}: the first read of the bundle did not finish`);
      reading = true;
      return (async function* () {
        await mkdir(options.stagingDir, { recursive: true });
        staging = await mkdtemp(join(options.stagingDir, ".import-"));
        const file = join(staging, "elements.ndjson");
        const sections: BundlePart[] = [];
        for await (const part of firstRead(path, file, options.onBytes)) {
          if (part.kind !== "elements") sections.push(part);
          yield part;
        }
        staged = { sections, file };
      })();
    },
    async close() {
      if (staging) await rm(staging, { recursive: true, force: true });
    },
  };
}

/** Parses the file as it streams, staging the elements one per line in `stagedFile`. */
async function* firstRead(path: string, stagedFile: string, onBytes: BundleStreamOptions["onBytes"]): AsyncGenerator<BundlePart> {
  const total = (await stat(path)).size;
  const out = await open(stagedFile, "w");
  try {
    const parser = new JSONParser({ paths: ["$.*", "$.elements.*"], keepStack: false });
    const ready: BundlePart[] = [];
    let batch: unknown[] = [];
    let lines = "";
    let count = 0;
    let rootKind: "object" | "array" | "other" | undefined;
    const sectionKeys = new Set<string>();
    const endBatch = () => {
      ready.push({ kind: "elements", first: count - batch.length, entries: batch });
      batch = [];
    };
    parser.onValue = ({ value, key, parent, stack }) => {
      if (stack.length === 2 && stack[1]?.key === "elements" && Array.isArray(parent)) {
        // The parser keeps what a selected ancestor (here `elements`, as a root key) will hold: drop it, as keepStack would.
        parent.length -= 1;
        batch.push(value);
        lines += `${JSON.stringify(value)}\n`;
        count++;
        if (batch.length === BATCH) endBatch();
        return;
      }
      if (stack.length !== 1 || rootKind !== "object" || typeof key !== "string") return;
      // A JSON object keeps the last of two equal keys; two lists of elements cannot both be streamed.
      if (sectionKeys.has(key)) throw new Error(`the key "${key}" appears twice at the root`);
      sectionKeys.add(key);
      if (key === "elements" && Array.isArray(value)) return;
      ready.push({ kind: "section", key, value });
    };
    let read = 0;
    for await (const chunk of createReadStream(path, { highWaterMark: CHUNK_BYTES }) as AsyncIterable<Buffer>) {
      rootKind ??= kindOf(chunk);
      try {
        parser.write(chunk);
      } catch (error) {
        throw new Error(`${path}: ${(error as Error).message}`);
      }
      read += chunk.length;
      onBytes?.(read, total);
      if (lines) await out.write(lines);
      lines = "";
      yield* ready.splice(0);
    }
    if (!parser.isEnded) {
      try {
        parser.end();
      } catch (error) {
        throw new Error(`${path}: ${(error as Error).message}`);
      }
    }
    if (rootKind === undefined) throw new Error(`${path}: the file holds no JSON value`);
    if (batch.length > 0) endBatch();
    if (lines) await out.write(lines);
    yield* ready.splice(0);
    // A bundle that is not an object is refused for that alone: a list stands for any value.
    if (rootKind !== "object") yield { kind: "root", value: [] };
    if (total === 0) onBytes?.(0, 0);
  } finally {
    await out.close();
  }
}

const BLANKS = new Set([0x20, 0x09, 0x0a, 0x0d, 0xef, 0xbb, 0xbf]);

/** The root's kind from its first byte (blanks and a byte-order mark skipped); undefined for a chunk of blanks only. */
function kindOf(chunk: Buffer): "object" | "array" | "other" | undefined {
  const first = chunk.find((byte) => !BLANKS.has(byte));
  return first === undefined ? undefined : first === 0x7b ? "object" : first === 0x5b ? "array" : "other";
}

/** The later reads: the sections kept in memory, then the staged elements, a batch at a time. */
async function* replay(sections: readonly BundlePart[], stagedFile: string): AsyncGenerator<BundlePart> {
  yield* sections;
  let first = 0;
  let batch: unknown[] = [];
  let rest = "";
  for await (const chunk of createReadStream(stagedFile, { encoding: "utf8", highWaterMark: CHUNK_BYTES }) as AsyncIterable<string>) {
    const lines = (rest + chunk).split("\n");
    rest = lines.pop() ?? "";
    for (const line of lines) {
      batch.push(JSON.parse(line));
      if (batch.length === BATCH) {
        yield { kind: "elements", first, entries: batch };
        first += batch.length;
        batch = [];
      }
    }
  }
  if (batch.length > 0) yield { kind: "elements", first, entries: batch };
}

