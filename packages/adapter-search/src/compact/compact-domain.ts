import { SEARCH_WEIGHTS, type IndexedDocument, type QueryLiteral, type SearchHit, type SearchQuery } from "@lineage/core";
import { bestFirst } from "./best-first.ts";
import { documentSlots, type DocumentSlots, type SlotsImage } from "./document-slots.ts";
import { pendingPostings, type PendingPostings } from "./pending-postings.ts";
import { postingScoresCache } from "./posting-scores.ts";
import { lowerBound, mergePostings, NO_POSTINGS, WEIGHT_COUNT, type FrozenPostings, type PackedFrequencies } from "./postings.ts";
import { rangedBestFirst, type RangedTerm } from "./ranged-search.ts";
import { inverseFrequency, termRelevance } from "./relevance.ts";
import { rangeFloorIds, termRanges, type TermRanges } from "./slot-ranges.ts";

/** A term matched by a prefix counts less than a whole word (as in MiniSearch). */
const PREFIX_WEIGHT = 0.375;
/** Pending postings are merged once they pass this many (or a quarter of the frozen ones), by default. */
export const MERGE_AT = 250_000;
/** Past this share of dead slots, a merge drops them (renumbering every posting); below, it copies. */
const DEAD_SHARE = 0.2;
/**
 * A query of one group whose every literal has at least this many holders is scored range by range
 * (ranged-search.ts), by default; below, scoring every match costs less than ordering ranges.
 */
export const RANGED_AT = 4096;

/** What a query literal looks up: terms, each with the weight of its matches. */
type Alternatives = readonly (readonly [term: string, weight: number])[];

/** The index of one search domain, in memory: document slots and their postings. */
export interface CompactDomain {
  readonly slots: DocumentSlots;
  /** Adds documents, replacing those of the same id. */
  add(documents: readonly IndexedDocument[]): void;
  remove(ids: readonly number[]): void;
  search(query: SearchQuery, structures?: readonly string[]): Iterable<SearchHit>;
  /** Merges what is pending: the state a snapshot holds, copied where it may still change. */
  settle(): { readonly slots: SlotsImage; readonly postings: FrozenPostings };
}

/**
 * A domain index, empty or from a settled snapshot's parts; pending postings are merged past `mergeAt`,
 * and queries whose literals all have `rangedAt` holders are scored range by range.
 */
