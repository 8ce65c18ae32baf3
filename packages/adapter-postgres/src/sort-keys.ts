import { resolvedOrderFields, type StructureDefinition } from "@lineage/core";
import type pg from "pg";
import { statement, type SqlClient } from "./sql-client.ts";

/*
 * The sort keys of a structure's indexed fields (element_sort_keys, schema.ts): the trigger of
 * migration 0004 keeps them as revisions are written, for the fields `structures.sort_fields` names
 * (the structure's fields as resolved, its inherited fields included: core's resolvedOrderFields);
 * here they are made and dropped as a structure's fields come and go, in the transaction that saves
 * it, and as its ancestors' do.
 */

const DROP_KEYS = statement(`delete from element_sort_keys where structure collate "C" = $1 and field <> all($2::text[])`);
// Through the live revisions' index of structures (list-indexes.ts): a structure's revisions only are read.
const MAKE_KEYS = statement(
  `insert into element_sort_keys (element_id, structure, field, status, rank, num, txt, profile, owner, state)
   select e.id, e.structure, f.field, e.status, k.rank, k.num, k.txt, e.profile, e.owner, e.state
   from elements e cross join unnest($2::text[]) as f(field) cross join lateral lineage_sort_key(e."values", f.field) as k
   where e.status in ('alive', 'deleted') and not e.fixed and e.structure collate "C" = $1`,
);

/** Keeps the sort keys `next` needs (`sortFields` stored for it) and drops those only `previous` had. */
export async function syncSortKeys(sql: SqlClient, name: string, previous: readonly string[], sortFields: readonly string[]): Promise<void> {
  const added = sortFields.filter((field) => !previous.includes(field));
  if (previous.some((field) => !sortFields.includes(field))) await sql.run(DROP_KEYS, [name, sortFields]);
  if (added.length > 0) await sql.run(MAKE_KEYS, [name, added]);
}

/**
 * Brings the kept fields of every stored structure in line with its definition: structures saved
 * before the sort keys existed get theirs. Run at start, under the migrations' lock; when nothing is
 * missing, as at every start but the first, it writes nothing.
 */
export async function ensureSortKeys(connection: pg.PoolClient): Promise<void> {
  const { rows } = await connection.query<{ name: string; definition: StructureDefinition; sort_fields: string[] }>(
    "select name, definition, sort_fields from structures",
  );
  const resolved = resolvedOrderFields(rows.map((row) => row.definition));
  const stale = rows.filter((row) => JSON.stringify(resolved.get(row.name)) !== JSON.stringify(row.sort_fields));
  if (stale.length === 0) return;
  const sql: SqlClient = {
    async rows(s, values = []) {
      return (await connection.query({ text: s.text, values: values as unknown[], rowMode: "array" })).rows as unknown[][];
    },
    async run(s, values = []) {
      return (await connection.query({ text: s.text, values: values as unknown[] })).rowCount ?? 0;
    },
    snapshot: (fn) => fn(sql),
    async defer(s, values = []) {
      await connection.query({ text: s.text, values: values as unknown[] });
    },
  };
  await connection.query("begin");
  try {
    for (const row of stale) {
      const fields = resolved.get(row.name)!;
      await connection.query("update structures set sort_fields = $2 where name = $1", [row.name, fields]);
      await syncSortKeys(sql, row.name, row.sort_fields, fields);
    }
    await connection.query("commit");
  } catch (error) {
    await connection.query("rollback");
    throw error;
  }
}
