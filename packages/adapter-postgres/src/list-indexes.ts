import { sql, type SQL } from "drizzle-orm";
import { index, type IndexBuilder, type PgColumn } from "drizzle-orm/pg-core";

/*
 * The indexes a page of a list is read from, in order, whatever its order (issue 18). Each holds the
 * live revisions only (`not fixed`), the status first (the trash is a list too), and closes with the
 * id, since every order does (`id desc` unless id is asked). An index read forward gives
 * `k asc, id desc` and backward `k desc, id asc`, never `k desc, id desc`: so each key has two, one
 * per direction of k relative to id. The indexes of the whole collection end with the structure, so
 * that a caller who may view some structures only is filtered on the index entries, rows unread;
 * and those a second key of an order walks hold the keys whose values repeat (GROUPED), so that
 * they are walked one group of the first key at a time (grouped-page.ts), rows unread too.
 * Texts sort by code point (`collate "C"`) and nulls first ascending, as SQLite and the API sort
 * them; the list writes each key as its index does, or PostgreSQL would not match them. The
 * structure too is compared as `collate "C"` everywhere (STRUCTURE): an index column serves only
 * conditions of its own collation.
 */

/** The keys an order walks a second key's index one group of at a time (grouped-page.ts). */
const GROUPED = ["owner", "state", "revision", "name"] as const;

/** The structure as every list index holds it and every list condition names it. */
export const STRUCTURE = `structure collate "C"`;

/** The properties with an index of their own per direction: the column each sorts on, and how. */
export const KEYED_PROPERTIES = {
  title: { column: "title", text: true, nullable: false },
  name: { column: "name", text: true, nullable: true },
  revision: { column: "revision", text: false, nullable: false },
  owner: { column: "owner", text: false, nullable: false },
  state: { column: "state", text: true, nullable: true },
  cdate: { column: "created_at", text: true, nullable: false },
  mdate: { column: "modified_at", text: true, nullable: false },
  fromid: { column: "structure_id", text: false, nullable: true },
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

/** A sort key as the list's ORDER BY and the index write it: collation, direction, nulls first ascending. */
export function sortKey(expression: string, { text, nullable }: { text: boolean; nullable: boolean }, direction: "asc" | "desc"): string {
  const nulls = nullable ? (direction === "asc" ? " nulls first" : " nulls last") : "";
  return `${expression}${text ? ` collate "C"` : ""} ${direction}${nulls}`;
}

interface ElementColumns extends Record<(typeof GROUPED)[number], PgColumn> {
  readonly id: PgColumn;
  readonly initid: PgColumn;
  readonly structure: PgColumn;
  readonly status: PgColumn;
  readonly profile: PgColumn;
}

/** The list indexes of `elements`, for its schema. */
export function listIndexes(t: ElementColumns, columnOf: (key: KeyedProperty) => PgColumn): IndexBuilder[] {
  const live = sql`not fixed`;
  const desc = (column: PgColumn): SQL => sql`${column} desc`;
  const structure = sql.raw(STRUCTURE);
  const key = (column: PgColumn, how: { text: boolean; nullable: boolean }, direction: "asc" | "desc"): SQL =>
    sql.join([column, sql.raw(sortKey("", how, direction))], sql``);
  const grouped = (but?: string) => GROUPED.filter((key) => key !== but).map((key) => t[key]);
  // Each holds the profile and the owner too, after the structure or at its end: rights (the owner grant's included)
  // are filtered on the entries (readable-condition.ts).
  const builders = [
    index("elements_by_id_idx").on(t.status, desc(t.id), structure, t.profile, t.owner).where(live),
    // The id too, though no two live revisions share an initid: a page is its ids, read from the index alone.
    index("elements_by_initid_idx").on(t.status, t.initid, t.id, structure, t.profile, ...grouped()).where(live),
    index("elements_by_structure_idx").on(t.status, structure, desc(t.id), t.profile, t.owner).where(live),
    index("elements_by_structure_desc_idx").on(t.status, sql`${t.structure} collate "C" desc`, desc(t.id), t.profile, t.owner).where(live),
    index("elements_structure_by_initid_idx").on(t.status, structure, t.initid, t.id, ...grouped(), t.profile).where(live),
  ];
  for (const name of Object.keys(KEYED_PROPERTIES) as KeyedProperty[]) {
    const column = columnOf(name);
    const how = KEYED_PROPERTIES[name];
    builders.push(
      index(keyedIndexName(name, "asc", "all")).on(t.status, key(column, how, "asc"), desc(t.id), structure, t.profile, ...grouped(name)).where(live),
      index(keyedIndexName(name, "desc", "all")).on(t.status, key(column, how, "desc"), desc(t.id), structure, t.profile, ...grouped(name)).where(live),
    );
    // In one structure's list fromid is the same for every row (decisiveOrder drops it).
    if (name === "fromid") continue;
    builders.push(
      index(keyedIndexName(name, "asc", "structure")).on(t.status, structure, key(column, how, "asc"), desc(t.id), ...grouped(name), t.profile).where(live),
      index(keyedIndexName(name, "desc", "structure")).on(t.status, structure, key(column, how, "desc"), desc(t.id), ...grouped(name), t.profile).where(live),
    );
  }
  return builders;
}
