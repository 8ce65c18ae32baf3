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
  readonly lookup: ReadonlyMap<string, number>;
  readonly starts: Uint32Array;
  readonly slots: Uint32Array;
  readonly frequencies: Uint32Array;
}

/** Frozen postings over arrays laid out as FrozenPostings says. */
export function frozenPostings(terms: readonly string[], starts: Uint32Array, slots: Uint32Array, frequencies: Uint32Array): FrozenPostings {
  const lookup = new Map<string, number>();
  for (let i = 0; i < terms.length; i++) lookup.set(terms[i]!, i);
  return { terms, lookup, starts, slots, frequencies };
}

export const NO_POSTINGS: FrozenPostings = frozenPostings([], new Uint32Array(1), new Uint32Array(0), new Uint32Array(0));

/** Postings of the documents added since the last merge, in growable arrays (slots ascending per term). */
export interface PendingPostings {
  readonly byTerm: Map<string, { slots: number[]; frequencies: number[] }>;
  /** Postings held, all terms together. */
  size: number;
}

export const pendingPostings = (): PendingPostings => ({ byTerm: new Map(), size: 0 });

/** Records that `slot` holds `term`; slots must come in ascending order. */
export function addPosting(pending: PendingPostings, term: string, slot: number, frequencies: PackedFrequencies): void {
  let list = pending.byTerm.get(term);
  if (!list) pending.byTerm.set(term, (list = { slots: [], frequencies: [] }));
  list.slots.push(slot);
  list.frequencies.push(frequencies);
  pending.size++;
}

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
 * Frozen and pending postings merged into new frozen postings, slots
 * renumbered by `renumber` (old slot to new, -1 for a slot that is gone,
 * never reordering slots). Terms left without postings are dropped.
 */
export function mergePostings(frozen: FrozenPostings, pending: PendingPostings, renumber: Int32Array): FrozenPostings {
  const pendingTerms = [...pending.byTerm.keys()].sort();
  const capacity = frozen.slots.length + pending.size;
  const slots = new Uint32Array(capacity);
  const frequencies = new Uint32Array(capacity);
  const terms: string[] = [];
  const starts: number[] = [0];
  let out = 0;
  const copyFrozen = (t: number) => {
    for (let p = frozen.starts[t]!, end = frozen.starts[t + 1]!; p < end; p++) {
      const slot = renumber[frozen.slots[p]!]!;
      if (slot < 0) continue;
      slots[out] = slot;
      frequencies[out++] = frozen.frequencies[p]!;
    }
  };
  const copyPending = (term: string) => {
    const list = pending.byTerm.get(term)!;
    for (let p = 0; p < list.slots.length; p++) {
      const slot = renumber[list.slots[p]!]!;
      if (slot < 0) continue;
      slots[out] = slot;
      frequencies[out++] = list.frequencies[p]!;
    }
  };
  let f = 0;
  let n = 0;
  while (f < frozen.terms.length || n < pendingTerms.length) {
    const frozenTerm = frozen.terms[f];
    const pendingTerm = pendingTerms[n];
    const before = out;
    let term: string;
    if (pendingTerm === undefined || (frozenTerm !== undefined && frozenTerm < pendingTerm)) {
      term = frozenTerm!;
      copyFrozen(f++);
    } else if (frozenTerm === pendingTerm) {
      term = frozenTerm;
      // Frozen slots all come before pending ones: the merged list stays ascending.
      copyFrozen(f++);
      copyPending(pendingTerms[n++]!);
    } else {
      term = pendingTerm;
      copyPending(pendingTerms[n++]!);
    }
    if (out > before) {
      terms.push(term);
      starts.push(out);
    }
  }
  return frozenPostings(terms, Uint32Array.from(starts), slots.slice(0, out), frequencies.slice(0, out));
}
