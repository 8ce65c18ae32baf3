import { grantsOwned, readableForm, type ReadableFilter } from "@lineage/core";

/*
 * The rows a caller may view (ReadableFilter), checked on the list indexes' entries: each holds
 * `profile` and `owner` next to `structure` (list-indexes.ts), so a page walks them without reading
 * the rows of others.
 *
 * READABLE_CONDITION says any filter with one bound value, a JSON object from each key of the
 * filter (`p:PROFILE` for an element's own or its state's profile, `s:STRUCTURE` for a structure's,
 * as the core's readableKeys) to who may view its rows: -1 anyone, else the one owner (the owner
 * grant: the filter's `owned`). A row's key is looked up in it, one JSON look-up per entry walked,
 * which costs more than a set's `in` (measured on 300,000 entries: 2 times with 10 keys, 2.5 with
 * 30, 4 with 100), as SQLite scans an object's members. It is the form of a filter with an owner
 * grant, and of the statements made for any caller (the counts by structure, grouped pages).
 */
export const READABLE_CONDITION = `json_extract(?, '$."' || coalesce('p:' || profile, 's:' || structure) || '"') in (-1, owner)`;

/*
 * For a filter without an owner grant, the profiles and the structures each as a set, which SQLite
 * reads once (a LIST SUBQUERY) and looks each entry's column up in, no text made per entry: a
 * profile's set for the rows under one, a structure's for the rows under none. Measured on a million
 * rows, a reader of one element in ten: counting 35,374 of the reader's entries of a state's index
 * took 48 ms with the key joined per entry ('p:' || profile, one set of keys) and 24 ms so; walking
 * 110,000 entries of a title index, 27 and 15 ms. Each column is written `+column` so that SQLite
 * never takes the rights for a constraint of an index: it searches the index the statement names
 * (or chooses) as without rights, and the rights are tested on its entries.
 */
const PROFILES = "+profile in (select value from json_each(?))";
const STRUCTURES = "(+profile is null and +structure in (select value from json_each(?)))";

/** The condition of a filter's rows, of its form (the core's readableForm); readableValues gives its bound values, in order. */
export function readableCondition(filter: ReadableFilter): string {
  switch (readableForm(filter)) {
    case "owned": return READABLE_CONDITION;
    case "structures": return STRUCTURES;
    case "both": return `(${PROFILES} or ${STRUCTURES})`;
    default: return PROFILES;
  }
}

/** The values readableCondition binds, in order. */
export function readableValues(filter: ReadableFilter): string[] {
  switch (readableForm(filter)) {
    case "owned": return [readableKeys(filter)];
    case "structures": return [JSON.stringify(filter.structures)];
    case "both": return [JSON.stringify(filter.profiles), JSON.stringify(filter.structures)];
    default: return [JSON.stringify(filter.profiles)];
  }
}

/** Who may view the rows of a key that any reader of the filter may view. */
const ANYONE = -1;

/** The bound value of READABLE_CONDITION for a filter (its form with an owner grant, and of the statements that bind it by name). */
export function readableKeys(filter: ReadableFilter): string {
  const readers: Record<string, number> = {};
  const { owned } = filter;
  if (owned) {
    for (const name of owned.profiles) readers[`p:${name}`] = owned.owner;
    for (const name of owned.structures) readers[`s:${name}`] = owned.owner;
  }
  // Viewable by the caller whoever owns them: this wins over an owner grant on the same key.
  for (const name of filter.profiles) readers[`p:${name}`] = ANYONE;
  for (const name of filter.structures) readers[`s:${name}`] = ANYONE;
  return JSON.stringify(readers);
}
