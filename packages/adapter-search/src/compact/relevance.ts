import { SEARCH_WEIGHTS, WEIGHT_BOOSTS } from "@lineage/core";
import { frequencyOf, WEIGHT_COUNT, type PackedFrequencies } from "./postings.ts";

// BM25+ as MiniSearch scores (k1 1.2, b 0.7, delta 0.5), each weight a field with its boost.
const K1 = 1.2;
const B = 0.7;
const DELTA = 0.5;
const BOOSTS = SEARCH_WEIGHTS.map((w) => WEIGHT_BOOSTS[w]);

/** Rarity of a term held by `holders` of `documents` documents. */
export const inverseFrequency = (holders: number, documents: number): number =>
  Math.log(1 + (documents - holders + 0.5) / (holders + 0.5));

/**
 * The relevance of one document for one term: per weight, BM25+ of the
 * term's frequency against the document's length in that weight, boosted.
 */
export function termRelevance(
  frequencies: PackedFrequencies, lengths: Uint32Array, slot: number, averages: readonly number[], idf: number,
): number {
  let score = 0;
  for (let w = 0; w < WEIGHT_COUNT; w++) {
    const tf = frequencyOf(frequencies, w);
    if (tf === 0) continue;
    const norm = 1 - B + (B * lengths[slot * WEIGHT_COUNT + w]!) / averages[w]!;
    score += BOOSTS[w]! * idf * (DELTA + (tf * (K1 + 1)) / (tf + K1 * norm));
  }
  return score;
}
