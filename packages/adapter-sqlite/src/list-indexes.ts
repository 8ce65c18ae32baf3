import { sql, type SQL } from "drizzle-orm";
import { index, type IndexBuilder, type SQLiteColumn } from "drizzle-orm/sqlite-core";

/*
 * The indexes a page of a list is read from, in order, whatever its order (issue 18). Each holds the
 * live revisions only (`fixed = 0`), the status first (the trash is a list too), and closes with
 * the id, since every order does (`id desc` unless id is asked). An index read forward gives
 * `k asc, id desc` and backward `k desc, id asc`, never `k desc, id desc`: so each key has two, one
 * per direction of k relative to id. The indexes of the whole collection end with the structure, so
 * that a caller who may view some structures only is filtered on the index entries, rows unread;
 * and those a second key of an order walks hold the keys whose values repeat (GROUPED), so that
 * they are walked one group of the first key at a time (grouped-page.ts), rows unread too.
 */

/** The keys an order walks a second key's index one group of at a time (grouped-page.ts). */
const GROUPED = ["owner", "state", "revision", "name"] as const;

/** The properties with an index of their own per direction, and the column each sorts on. */
export const KEYED_PROPERTIES = {
  title: "title", name: "name", revision: "revision", owner: "owner", state: "state",
  cdate: "created_at", mdate: "modified_at", fromid: "structure_id",
} as const;
export type KeyedProperty = keyof typeof KEYED_PROPERTIES;

/** Whether the index holds the key in the direction of the id (desc) or against it (asc, the `_idx` one). */
export type KeyDirection = "asc" | "desc";

/** Which collection an index serves: the whole one (every structure), or one structure's. */
export type ListScope = "all" | "structure";

/** The index of a keyed property's order, for a scope. */
export function keyedIndexName(key: KeyedProperty, direction: KeyDirection, scope: ListScope): string {
  return `elements_${scope === "all" ? "" : "structure_"}by_${key}${direction === "desc" ? "_desc" : ""}_idx`;
}

/** The index of id orders: the whole collection's, and one structure's (also `fromname` order on the whole collection). */
export const ID_INDEX = { all: "elements_by_id_idx", structure: "elements_by_structure_idx" } as const;
/** `fromname desc, id desc`, and `fromname asc, id asc` backward. */
export const STRUCTURE_DESC_INDEX = "elements_by_structure_desc_idx";
/** initid orders: no two live revisions share an initid, so one index serves both directions. */
export const INITID_INDEX = { all: "elements_by_initid_idx", structure: "elements_structure_by_initid_idx" } as const;

interface ElementColumns extends Record<(typeof GROUPED)[number], SQLiteColumn> {
  readonly id: SQLiteColumn;
  readonly initid: SQLiteColumn;
  readonly structure: SQLiteColumn;
  readonly profile: SQLiteColumn;
  readonly status: SQLiteColumn;
}

/** The list indexes of `elements`, for its schema. */
export function listIndexes(t: ElementColumns, columnOf: (key: KeyedProperty) => SQLiteColumn): IndexBuilder[] {
  const live = sql`fixed = 0`;
  const desc = (column: SQLiteColumn): SQL => sql`${column} desc`;
  const grouped = (but?: string) => GROUPED.filter((key) => key !== but).map((key) => t[key]);
  // Each holds the profile and the owner too, after the structure or at its end: rights (the owner grant's included)
  // are filtered on the entries (readable-condition.ts).
  const builders = [
    index(ID_INDEX.all).on(t.status, desc(t.id), t.structure, t.profile, t.owner).where(live),
    index(INITID_INDEX.all).on(t.status, t.initid, t.structure, t.profile, ...grouped()).where(live),
    index(ID_INDEX.structure).on(t.status, t.structure, desc(t.id), t.profile, t.owner).where(live),
    index(STRUCTURE_DESC_INDEX).on(t.status, desc(t.structure), desc(t.id), t.profile, t.owner).where(live),
    index(INITID_INDEX.structure).on(t.status, t.structure, t.initid, ...grouped(), t.profile).where(live),
  ];
  for (const key of Object.keys(KEYED_PROPERTIES) as KeyedProperty[]) {
    const column = columnOf(key);
    builders.push(
      index(keyedIndexName(key, "asc", "all")).on(t.status, column, desc(t.id), t.structure, t.profile, ...grouped(key)).where(live),
      index(keyedIndexName(key, "desc", "all")).on(t.status, desc(column), desc(t.id), t.structure, t.profile, ...grouped(key)).where(live),
    );
    // In one structure's list fromid is the same for every row (decisiveOrder drops it).
    if (key === "fromid") continue;
    builders.push(
      index(keyedIndexName(key, "asc", "structure")).on(t.status, t.structure, column, desc(t.id), ...grouped(key), t.profile).where(live),
      index(keyedIndexName(key, "desc", "structure")).on(t.status, t.structure, desc(column), desc(t.id), ...grouped(key), t.profile).where(live),
    );
  }
  return builders;
}
