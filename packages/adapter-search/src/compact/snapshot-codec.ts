import { createHash } from "node:crypto";
import type { IndexCoverage, IndexedFile } from "@lineage/core";
import type { SlotsImage } from "./document-slots.ts";
import { frozenPostings, WEIGHT_COUNT, type FrozenPostings } from "./postings.ts";

/**
 * The binary snapshot of a compact domain index:
 *   "LNSEARCH", u32 (little endian) header length, header JSON, then the
 *   body, each part starting on a multiple of 8: slot ids (i32), slot
 *   structures (u16), lengths (u32 x 4 per slot), alive flags (u8), term starts (u32),
 *   posting slots (u32), posting frequencies (u32), terms (UTF-8, one per line).
 * The header holds the counts and a SHA-256 of the body, so a truncated or
 * altered file is refused rather than loaded.
 */
export const SNAPSHOT_FORMAT = 1;
const MAGIC = Buffer.from("LNSEARCH", "latin1");

export interface SnapshotHeader {
  readonly format: number;
  readonly coverage: IndexCoverage;
  readonly structureNames: readonly string[];
  readonly files: readonly (readonly [number, readonly IndexedFile[]])[];
  readonly slotCount: number;
  readonly termCount: number;
  readonly postingCount: number;
  readonly termBytes: number;
  readonly digest: string;
}

/** What a domain's snapshot holds. */
export interface SnapshotContent {
  readonly coverage: IndexCoverage;
  readonly files: readonly (readonly [number, readonly IndexedFile[]])[];
  readonly slots: SlotsImage;
  readonly postings: FrozenPostings;
}

const padding = (length: number) => (8 - (length % 8)) % 8;

/** The byte parts of a snapshot, in order, to be written one after the other. */
export function encodeSnapshot(content: SnapshotContent): Buffer[] {
  const { slots, postings } = content;
  const terms = Buffer.from(postings.terms.join("\n"), "utf8");
  const body = [slots.ids, slots.structures, slots.lengths, slots.alive, postings.starts, postings.slots, postings.frequencies, terms]
    .flatMap((part) => {
      const bytes = Buffer.from(part.buffer, part.byteOffset, part.byteLength);
      return [bytes, Buffer.alloc(padding(bytes.length))];
    });
  const hash = createHash("sha256");
  for (const part of body) hash.update(part);
  const header: SnapshotHeader = {
    format: SNAPSHOT_FORMAT,
    coverage: content.coverage,
    structureNames: slots.structureNames,
    files: content.files,
    slotCount: slots.ids.length,
    termCount: postings.terms.length,
    postingCount: postings.slots.length,
    termBytes: terms.length,
    digest: hash.digest("hex"),
  };
  const json = Buffer.from(JSON.stringify(header), "utf8");
  const length = Buffer.alloc(4);
  length.writeUInt32LE(json.length);
  return [MAGIC, length, json, Buffer.alloc(padding(MAGIC.length + 4 + json.length)), ...body];
}

/** The header of a snapshot file; throws when the bytes are not one. */
export function readSnapshotHeader(file: Buffer): SnapshotHeader & { readonly bodyStart: number } {
  if (file.length < MAGIC.length + 4 || !file.subarray(0, MAGIC.length).equals(MAGIC)) throw new Error("not a Lineage search snapshot");
  const length = file.readUInt32LE(MAGIC.length);
  const end = MAGIC.length + 4 + length;
  if (end > file.length) throw new Error("the header is cut short");
  const header = JSON.parse(file.toString("utf8", MAGIC.length + 4, end)) as SnapshotHeader;
  return { ...header, bodyStart: end + padding(end) };
}

/** The content of a snapshot whose header was read; throws when the body does not match it. */
export function decodeSnapshot(file: Buffer, header: SnapshotHeader & { readonly bodyStart: number }): SnapshotContent {
  const { slotCount, termCount, postingCount, termBytes } = header;
  const sizes = [slotCount * 4, slotCount * 2, slotCount * 4 * WEIGHT_COUNT, slotCount, (termCount + 1) * 4, postingCount * 4, postingCount * 4, termBytes];
  const expected = header.bodyStart + sizes.reduce((sum, size) => sum + size + padding(size), 0);
  if (file.length !== expected) throw new Error(`the file has ${file.length} bytes where its header announces ${expected}`);
  const digest = createHash("sha256").update(file.subarray(header.bodyStart)).digest("hex");
  if (digest !== header.digest) throw new Error("its content does not match its checksum");
  let offset = header.bodyStart;
  // Views on the file's bytes where they are aligned (a file read whole is): loading copies nothing.
  const next = <T>(Type: { new (buffer: ArrayBufferLike, offset?: number, length?: number): T; readonly BYTES_PER_ELEMENT: number }): T => {
    const size = sizes.shift()!;
    const start = file.byteOffset + offset;
    offset += size + padding(size);
    return start % Type.BYTES_PER_ELEMENT === 0
      ? new Type(file.buffer, start, size / Type.BYTES_PER_ELEMENT)
      : new Type(file.buffer.slice(start, start + size));
  };
  const slots: SlotsImage = {
    ids: next(Int32Array),
    structures: next(Uint16Array),
    lengths: next(Uint32Array),
    alive: next(Uint8Array),
    structureNames: header.structureNames,
  };
  const starts = next(Uint32Array);
  const postingSlots = next(Uint32Array);
  const frequencies = next(Uint32Array);
  const termText = Buffer.from(next(Uint8Array)).toString("utf8");
  const terms = termCount === 0 ? [] : termText.split("\n");
  if (terms.length !== termCount) throw new Error(`it lists ${terms.length} terms where its header announces ${termCount}`);
  return { coverage: header.coverage, files: header.files, slots, postings: frozenPostings(terms, starts, postingSlots, frequencies) };
}
