import type { SearchHit } from "@lineage/core";
import type { PendingPostings } from "./pending-postings.ts";
import type { FrozenPostings, PackedFrequencies } from "./postings.ts";
import { RANGE_BITS, RANGE_SIZE, rangePosition, type RangeFloors, type TermRanges } from "./slot-ranges.ts";

/** A term's relevance in a slot; with range floors and a range's maxima instead, the most it can be there. */
export type Relevance = (frequencies: PackedFrequencies, slot: number) => number;

/** One alternative of a query literal: a term, how relevant it is per slot, and its bound per range. */
export interface RangedTerm {
  readonly term: string;
  readonly relevance: Relevance;
  readonly bound: Relevance;
}

/** The slots as a search found them: arrays that later changes replace rather than write (alive is a copy). */
export interface SlotsView {
  readonly count: number;
  readonly ids: Int32Array;
  readonly structures: Uint16Array;
  readonly alive: Uint8Array;
}

/** Hits best first, and how many ranges were scored to give those taken so far (what the ranges save). */
export interface RangedHits extends Iterable<SearchHit> {
  scoredRanges(): number;
}

/** What a ranged search reads: the domain's slots and postings, and one group of required literals. */
export interface RangedSearch {
  readonly slots: SlotsView;
  readonly frozen: FrozenPostings;
  /** Slots below this are in the frozen postings only; from it on, in the pending ones only. */
  readonly frozenSlots: number;
  readonly pending: PendingPostings;
  readonly floors: RangeFloors;
  readonly rangesOf: (t: number) => TermRanges;
  /** Every literal must match; a literal matches through any of its terms, their relevances adding up. */
  readonly literals: readonly (readonly RangedTerm[])[];
  readonly excluded: ((slot: number) => boolean) | undefined;
  /** Per structure index, whether it is asked for; undefined when all are. */
  readonly allowed: Uint8Array | undefined;
}

/**
 * The hits of one group of literals best first (score descending, then id ascending), as the full
 * scoring orders them, without scoring every match: ranges of frozen slots are scored in the order
 * of the most their documents could score (block-max), and a hit is given once no range left can
 * beat it. The first page of a term held by most documents reads a few ranges. Slots added since the
 * postings were frozen are few (they are merged past a bound) and are scored up front.
 */
export function rangedBestFirst(search: RangedSearch): RangedHits {
  const { slots, frozen, frozenSlots, floors, literals } = search;
  const candidates = hitHeap();
  const score = new Float64Array(RANGE_SIZE);
  const count = new Uint16Array(RANGE_SIZE);
  const matched = new Uint32Array(RANGE_SIZE);

  /** Scores the slots from `base` whose postings `each` visits, literal by literal, as the full scoring does. */
  function scoreSlots(base: number, size: number, each: (term: RangedTerm, visit: (slot: number, frequencies: PackedFrequencies) => void) => void) {
    const scores = size <= RANGE_SIZE ? score : new Float64Array(size);
    const counts = size <= RANGE_SIZE ? count : new Uint16Array(size);
    const matches = size <= RANGE_SIZE ? matched : new Uint32Array(size);
    scores.fill(0, 0, size);
    counts.fill(0, 0, size);
    let found = 0;
    literals.forEach((terms, i) => {
      const last = i === literals.length - 1;
      for (const term of terms) {
        each(term, (slot, frequencies) => {
          if (!slots.alive[slot]) return;
          const local = slot - base;
          const seen = counts[local]!;
          if (seen === i) {
            counts[local] = i + 1;
            if (last) matches[found++] = local;
          } else if (seen !== i + 1) {
            return;
          }
          scores[local]! += term.relevance(frequencies, slot);
        });
      }
    });
    for (let m = 0; m < found; m++) {
      const slot = base + matches[m]!;
      if (search.excluded?.(slot)) continue;
      if (search.allowed && !search.allowed[slots.structures[slot]!]) continue;
      candidates.push(scores[matches[m]!]!, slots.ids[slot]!);
    }
  }

  // Pending postings change with the index: they are read now, as the ranges' bounds.
  scoreSlots(frozenSlots, slots.count - frozenSlots, (term, visit) => search.pending.each(term.term, visit));
  const order = rangesByBound(search);
  const bound = order.bounds;
  const rangesOfTerm = new Map(literals.flat().map((term) => {
    const t = frozen.lookup.get(term.term);
    return [term, t === undefined ? undefined : search.rangesOf(t)];
  }));
  // A hit is certain once every range left would score below it, or as much but with larger ids only.
  const certain = (r: number) => candidates.topScore() > bound[r]! || (candidates.topScore() === bound[r] && candidates.topId() < floors.ids[r]!);

  let next = 0;
  function* hits(): Generator<SearchHit, void, undefined> {
    for (;;) {
      while (next < order.ranges.length && (candidates.size() === 0 || !certain(order.ranges[next]!))) {
        const range = order.ranges[next++]!;
        scoreSlots(range << RANGE_BITS, RANGE_SIZE, (term, visit) => {
          const termRanges = rangesOfTerm.get(term);
          if (termRanges === undefined) return;
          const position = rangePosition(termRanges.ranges, range);
          if (position < 0) return;
          for (let p = termRanges.starts[position]!, end = termRanges.starts[position + 1]!; p < end; p++) visit(frozen.slots[p]!, frozen.frequencies[p]!);
        });
      }
      if (candidates.size() === 0) return;
      yield candidates.pop();
    }
  }
  return { [Symbol.iterator]: hits, scoredRanges: () => next };
}

