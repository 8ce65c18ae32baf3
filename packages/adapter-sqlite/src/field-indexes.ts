import { createHash } from "node:crypto";
import type { Database } from "better-sqlite3";
import { indexedOrderFields, type StructureDefinition } from "@lineage/core";

/*
 * The indexes of a structure's field orders: two per field core indexes (indexedOrderFields), one per
 * direction of the value relative to the id (as list-indexes.ts explains), each on the value as
 * json_extract gives it, over the structure's live revisions only. They are made and dropped as the
 * structure's fields come and go, in the transaction that saves it. The list names the same
 * expression, so SQLite reads the order from the index and the skipped entries without their rows.
 */

/** A text as an SQL literal. */
export function sqlText(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/** The value a field order sorts on; the list and the index must write it alike. */
export function fieldSortExpression(field: string): string {
  return `json_extract("values", ${sqlText(`$."${field.replace(/["\\]/g, "\\$&")}"`)})`;
}

/** The name of a field order's index: a digest, since structure and field names may hold any character. */
function fieldIndexName(structure: string, field: string, direction: "asc" | "desc"): string {
  const digest = createHash("sha256").update(`${structure}\u0000${field}`).digest("hex").slice(0, 20);
  return `elements_field_${digest}${direction === "desc" ? "_desc" : ""}_idx`;
}

function createStatements(structure: string, field: string): [name: string, statement: string][] {
  const value = fieldSortExpression(field);
  const where = `where fixed = 0 and structure = ${sqlText(structure)}`;
  return (["asc", "desc"] as const).map((direction) => {
    const name = fieldIndexName(structure, field, direction);
    return [name, `create index if not exists "${name}" on elements (status, ${value}${direction === "desc" ? " desc" : ""}, id desc) ${where}`];
  });
}

/**
 * Makes the field-order indexes `next` needs and drops those only `previous` had. Run in the
 * transaction that saves the structure: a new index reads every revision of the table once.
 */
export function syncFieldIndexes(client: Database, previous: StructureDefinition | undefined, next: StructureDefinition): void {
  const wanted = new Set(indexedOrderFields(next));
  for (const field of previous ? indexedOrderFields(previous) : []) {
    if (wanted.has(field)) continue;
    for (const direction of ["asc", "desc"] as const) client.exec(`drop index if exists "${fieldIndexName(previous!.name, field, direction)}"`);
  }
  for (const field of wanted) for (const [, statement] of createStatements(next.name, field)) client.exec(statement);
}

/**
 * Makes the field-order indexes missing for stored structures (those saved before these indexes
 * existed); when none is missing, as at every start but the first, it writes nothing.
 */
export function ensureFieldIndexes(client: Database): void {
  const existing = new Set(client.prepare("select name from sqlite_master where type = 'index' and tbl_name = 'elements'").pluck().all() as string[]);
  const definitions = (client.prepare("select definition from structures").pluck().all() as string[]).map((d) => JSON.parse(d) as StructureDefinition);
  const missing = definitions.flatMap((d) => indexedOrderFields(d).flatMap((field) => createStatements(d.name, field)))
    .filter(([name]) => !existing.has(name));
  if (missing.length === 0) return;
  client.transaction(() => {
    for (const [, statement] of missing) client.exec(statement);
  })();
}
