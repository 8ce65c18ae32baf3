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

/**
 * A frozen term's postings by range: range `ranges[i]` holds positions `starts[i]..starts[i+1]`, and
 * groups `groupStarts[i]..groupStarts[i+1]`: its postings grouped by their frequencies, each group with
 * the shortest length of its postings in each weight. A score grows with frequencies and falls with
 * lengths, so a group scored as one document scores at least as much as any of its postings, whatever
 * the average lengths, and exactly as much as the best of them when the term is in one weight.
 */
export interface TermRanges {
  readonly ranges: Uint32Array;
  readonly starts: Uint32Array;
  readonly groupStarts: Uint32Array;
  readonly groupFrequencies: Uint32Array;
  /** Group g, weight w at `g * WEIGHT_COUNT + w` (laid out as DocumentSlots.lengths). */
  readonly groupLengths: Uint32Array;
}

/** A term's postings by range, read once from the frozen postings and the slots' lengths. */
export function termRanges(postings: FrozenPostings, t: number, lengths: Uint32Array): TermRanges {
  const begin = postings.starts[t]!;
  const end = postings.starts[t + 1]!;
  const ranges: number[] = [];
  const starts: number[] = [];
  const groupStarts: number[] = [];
  const groupFrequencies: number[] = [];
  const groupLengths: number[] = [];
  let current = -1;
  let groups = new Map<PackedFrequencies, number>();
  for (let p = begin; p < end; p++) {
    const slot = postings.slots[p]!;
    const range = slot >>> RANGE_BITS;
    if (range !== current) {
      current = range;
      ranges.push(range);
      starts.push(p);
      groupStarts.push(groupFrequencies.length);
      groups = new Map();
    }
    const frequencies = postings.frequencies[p]!;
    let g = groups.get(frequencies);
    if (g === undefined) {
      g = groupFrequencies.push(frequencies) - 1;
      groups.set(frequencies, g);
      for (let w = 0; w < WEIGHT_COUNT; w++) groupLengths.push(lengths[slot * WEIGHT_COUNT + w]!);
    } else {
      for (let w = 0; w < WEIGHT_COUNT; w++) groupLengths[g * WEIGHT_COUNT + w] = Math.min(groupLengths[g * WEIGHT_COUNT + w]!, lengths[slot * WEIGHT_COUNT + w]!);
    }
  }
  starts.push(end);
  groupStarts.push(groupFrequencies.length);
  return {
    ranges: Uint32Array.from(ranges), starts: Uint32Array.from(starts), groupStarts: Uint32Array.from(groupStarts),
    groupFrequencies: Uint32Array.from(groupFrequencies), groupLengths: Uint32Array.from(groupLengths),
  };
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

/**
 * Per range of slots, the smallest id (dead slots included), kept up to date as slots are added: a
 * slot's id never changes, so only the ranges past the last computed slot are computed again; `reset`
 * after slots are renumbered.
 */
export function rangeFloorIds(slots: DocumentSlots) {
  let computed = 0;
  let floors = new Int32Array(0);
  return {
    current(): Int32Array {
      const count = slots.count;
      if (count === computed) return floors;
      const rangeCount = (count + RANGE_SIZE - 1) >>> RANGE_BITS;
      const first = computed >>> RANGE_BITS;
      const ids = new Int32Array(rangeCount);
      ids.set(floors.subarray(0, first));
      for (let r = first; r < rangeCount; r++) {
        let id = 2 ** 31 - 1;
        for (let s = r * RANGE_SIZE, end = Math.min(count, (r + 1) * RANGE_SIZE); s < end; s++) id = Math.min(id, slots.ids[s]!);
        ids[r] = id;
      }
      computed = count;
      floors = ids;
      return floors;
    },
    reset(): void {
      computed = 0;
      floors = new Int32Array(0);
    },
  };
}
