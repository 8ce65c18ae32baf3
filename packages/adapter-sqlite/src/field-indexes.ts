import { createHash } from "node:crypto";
import type { Database } from "better-sqlite3";
import { resolvedOrderFields, type StructureDefinition } from "@lineage/core";

/*
 * The indexes of a structure's field orders: two for each field the core indexes, inherited fields
 * included (resolvedOrderFields), one per direction of the value relative to the id (as
 * list-indexes.ts explains), each on the value as json_extract gives it, over the structure's live
 * revisions only. They are made and dropped as the
 * structure's fields come and go, in the transaction that saves it. The list names the same
 * expression, so SQLite reads the order from the index and the skipped entries without their rows;
 * each entry holds the element's profile and owner too, so that rights (the owner grant's included)
 * are filtered on the entries (readable-condition.ts).
 */

/**
 * Part of each index's name: the indexes of an earlier layout (before the profile, then before the
 * owner) have other names, so that ensureFieldIndexes makes the new ones at start and drops the old.
 */
const LAYOUT = "owner";

/** A text as an SQL literal. */
export function sqlText(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/** The JSON path of a field's value in `values`, as an SQL literal. */
export function fieldPath(field: string): string {
  return sqlText(`$."${field.replace(/["\\]/g, "\\$&")}"`);
}

/** The value a field order sorts on; the list and the index must write it alike. */
export function fieldSortExpression(field: string): string {
  return `json_extract("values", ${fieldPath(field)})`;
}

/** The name of a field order's index: a digest, since structure and field names may hold any character. */
export function fieldIndexName(structure: string, field: string, direction: "asc" | "desc"): string {
  const digest = createHash("sha256").update(`${structure}\u0000${field}\u0000${LAYOUT}`).digest("hex").slice(0, 20);
  return `elements_field_${digest}${direction === "desc" ? "_desc" : ""}_idx`;
}

function createStatements(structure: string, field: string): [name: string, statement: string][] {
  const value = fieldSortExpression(field);
  const where = `where fixed = 0 and structure = ${sqlText(structure)}`;
  return (["asc", "desc"] as const).map((direction) => {
    const name = fieldIndexName(structure, field, direction);
    return [name, `create index if not exists "${name}" on elements (status, ${value}${direction === "desc" ? " desc" : ""}, id desc, profile, owner) ${where}`];
  });
}

/**
 * Makes the field-order indexes the structures `next` need and drops those only `previous` had,
 * each structure's fields as resolved (its inherited fields included): a parent that gains or loses a
 * field changes its descendants' indexes too. `saved` names the structure being saved, whose indexes
 * are all made if missing. Run in the transaction that saves it: a new index reads every revision
 * of the table once.
 */
export function syncFieldIndexes(
  client: Database, previous: readonly StructureDefinition[], next: readonly StructureDefinition[], saved: string,
): void {
  const before = resolvedOrderFields(previous);
  for (const [name, fields] of resolvedOrderFields(next)) {
    const had = before.get(name) ?? [];
    const wanted = new Set(fields);
    for (const field of had) {
      if (wanted.has(field)) continue;
      for (const direction of ["asc", "desc"] as const) client.exec(`drop index if exists "${fieldIndexName(name, field, direction)}"`);
    }
    for (const field of fields) {
      if (name !== saved && had.includes(field)) continue;
      for (const [, statement] of createStatements(name, field)) client.exec(statement);
    }
  }
}

/**
 * Makes the field-order indexes missing for stored structures (those saved before these indexes
 * existed, or in an earlier layout) and drops those of an earlier layout; when none is missing, as
 * at every start but the first, it writes nothing.
 */
export function ensureFieldIndexes(client: Database): void {
  const existing = new Set(client.prepare("select name from sqlite_master where type = 'index' and tbl_name = 'elements'").pluck().all() as string[]);
  const definitions = (client.prepare("select definition from structures").pluck().all() as string[]).map((d) => JSON.parse(d) as StructureDefinition);
  const wanted = [...resolvedOrderFields(definitions)].flatMap(([name, fields]) => fields.flatMap((field) => createStatements(name, field)));
  const names = new Set(wanted.map(([name]) => name));
  const missing = wanted.filter(([name]) => !existing.has(name));
  const stale = [...existing].filter((name) => name.startsWith("elements_field_") && !names.has(name));
  if (missing.length === 0 && stale.length === 0) return;
  client.transaction(() => {
    for (const name of stale) client.exec(`drop index if exists "${name}"`);
    for (const [, statement] of missing) client.exec(statement);
  })();
}
