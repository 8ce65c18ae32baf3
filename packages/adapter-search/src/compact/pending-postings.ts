import { countOnce, frozenPostings, type FrozenPostings, type PackedFrequencies } from "./postings.ts";

const NONE = -1;

/**
 * Postings of the documents added since the last merge, in an append-only
 * log of typed arrays (term, slot, frequencies, and the previous posting of
 * the same term): growing it costs no garbage, unlike a list per term.
 */
export interface PendingPostings {
  /** Postings held, all terms together. */
  readonly size: number;
  /** Counts one occurrence of `term` in weight `w` of `slot`; slots must come in ascending order. */
  count(term: string, slot: number, w: number): void;
  /** How many postings a term has here. */
  holders(term: string): number;
  /** Calls `visit` for each posting of a term (newest first). */
  each(term: string, visit: (slot: number, frequencies: PackedFrequencies) => void): void;
  /** The terms here that start with `prefix`. */
  termsWithPrefix(prefix: string): string[];
  /** The postings as frozen postings: terms sorted, slots ascending per term. */
  freeze(): FrozenPostings;
}

/** Empty pending postings. */
export function pendingPostings(): PendingPostings {
  const terms: string[] = [];
  const termIds = new Map<string, number>();
  let latest = new Int32Array(1024);
  let holders = new Uint32Array(1024);
  let size = 0;
  let logTerms = new Uint32Array(4096);
  let logSlots = new Uint32Array(4096);
  let logFrequencies = new Uint32Array(4096);
  let logPrevious = new Int32Array(4096);

  function termId(term: string): number {
    let id = termIds.get(term);
    if (id !== undefined) return id;
    id = terms.push(term) - 1;
    termIds.set(term, id);
    if (id === latest.length) {
      latest = grown(latest, id);
      holders = grown(holders, id);
    }
    latest[id] = NONE;
    return id;
  }

  return {
    get size() { return size; },
    count(term, slot, w) {
      const id = termId(term);
      const last = latest[id]!;
      if (last !== NONE && logSlots[last] === slot) {
        logFrequencies[last] = countOnce(logFrequencies[last]!, w);
        return;
      }
      if (size === logSlots.length) {
        logTerms = grown(logTerms, size);
        logSlots = grown(logSlots, size);
        logFrequencies = grown(logFrequencies, size);
        logPrevious = grown(logPrevious, size);
      }
      logTerms[size] = id;
      logSlots[size] = slot;
      logFrequencies[size] = countOnce(0, w);
      logPrevious[size] = last;
      latest[id] = size++;
      holders[id]!++;
    },
    holders(term) {
      const id = termIds.get(term);
      return id === undefined ? 0 : holders[id]!;
    },
    each(term, visit) {
      const id = termIds.get(term);
      if (id === undefined) return;
      for (let p = latest[id]!; p !== NONE; p = logPrevious[p]!) visit(logSlots[p]!, logFrequencies[p]!);
    },
    termsWithPrefix: (prefix) => terms.filter((term) => term.startsWith(prefix)),
    freeze() {
      // A counting sort by term: the log is in slot order, so each term's slots come out ascending.
      const order = terms.map((_, id) => id).sort((a, b) => (terms[a]! < terms[b]! ? -1 : 1));
      const rank = new Uint32Array(terms.length);
      const starts = new Uint32Array(terms.length + 1);
      order.forEach((id, r) => {
        rank[id] = r;
        starts[r + 1] = starts[r]! + holders[id]!;
      });
      const cursor = starts.slice(0, terms.length);
      const slots = new Uint32Array(size);
      const frequencies = new Uint32Array(size);
      for (let p = 0; p < size; p++) {
        const at = cursor[rank[logTerms[p]!]!]!++;
        slots[at] = logSlots[p]!;
        frequencies[at] = logFrequencies[p]!;
      }
      return frozenPostings(order.map((id) => terms[id]!), starts, slots, frequencies);
    },
  };
}

function grown<T extends Int32Array | Uint32Array>(array: T, used: number): T {
  const next = new (array.constructor as new (length: number) => T)(array.length * 2);
  next.set(array.subarray(0, used) as never);
  return next;
}