export function compactDomain(image?: { readonly slots: SlotsImage; readonly postings: FrozenPostings }, mergeAt = MERGE_AT, rangedAt = RANGED_AT): CompactDomain {
  const slots = documentSlots(image?.slots);
  let frozen = image?.postings ?? NO_POSTINGS;
  let pending: PendingPostings = pendingPostings();
  // Slots below are in the frozen postings, the others in the pending ones (slots only append).
  let frozenSlots = slots.count;
  const floorIds = rangeFloorIds(slots);
  // Frozen postings never change: a term's ranges stay right until the next merge.
  let termRangeCache = new Map<number, TermRanges>();
  let postingScores = postingScoresCache(frozen);
  const rangesOf = (t: number) => {
    let ranges = termRangeCache.get(t);
    if (!ranges) termRangeCache.set(t, (ranges = termRanges(frozen, t, slots.lengths)));
    return ranges;
  };
  // Reused by every search: arrays of a slot count, allocated per query, cost more than the scoring.
  const scratch = searchScratch();

  function merge(): void {
    const dropDead = slots.count - slots.size > DEAD_SHARE * slots.count;
    frozen = mergePostings(frozen, pending.freeze(), dropDead ? slots.compact() : undefined);
    pending = pendingPostings();
    frozenSlots = slots.count;
    termRangeCache = new Map();
    postingScores = postingScoresCache(frozen);
    if (dropDead) floorIds.reset();
  }

  function addOne(document: IndexedDocument): void {
    const slot = slots.add(document.id, document.structure, SEARCH_WEIGHTS.map((weight) => document.terms[weight]?.length ?? 0));
    SEARCH_WEIGHTS.forEach((weight, w) => {
      for (const term of document.terms[weight] ?? []) pending.count(term, slot, w);
    });
  }

  /**
   * Documents holding a term, dead slots not yet merged away included: close enough for its rarity,
   * but never more than the documents (a rarity below zero would rank the best matches last).
   */
  function holdersOf(term: string): number {
    const t = frozen.lookup.get(term);
    return Math.min(slots.size, (t === undefined ? 0 : frozen.starts[t + 1]! - frozen.starts[t]!) + pending.holders(term));
  }

  function termsWithPrefix(prefix: string): string[] {
    const found: string[] = [];
    for (let t = lowerBound(frozen.terms, prefix); t < frozen.terms.length && frozen.terms[t]!.startsWith(prefix); t++) found.push(frozen.terms[t]!);
    for (const term of pending.termsWithPrefix(prefix)) if (!frozen.lookup.has(term)) found.push(term);
    return found;
  }

  /** The terms a literal looks up; a phrase is all its words, one literal each (adjacency is the caller's check). */
  function alternatives(literal: QueryLiteral): Alternatives[] {
    switch (literal.kind) {
      case "term": return [[[literal.term, 1]]];
      case "prefix": return [termsWithPrefix(literal.prefix).map((term) => [term, term === literal.prefix ? 1 : PREFIX_WEIGHT] as const)];
      case "phrase": return literal.terms.filter((t): t is string => t !== null).map((term) => [[term, 1]]);
    }
  }

  /** The slots holding any of the terms, as a test; undefined for no terms. */
  function holding(terms: readonly Alternatives[]): ((slot: number) => boolean) | undefined {
    if (terms.length === 0) return undefined;
    const held = new Uint8Array(slots.count);
    const hold = (slot: number) => void (held[slot] = 1);
    for (const alternatives of terms) {
      for (const [term] of alternatives) {
        const t = frozen.lookup.get(term);
        if (t !== undefined) frozen.slots.subarray(frozen.starts[t]!, frozen.starts[t + 1]!).forEach(hold);
        pending.each(term, hold);
      }
    }
    return (slot) => held[slot] === 1;
  }

  /** A query of one group of common literals, range by range (see rangedBestFirst); undefined for others. */
  function ranged(query: SearchQuery, structures: readonly string[] | undefined, averages: readonly number[]): Iterable<SearchHit> | undefined {
    if (query.groups.length !== 1) return undefined;
    const [group] = query.groups;
    const required = group!.filter((l) => !l.negated).flatMap(alternatives);
    if (required.length === 0) return undefined;
    if (required.some((terms) => terms.reduce((sum, [term]) => sum + holdersOf(term), 0) < rangedAt)) return undefined;
    const factors = required.map((terms) => terms.map(([term, weight]) => weight * inverseFrequency(holdersOf(term), slots.size)));
    // Ranges' bounds take the most frequent and the shortest: a rarity below zero would turn them around.
    if (factors.flat().some((factor) => !(factor > 0))) return undefined;
    const literals = required.map((terms, i) => terms.map(([term], j): RangedTerm => {
      const t = frozen.lookup.get(term);
      return {
        term,
        relevance: termRelevance(slots.lengths, averages, factors[i]![j]!),
        relevanceOver: (lengths) => termRelevance(lengths, averages, factors[i]![j]!),
        // A posting's score changes with the term's rarity and the average lengths only (frozen slots keep their lengths).
        postingScores: t === undefined ? undefined : postingScores.of(t, `${factors[i]![j]!} ${averages.join(" ")}`, rangesOf(t).ranges.length),
      };
    }));
    return rangedBestFirst({
      slots: { count: slots.count, ids: slots.ids, structures: slots.structures, alive: slots.alive.slice(0, slots.count) }, frozen,
      frozenSlots, pending, floorIds: floorIds.current(), rangesOf, literals,
      excluded: holding(group!.filter((l) => l.negated && l.kind !== "phrase").flatMap(alternatives)),
      allowed: structureFilter(slots, structures),
    });
  }

  function search(query: SearchQuery, structures?: readonly string[]): Iterable<SearchHit> {
    const averages = Array.from({ length: WEIGHT_COUNT }, (_, w) => slots.averageLength(w));
    const byRanges = ranged(query, structures, averages);
    if (byRanges) return byRanges;
    const n = slots.count;
    const { alive } = slots;
    const allowed = structureFilter(slots, structures);
    const { total, found, score, count, excludedSlots, matched, result, touched } = scratch.zeroed(n);
    let results = 0;
    for (const group of query.groups) {
      const required = group.filter((l) => !l.negated).flatMap(alternatives);
      // A negated phrase excludes nothing here: the caller checks it on the text.
      const excluded = group.filter((l) => l.negated && l.kind !== "phrase").flatMap(alternatives);
      let matches = 0;
      // Slots whose score and count this group writes: those its first literal reaches (later ones skip the others).
      let touches = 0;
      if (required.length === 0) {
        for (let s = 0; s < n; s++) if (alive[s]) matched[matches++] = s;
      }
      required.forEach((terms, i) => {
        const last = i === required.length - 1;
        for (const [term, weight] of terms) {
          const relevance = termRelevance(slots.lengths, averages, weight * inverseFrequency(holdersOf(term), slots.size));
          // A slot counts once per literal, and only if it matched every literal before.
          const visit = (slot: number, frequencies: PackedFrequencies) => {
            const seen = count[slot]!;
            if (seen === i) {
              if (i === 0) touched[touches++] = slot;
              count[slot] = i + 1;
              if (last) matched[matches++] = slot;
            } else if (seen !== i + 1) {
              return;
            }
            score[slot]! += relevance(frequencies, slot);
          };
          const t = frozen.lookup.get(term);
          if (t !== undefined) {
            for (let p = frozen.starts[t]!, end = frozen.starts[t + 1]!; p < end; p++) {
              const slot = frozen.slots[p]!;
              if (alive[slot]) visit(slot, frozen.frequencies[p]!);
            }
          }
          pending.each(term, (slot, frequencies) => {
            if (alive[slot]) visit(slot, frequencies);
          });
        }
      });
      if (excluded.length > 0) {
        excludedSlots.fill(0, 0, n);
        const exclude = (slot: number) => void (excludedSlots[slot] = 1);
        for (const terms of excluded) {
          for (const [term] of terms) {
            const t = frozen.lookup.get(term);
            if (t !== undefined) frozen.slots.subarray(frozen.starts[t]!, frozen.starts[t + 1]!).forEach(exclude);
            pending.each(term, exclude);
          }
        }
      }
      for (let m = 0; m < matches; m++) {
        const slot = matched[m]!;
        if (excluded.length > 0 && excludedSlots[slot]) continue;
        if (allowed && !allowed[slots.structures[slot]!]) continue;
        // A slot matching several groups sums their scores, and is listed once.
        if (!found[slot]) {
          found[slot] = 1;
          result[results++] = slot;
        }
        total[slot]! += score[slot]!;
      }
      for (let t = 0; t < touches; t++) {
        score[touched[t]!] = 0;
        count[touched[t]!] = 0;
      }
    }
    const ids = new Int32Array(results);
    const scores = new Float64Array(results);
    for (let r = 0; r < results; r++) {
      ids[r] = slots.ids[result[r]!]!;
      scores[r] = total[result[r]!]!;
      total[result[r]!] = 0;
      found[result[r]!] = 0;
    }
    scratch.release();
    return bestFirst(ids, scores);
  }

  return {
    slots,
    add(documents) {
      for (const document of documents) addOne(document);
      if (pending.size >= Math.max(mergeAt, frozen.slots.length / 4)) merge();
    },
    remove(ids) {
      for (const id of ids) slots.remove(id);
    },
    search,
    settle() {
      if (pending.size > 0) merge();
      // Frozen postings are never changed, only replaced: they need no copy.
      return { slots: slots.image(), postings: frozen };
    },
  };
}

