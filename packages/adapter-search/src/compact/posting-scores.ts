import { LRUCache } from "lru-cache";
import type { FrozenPostings } from "./postings.ts";

/**
 * The scores of a frozen term's postings, filled range by range as searches score them: a term
 * searched again with the same rarity and average lengths adds up stored numbers instead of
 * computing each posting's relevance again (the same function over the same inputs: the same
 * numbers, so the same order of hits). `filled[i]` tells whether the postings of the term's i-th
 * range are in `scores`, at their position in the frozen postings less `first`.
 */
export interface PostingScores {
  readonly first: number;
  readonly scores: Float64Array;
  readonly filled: Uint8Array;
}

/** How many postings' scores are kept, every term together (8 bytes each): 32 MB. */
export const POSTING_SCORES_HELD = 4_000_000;

/**
 * Posting scores by term, for the frozen postings given (a new cache is made when they are
 * replaced), kept while the term's scoring is unchanged (`scoring` names it: rarity and
 * average lengths); the terms used longest ago are dropped past `held` postings.
 */
export function postingScoresCache(frozen: FrozenPostings, held = POSTING_SCORES_HELD) {
  const byTerm = new LRUCache<number, { readonly scoring: string; readonly cached: PostingScores }>({
    maxSize: held,
    // A term without postings still takes an entry.
    sizeCalculation: (entry) => Math.max(1, entry.cached.scores.length),
  });
  return {
    /** The scores of term `t` under `scoring`, its postings in `rangeCount` ranges; undefined for a term too large to keep. */
    of(t: number, scoring: string, rangeCount: number): PostingScores | undefined {
      const length = frozen.starts[t + 1]! - frozen.starts[t]!;
      if (length > held) return undefined;
      const found = byTerm.get(t);
      if (found?.scoring === scoring) return found.cached;
      const cached = { first: frozen.starts[t]!, scores: new Float64Array(length), filled: new Uint8Array(rangeCount) };
      byTerm.set(t, { scoring, cached });
      return cached;
    },
  };
}
