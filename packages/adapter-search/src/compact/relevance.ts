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
 * How relevant each document holding a term is: per weight, BM25+ of the
 * term's frequency against the document's length in that weight, boosted,
 * times `factor` (the term's rarity, and how much its kind of match counts).
 */
export function termRelevance(lengths: Uint32Array, averages: readonly number[], factor: number) {
  // Per weight, BM25's length normalisation as a + b * length.
  const a = averages.map(() => K1 * (1 - B));
  const b = averages.map((average) => (K1 * B) / average);
  const boosts = BOOSTS.map((boost) => boost * factor);
  return (frequencies: PackedFrequencies, slot: number): number => {
    let score = 0;
    for (let w = 0; w < WEIGHT_COUNT; w++) {
      const tf = frequencyOf(frequencies, w);
      if (tf === 0) continue;
      score += boosts[w]! * (DELTA + (tf * (K1 + 1)) / (tf + a[w]! + b[w]! * lengths[slot * WEIGHT_COUNT + w]!));
    }
    return score;
  };
}
