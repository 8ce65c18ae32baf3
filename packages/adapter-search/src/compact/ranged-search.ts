import type { SearchHit } from "@lineage/core";
import type { PendingPostings } from "./pending-postings.ts";
import type { PostingScores } from "./posting-scores.ts";
import type { FrozenPostings, PackedFrequencies } from "./postings.ts";
import { RANGE_BITS, RANGE_SIZE, rangePosition, type TermRanges } from "./slot-ranges.ts";

/** A term's relevance in a slot. */
export type Relevance = (frequencies: PackedFrequencies, slot: number) => number;

/** One alternative of a query literal: a term, and how relevant it is per slot (over given lengths: its ranges' groups are scored with it). */
export interface RangedTerm {
  readonly term: string;
  readonly relevance: Relevance;
  readonly relevanceOver: (lengths: Uint32Array) => Relevance;
  /** Where the relevance of its frozen postings is kept between searches, when it is. */
  readonly postingScores?: PostingScores | undefined;
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
  /** Per range, its smallest id. */
  readonly floorIds: Int32Array;
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
  const { slots, frozen, frozenSlots, floorIds, literals } = search;
  const candidates = hitHeap();
  const score = new Float64Array(RANGE_SIZE);
  const count = new Uint16Array(RANGE_SIZE);
  const matched = new Uint32Array(RANGE_SIZE);
  const { alive } = slots;

  /** Scores the slots from `base` over the postings `segment` gives per term, literal by literal, as the full scoring does. */
  function scoreSlots(base: number, size: number, segment: (term: RangedTerm) => Segment | undefined): void {
    const scores = size <= RANGE_SIZE ? score : new Float64Array(size);
    const counts = size <= RANGE_SIZE ? count : new Uint16Array(size);
    const matches = size <= RANGE_SIZE ? matched : new Uint32Array(size);
    scores.fill(0, 0, size);
    counts.fill(0, 0, size);
    let found = 0;
    for (let i = 0; i < literals.length; i++) {
      const last = i === literals.length - 1;
      for (const term of literals[i]!) {
        const postings = segment(term);
        if (!postings) continue;
        const { relevance } = term;
        const known = postings.known;
        if (known && !known.filled[postings.position]) {
          for (let p = postings.start; p < postings.end; p++) known.scores[p - known.first] = relevance(postings.frequencies[p]!, postings.slots[p]!);
          known.filled[postings.position] = 1;
        }
        for (let p = postings.start; p < postings.end; p++) {
          const slot = postings.slots[p]!;
          if (!alive[slot]) continue;
          const local = slot - base;
          const seen = counts[local]!;
          if (seen === i) {
            counts[local] = i + 1;
            if (last) matches[found++] = local;
          } else if (seen !== i + 1) {
            continue;
          }
          scores[local]! += known ? known.scores[p - known.first]! : relevance(postings.frequencies[p]!, slot);
        }
      }
    }
    for (let m = 0; m < found; m++) {
      const slot = base + matches[m]!;
      if (search.excluded?.(slot)) continue;
      if (search.allowed && !search.allowed[slots.structures[slot]!]) continue;
      candidates.push(scores[matches[m]!]!, slots.ids[slot]!);
    }
  }

  // Pending postings change with the index: they are read now, as the ranges' bounds.
  scoreSlots(frozenSlots, slots.count - frozenSlots, (term) => pendingSegment(search.pending, term.term));
  const order = rangesByBound(search);
  const bound = order.bounds;
  const rangesOfTerm = new Map(literals.flat().map((term) => {
    const t = frozen.lookup.get(term.term);
    return [term, t === undefined ? undefined : search.rangesOf(t)];
  }));
  // A hit is certain once every range left would score below it, or as much but with larger ids only.
  const certain = (r: number) => candidates.topScore() > bound[r]! || (candidates.topScore() === bound[r] && candidates.topId() < floorIds[r]!);

  let next = 0;
  function* hits(): Generator<SearchHit, void, undefined> {
    for (;;) {
      while (next < order.ranges.length && (candidates.size() === 0 || !certain(order.ranges[next]!))) {
        const range = order.ranges[next++]!;
        scoreSlots(range << RANGE_BITS, RANGE_SIZE, (term) => {
          const termRanges = rangesOfTerm.get(term);
          const position = termRanges ? rangePosition(termRanges.ranges, range) : -1;
          if (position < 0) return undefined;
          return {
            slots: frozen.slots, frequencies: frozen.frequencies, start: termRanges!.starts[position]!, end: termRanges!.starts[position + 1]!,
            known: term.postingScores, position,
          };
        });
      }
      if (candidates.size() === 0) return;
      yield candidates.pop();
    }
  }
  return { [Symbol.iterator]: hits, scoredRanges: () => next };
}

