import type { DocumentSlots } from "./document-slots.ts";
import { WEIGHT_COUNT, type FrozenPostings, type PackedFrequencies } from "./postings.ts";

/**
 * Slots in ranges of 2^RANGE_BITS, the unit a query skips without scoring: per range, what no
 * document in it can beat (the shortest length per weight, the smallest id) and, per frozen term,
 * where its postings in the range are and their largest frequency per weight. Small ranges bound
 * scores tightly; 1024 slots keep the per-range tables a few kilobytes at a million documents.
 */
export const RANGE_BITS = 10;
export const RANGE_SIZE = 1 << RANGE_BITS;

/** A frozen term's postings by range: range `ranges[i]` holds positions `starts[i]..starts[i+1]`. */
export interface TermRanges {
  readonly ranges: Uint32Array;
  readonly starts: Uint32Array;
  /** The largest frequency of each weight in the range, packed as PackedFrequencies. */
  readonly maxima: Uint32Array;
}

/** A term's postings by range, read once from the frozen postings. */
export function termRanges(postings: FrozenPostings, t: number): TermRanges {
  const begin = postings.starts[t]!;
  const end = postings.starts[t + 1]!;
  const ranges: number[] = [];
  const starts: number[] = [];
  const maxima: number[] = [];
  let current = -1;
  for (let p = begin; p < end; p++) {
    const range = postings.slots[p]! >>> RANGE_BITS;
    if (range !== current) {
      current = range;
      ranges.push(range);
      starts.push(p);
      maxima.push(0);
    }
    maxima[maxima.length - 1] = packedMax(maxima.at(-1)!, postings.frequencies[p]!);
  }
  starts.push(end);
  return { ranges: Uint32Array.from(ranges), starts: Uint32Array.from(starts), maxima: Uint32Array.from(maxima) };
}

/** Per weight, the larger count of two packed frequencies. */
function packedMax(a: PackedFrequencies, b: PackedFrequencies): PackedFrequencies {
  let packed = 0;
  for (let w = 0; w < WEIGHT_COUNT; w++) packed += Math.max((a >>> (8 * w)) & 255, (b >>> (8 * w)) & 255) * 2 ** (8 * w);
  return packed;
}

/** The position in `ranges` of `range`, or -1. */
export function rangePosition(ranges: Uint32Array, range: number): number {
  let lo = 0;
  let hi = ranges.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ranges[mid]! < range) lo = mid + 1;
    else hi = mid;
  }
  return lo < ranges.length && ranges[lo] === range ? lo : -1;
}

/** Per range of slots, the shortest length of each weight (laid out as DocumentSlots.lengths) and the smallest id. */
export interface RangeFloors {
  readonly lengths: Uint32Array;
  readonly ids: Int32Array;
}

/**
 * Range floors kept up to date as slots are added: a slot's length and id never change, so only
 * the ranges past the last computed slot are computed again; `reset` after slots are renumbered.
 */
export function rangeFloors(slots: DocumentSlots) {
  let computed = 0;
  let floors: RangeFloors = { lengths: new Uint32Array(0), ids: new Int32Array(0) };
  return {
    current(): RangeFloors {
      const count = slots.count;
      if (count === computed) return floors;
      const rangeCount = (count + RANGE_SIZE - 1) >>> RANGE_BITS;
      const first = computed >>> RANGE_BITS;
      const lengths = new Uint32Array(rangeCount * WEIGHT_COUNT);
      const ids = new Int32Array(rangeCount);
      lengths.set(floors.lengths.subarray(0, first * WEIGHT_COUNT));
      ids.set(floors.ids.subarray(0, first));
      for (let r = first; r < rangeCount; r++) {
        const end = Math.min(count, (r + 1) * RANGE_SIZE);
        let id = 2 ** 31 - 1;
        for (let w = 0; w < WEIGHT_COUNT; w++) lengths[r * WEIGHT_COUNT + w] = 2 ** 32 - 1;
        for (let s = r * RANGE_SIZE; s < end; s++) {
          id = Math.min(id, slots.ids[s]!);
          for (let w = 0; w < WEIGHT_COUNT; w++) {
            lengths[r * WEIGHT_COUNT + w] = Math.min(lengths[r * WEIGHT_COUNT + w]!, slots.lengths[s * WEIGHT_COUNT + w]!);
          }
        }
        ids[r] = id;
      }
      computed = count;
      floors = { lengths, ids };
      return floors;
    },
    reset(): void {
      computed = 0;
      floors = { lengths: new Uint32Array(0), ids: new Int32Array(0) };
    },
  };
}
