import { WEIGHT_COUNT } from "./postings.ts";

/**
 * The documents of a compact index by slot: a document takes a new slot each
 * time it is added (its old slot is marked dead), so postings only ever
 * append. Per slot: the element id, its structure (an index into
 * `structureNames`), its length in terms per weight, and whether it is alive.
 */
export interface DocumentSlots {
  /** Slots used, dead ones included. */
  readonly count: number;
  readonly ids: Int32Array;
  readonly structures: Uint16Array;
  /** Terms per weight: slot s, weight w at `s * WEIGHT_COUNT + w`. */
  readonly lengths: Uint32Array;
  readonly alive: Uint8Array;
  readonly structureNames: readonly string[];
  /** Alive documents. */
  readonly size: number;
  /** Mean length of each weight over alive documents (1 when there is none). */
  averageLength(w: number): number;
  slotOf(id: number): number | undefined;
  add(id: number, structure: string, lengths: ArrayLike<number>): number;
  /** Marks a document's slot dead; false when it was not there. */
  remove(id: number): boolean;
  /** Drops dead slots; answers old slot to new, -1 for a dropped one. */
  compact(): Int32Array;
  /** A copy of the slots in use, as a snapshot keeps them. */
  image(): SlotsImage;
}

/** Slots as a snapshot holds them. */
export interface SlotsImage {
  readonly ids: Int32Array;
  readonly structures: Uint16Array;
  readonly lengths: Uint32Array;
  readonly alive: Uint8Array;
  readonly structureNames: readonly string[];
}

/** Document slots, empty or as a snapshot left them. */
export function documentSlots(image?: SlotsImage): DocumentSlots {
  let count = image?.ids.length ?? 0;
  let capacity = Math.max(1024, count);
  let ids = grow(new Int32Array(capacity), image?.ids, count);
  let structures = grow(new Uint16Array(capacity), image?.structures, count);
  let lengths = grow(new Uint32Array(capacity * WEIGHT_COUNT), image?.lengths, count * WEIGHT_COUNT);
  let alive = grow(new Uint8Array(capacity), image?.alive, count);
  const structureNames = [...(image?.structureNames ?? [])];
  const structureIndex = new Map(structureNames.map((name, i) => [name, i]));
  const slotById = new Map<number, number>();
  const totals = new Array<number>(WEIGHT_COUNT).fill(0);
  for (let s = 0; s < count; s++) {
    if (!alive[s]) continue;
    slotById.set(ids[s]!, s);
    for (let w = 0; w < WEIGHT_COUNT; w++) totals[w]! += lengths[s * WEIGHT_COUNT + w]!;
  }

  function ensureCapacity(): void {
    if (count < capacity) return;
    capacity *= 2;
    ids = grow(new Int32Array(capacity), ids, count);
    structures = grow(new Uint16Array(capacity), structures, count);
    lengths = grow(new Uint32Array(capacity * WEIGHT_COUNT), lengths, count * WEIGHT_COUNT);
    alive = grow(new Uint8Array(capacity), alive, count);
  }

  function structureOf(name: string): number {
    let index = structureIndex.get(name);
    if (index === undefined) {
      index = structureNames.push(name) - 1;
      structureIndex.set(name, index);
    }
    return index;
  }

  function remove(id: number): boolean {
    const slot = slotById.get(id);
    if (slot === undefined) return false;
    alive[slot] = 0;
    slotById.delete(id);
    for (let w = 0; w < WEIGHT_COUNT; w++) totals[w]! -= lengths[slot * WEIGHT_COUNT + w]!;
    return true;
  }

  return {
    get count() { return count; },
    get ids() { return ids; },
    get structures() { return structures; },
    get lengths() { return lengths; },
    get alive() { return alive; },
    structureNames,
    get size() { return slotById.size; },
    averageLength: (w) => (slotById.size === 0 ? 1 : Math.max(totals[w]! / slotById.size, 1)),
    slotOf: (id) => slotById.get(id),
    add(id, structure, documentLengths) {
      remove(id);
      ensureCapacity();
      const slot = count++;
      ids[slot] = id;
      structures[slot] = structureOf(structure);
      alive[slot] = 1;
      for (let w = 0; w < WEIGHT_COUNT; w++) {
        const length = documentLengths[w] ?? 0;
        lengths[slot * WEIGHT_COUNT + w] = length;
        totals[w]! += length;
      }
      slotById.set(id, slot);
      return slot;
    },
    remove,
    compact() {
      // New arrays, not the old ones rewritten: a search being iterated still reads the old ones.
      const renumber = new Int32Array(count).fill(-1);
      const kept = { ids: new Int32Array(capacity), structures: new Uint16Array(capacity), lengths: new Uint32Array(capacity * WEIGHT_COUNT) };
      let next = 0;
      for (let s = 0; s < count; s++) {
        if (!alive[s]) continue;
        renumber[s] = next;
        kept.ids[next] = ids[s]!;
        kept.structures[next] = structures[s]!;
        kept.lengths.set(lengths.subarray(s * WEIGHT_COUNT, (s + 1) * WEIGHT_COUNT), next * WEIGHT_COUNT);
        slotById.set(ids[s]!, next);
        next++;
      }
      ({ ids, structures, lengths } = kept);
      alive = new Uint8Array(capacity).fill(1, 0, next);
      count = next;
      return renumber;
    },
    image: () => ({
      ids: ids.slice(0, count),
      structures: structures.slice(0, count),
      lengths: lengths.slice(0, count * WEIGHT_COUNT),
      alive: alive.slice(0, count),
      structureNames: [...structureNames],
    }),
  };
}

function grow<T extends Int32Array | Uint16Array | Uint32Array | Uint8Array>(into: T, from: T | undefined, length: number): T {
  if (from) into.set(from.subarray(0, length) as never);
  return into;
}