/** Postings of a term at positions `start..end` of the arrays. */
interface Segment {
  readonly slots: Uint32Array;
  readonly frequencies: Uint32Array;
  readonly start: number;
  readonly end: number;
  /** Scores kept of these postings (frozen ones), and the position of their range among the term's. */
  readonly known?: PostingScores | undefined;
  readonly position: number;
}

/** A term's pending postings as a segment, slots ascending. */
function pendingSegment(pending: PendingPostings, term: string): Segment | undefined {
  const slots: number[] = [];
  const frequencies: number[] = [];
  pending.each(term, (slot, packed) => {
    slots.push(slot);
    frequencies.push(packed);
  });
  if (slots.length === 0) return undefined;
  return { slots: Uint32Array.from(slots), frequencies: Uint32Array.from(frequencies), start: 0, end: slots.length, position: -1 };
}

/** The ranges where every literal has postings, by the most they could score (then smallest id first), with those bounds. */
function rangesByBound({ frozen, frozenSlots, floorIds, rangesOf, literals }: RangedSearch) {
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
      const { ranges, groupStarts, groupFrequencies, groupLengths } = rangesOf(t);
      const relevance = term.relevanceOver(groupLengths);
      for (let j = 0; j < ranges.length; j++) {
        const r = ranges[j]!;
        if (r >= rangeCount) continue;
        let best = 0;
        for (let g = groupStarts[j]!; g < groupStarts[j + 1]!; g++) best = Math.max(best, relevance(groupFrequencies[g]!, g));
        literalBound[r]! += best;
        touched[r] = 1;
      }
    }
    for (let r = 0; r < rangeCount; r++) {
      if (!touched[r]) continue;
      present[r]!++;
      bounds[r]! += literalBound[r]!;
    }
  }
  // One term: a bound is the very score of the range's best, so ties are told apart by id. More: the
  // scoring adds the same numbers in another order, which may round one unit higher.
  const slack = literals.length === 1 && literals[0]!.length === 1 ? 1 : 1 + 1e-9;
  const ranges: number[] = [];
  for (let r = 0; r < rangeCount; r++) {
    if (present[r] !== literals.length) continue;
    bounds[r]! *= slack;
    ranges.push(r);
  }
  ranges.sort((a, b) => bounds[b]! - bounds[a]! || floorIds[a]! - floorIds[b]!);
  return { ranges, bounds };
}

/** Scored hits, the best (score descending, then id ascending) on top. */
function hitHeap() {
  let scores = new Float64Array(1024);
  let ids = new Int32Array(1024);
  let size = 0;
  const better = (scoreA: number, idA: number, scoreB: number, idB: number) => scoreA > scoreB || (scoreA === scoreB && idA < idB);
  return {
    size: () => size,
    topScore: () => scores[0]!,
    topId: () => ids[0]!,
    push(score: number, id: number) {
      if (size === scores.length) {
        scores = grown(scores, new Float64Array(size * 2));
        ids = grown(ids, new Int32Array(size * 2));
      }
      // Sifts a hole up, then fills it.
      let child = size++;
      while (child > 0) {
        const parent = (child - 1) >>> 1;
        if (!better(score, id, scores[parent]!, ids[parent]!)) break;
        scores[child] = scores[parent]!;
        ids[child] = ids[parent]!;
        child = parent;
      }
      scores[child] = score;
      ids[child] = id;
    },
    pop(): SearchHit {
      const hit = { id: ids[0]!, score: scores[0]! };
      const score = scores[--size]!;
      const id = ids[size]!;
      let parent = 0;
      for (;;) {
        const left = 2 * parent + 1;
        if (left >= size) break;
        const child = left + 1 < size && better(scores[left + 1]!, ids[left + 1]!, scores[left]!, ids[left]!) ? left + 1 : left;
        if (!better(scores[child]!, ids[child]!, score, id)) break;
        scores[parent] = scores[child]!;
        ids[parent] = ids[child]!;
        parent = child;
      }
      scores[parent] = score;
      ids[parent] = id;
      return hit;
    },
  };
}

function grown<T extends Float64Array | Int32Array>(from: T, into: T): T {
  into.set(from as never);
  return into;
}
