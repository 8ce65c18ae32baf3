/**
 * The term frequencies of one document slot for one term, 8 bits per weight
 * (A in the low byte, then B, C, D), saturating at 255.
 */
export type PackedFrequencies = number;

/** How many weights a packed frequency holds, and the largest count each keeps. */
export const WEIGHT_COUNT = 4;
const MAX_FREQUENCY = 255;

/** Packed frequencies with one more occurrence in weight `w` (unchanged once it holds 255). */
export function countOnce(packed: PackedFrequencies, w: number): PackedFrequencies {
  return ((packed >>> (8 * w)) & MAX_FREQUENCY) === MAX_FREQUENCY ? packed : packed + 2 ** (8 * w);
}

/** The count of weight `w` in packed frequencies. */
export const frequencyOf = (packed: PackedFrequencies, w: number): number => (packed >>> (8 * w)) & MAX_FREQUENCY;

/**
 * Postings frozen in typed arrays: the terms sorted, and for term i the
 * slots holding it (ascending) at `slots[starts[i]..starts[i+1])`, with
 * their frequencies at the same places.
 */
export interface FrozenPostings {
  readonly terms: readonly string[];
  readonly lookup: TermLookup;
  readonly starts: Uint32Array;
  readonly slots: Uint32Array;
  readonly frequencies: Uint32Array;
}

/** The index of a term among the sorted terms. */
export interface TermLookup {
  get(term: string): number | undefined;
  has(term: string): boolean;
}

/**
 * Frozen postings over arrays laid out as FrozenPostings says. Terms are found by binary search
 * of the sorted terms: a Map of them would take a second and tens of MB to build at a million
 * terms (a snapshot's load), for lookups a search makes a handful of.
 */
export function frozenPostings(terms: readonly string[], starts: Uint32Array, slots: Uint32Array, frequencies: Uint32Array): FrozenPostings {
  const get = (term: string) => {
    const t = lowerBound(terms, term);
    return terms[t] === term ? t : undefined;
  };
  return { terms, lookup: { get, has: (term) => get(term) !== undefined }, starts, slots, frequencies };
}

export const NO_POSTINGS: FrozenPostings = frozenPostings([], new Uint32Array(1), new Uint32Array(0), new Uint32Array(0));

/** The index of the first sorted term not below `prefix`. */
export function lowerBound(terms: readonly string[], prefix: string): number {
  let lo = 0;
  let hi = terms.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (terms[mid]! < prefix) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Two frozen postings merged into one, every slot of `older` before every
 * slot of `newer`. With `renumber` (old slot to new, -1 for a slot that is
 * gone, never reordering slots) slots are renumbered and terms left without
 * postings dropped; without it postings are copied as they are, a memory
 * copy per term.
 */
export function mergePostings(older: FrozenPostings, newer: FrozenPostings, renumber?: Int32Array): FrozenPostings {
  const capacity = older.slots.length + newer.slots.length;
  const slots = new Uint32Array(capacity);
  const frequencies = new Uint32Array(capacity);
  const terms: string[] = [];
  const starts = new Uint32Array(older.terms.length + newer.terms.length + 1);
  let out = 0;
  const copy = (from: FrozenPostings, t: number) => {
    if (!renumber) {
      const start = from.starts[t]!;
      const end = from.starts[t + 1]!;
      slots.set(from.slots.subarray(start, end), out);
      frequencies.set(from.frequencies.subarray(start, end), out);
      out += end - start;
      return;
    }
    for (let p = from.starts[t]!, end = from.starts[t + 1]!; p < end; p++) {
      const slot = renumber[from.slots[p]!]!;
      if (slot < 0) continue;
      slots[out] = slot;
      frequencies[out++] = from.frequencies[p]!;
    }
  };
  let o = 0;
  let n = 0;
  while (o < older.terms.length || n < newer.terms.length) {
    const olderTerm = older.terms[o];
    const newerTerm = newer.terms[n];
    const before = out;
    const fromOlder = newerTerm === undefined || (olderTerm !== undefined && olderTerm <= newerTerm);
    const fromNewer = olderTerm === undefined || (newerTerm !== undefined && newerTerm <= olderTerm);
    // Older slots first: a term in both stays ascending.
    if (fromOlder) copy(older, o++);
    if (fromNewer) copy(newer, n++);
    if (out > before) {
      terms.push(fromOlder ? olderTerm! : newerTerm!);
      starts[terms.length] = out;
    }
  }
  // A merge that dropped few postings keeps its arrays rather than copying them once more.
  const fit = (array: Uint32Array) => (out > 0.9 * array.length ? array.subarray(0, out) : array.slice(0, out));
  return frozenPostings(terms, starts.slice(0, terms.length + 1), fit(slots), fit(frequencies));
}
