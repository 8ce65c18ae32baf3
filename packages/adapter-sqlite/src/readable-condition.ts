import type { ReadableFilter } from "@lineage/core";

/*
 * The rows a caller may view (ReadableFilter), checked on the list indexes' entries: each holds
 * `profile` and `owner` next to `structure` (list-indexes.ts), so a page walks them without reading
 * the rows of others. The condition takes one bound value, a JSON object from each key of the
 * filter (`p:PROFILE` for an element's own or its state's profile, `s:STRUCTURE` for a structure's,
 * as the core's readableKeys) to who may view its rows: -1 anyone, else the one owner (the owner
 * grant: the filter's `owned`). A row's key is looked up in it, one JSON look-up per entry walked.
 *
 * One value, used once, because the list statements bind one value per condition: a key set and
 * the owner's (`key in (...) or 'o' || owner || ':' || key in (...)`) would need it twice, and a
 * subquery that reads it once for both is correlated, run again for every entry. The look-up costs
 * more per entry walked than a set's `in` (measured on 300,000 entries: 2 times with 10 keys, 2.5
 * with 30, 4 with 100), as SQLite scans an object's members: binding the value twice is the faster
 * form once the list statements can.
 */
export const READABLE_CONDITION = `json_extract(?, '$."' || coalesce('p:' || profile, 's:' || structure) || '"') in (-1, owner)`;

/**
 * The same condition for a filter without an owner grant, on the same bound value: a row's key is
 * one of the object's keys, which SQLite reads once into a set of its own (a LIST SUBQUERY) and looks
 * each entry's key up in. An entry costs half what READABLE_CONDITION's JSON look-up does (measured
 * on a million rows: a reader of one element in ten walking 110,000 entries of a title index).
 */
const READABLE_SET_CONDITION = `coalesce('p:' || profile, 's:' || structure) in (select key from json_each(?))`;

/** True when a filter holds an owner grant (what READABLE_SET_CONDITION cannot say). */
function grantsOwned(filter: ReadableFilter): boolean {
  return filter.owned !== undefined && (filter.owned.profiles.length > 0 || filter.owned.structures.length > 0);
}

/** The condition of a filter's rows, binding readableKeys(filter) once: its form depends on whether it grants to owners. */
export function readableCondition(filter: ReadableFilter): string {
  return grantsOwned(filter) ? READABLE_CONDITION : READABLE_SET_CONDITION;
}

/** What tells statements made for filters apart (readableCondition's form): none, a set of keys, or with an owner grant. */
export function readableForm(filter: ReadableFilter | undefined): "none" | "set" | "owned" {
  return filter === undefined ? "none" : grantsOwned(filter) ? "owned" : "set";
}

/** Who may view the rows of a key that any reader of the filter may view. */
const ANYONE = -1;

/** The bound value of READABLE_CONDITION for a filter. */
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