/** The ranges where every literal has postings, by the most they could score (then smallest id first), with those bounds. */
function rangesByBound({ frozen, frozenSlots, floors, rangesOf, literals }: RangedSearch) {
  const rangeCount = (frozenSlots + RANGE_SIZE - 1) >>> RANGE_BITS;
  const bounds = new Float64Array(rangeCount);
  const present = new Uint16Array(rangeCount);
  const literalBound = new Float64Array(rangeCount);
  const touched = new Uint8Array(rangeCount);
  for (const terms of literals) {
    literalBound.fill(0);
    touched.fill(0);
    for (const term of terms) {
      const t = frozen.lookup.get(term.term);
      if (t === undefined) continue;
      const { ranges, maxima } = rangesOf(t);
      for (let j = 0; j < ranges.length; j++) {
        const r = ranges[j]!;
        if (r >= rangeCount) continue;
        literalBound[r]! += term.bound(maxima[j]!, r);
        touched[r] = 1;
      }
    }
    for (let r = 0; r < rangeCount; r++) {
      if (!touched[r]) continue;
      present[r]!++;
      bounds[r]! += literalBound[r]!;
    }
  }
  const ranges: number[] = [];
  for (let r = 0; r < rangeCount; r++) if (present[r] === literals.length) ranges.push(r);
  ranges.sort((a, b) => bounds[b]! - bounds[a]! || floors.ids[a]! - floors.ids[b]!);
  return { ranges, bounds };
}

/** Scored hits, the best (score descending, then id ascending) on top. */
function hitHeap() {
  const scores: number[] = [];
  const ids: number[] = [];
  const better = (a: number, b: number) => scores[a]! > scores[b]! || (scores[a] === scores[b] && ids[a]! < ids[b]!);
  const swap = (a: number, b: number) => {
    [scores[a], scores[b]] = [scores[b]!, scores[a]!];
    [ids[a], ids[b]] = [ids[b]!, ids[a]!];
  };
  return {
    size: () => scores.length,
    topScore: () => scores[0]!,
    topId: () => ids[0]!,
    push(score: number, id: number) {
      scores.push(score);
      ids.push(id);
      for (let child = scores.length - 1; child > 0;) {
        const parent = (child - 1) >>> 1;
        if (!better(child, parent)) break;
        swap(child, parent);
        child = parent;
      }
    },
    pop(): SearchHit {
      const hit = { id: ids[0]!, score: scores[0]! };
      const lastScore = scores.pop()!;
      const lastId = ids.pop()!;
      if (scores.length > 0) {
        scores[0] = lastScore;
        ids[0] = lastId;
        for (let parent = 0; ;) {
          const left = 2 * parent + 1;
          if (left >= scores.length) break;
          const child = left + 1 < scores.length && better(left + 1, left) ? left + 1 : left;
          if (!better(child, parent)) break;
          swap(child, parent);
          parent = child;
        }
      }
      return hit;
    },
  };
}