/** Per structure index, whether it is asked for; undefined when all are. */
function structureFilter(slots: DocumentSlots, structures: readonly string[] | undefined): Uint8Array | undefined {
  if (!structures) return undefined;
  const allowed = new Uint8Array(slots.structureNames.length);
  slots.structureNames.forEach((name, i) => {
    if (structures.includes(name)) allowed[i] = 1;
  });
  return allowed;
}

/**
 * Work arrays of a search, one entry per slot, grown as slots are added. `total`, `found`, `score`
 * and `count` are zero between searches: a search sets back to zero the entries it wrote, rather than
 * zeroing every slot's (megabytes at a million slots, for a rare term's handful of postings).
 */
function searchScratch() {
  let size = 0;
  let arrays = allocate(0);
  function allocate(length: number) {
    return {
      total: new Float64Array(length),
      found: new Uint8Array(length),
      score: new Float64Array(length),
      // 16 bits: a long quoted phrase is hundreds of literals.
      count: new Uint16Array(length),
      excludedSlots: new Uint8Array(length),
      matched: new Uint32Array(length),
      result: new Uint32Array(length),
      touched: new Uint32Array(length),
    };
  }
  // Set while a search holds the arrays: one that threw before setting its entries back left them dirty.
  let inUse = false;
  return {
    /** The arrays, of `n` slots at least, zero where a search reads them first. */
    zeroed(n: number) {
      if (n > size) arrays = allocate((size = Math.max(n, size * 2)));
      else if (inUse) for (const array of [arrays.total, arrays.found, arrays.score, arrays.count]) array.fill(0);
      inUse = true;
      return arrays;
    },
    /** The search has set back every entry it wrote. */
    release() {
      inUse = false;
    },
  };
}
