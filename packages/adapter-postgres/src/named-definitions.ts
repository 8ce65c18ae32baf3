import type { NamedDefinitions } from "@lineage/core";
import type { DefinitionsCounter } from "./definitions-counter.ts";
import { statement, type SqlClient } from "./sql-client.ts";

/** The tables that keep one JSON definition by name (schema.ts). */
type NamedDefinitionTable = "enumerates" | "lifecycles" | "profiles" | "field_accesses";

/** The NamedDefinitions of one such table; a save raises the definitions counter. */
export function namedDefinitions<T extends { readonly name: string }>(
  sql: SqlClient, table: NamedDefinitionTable, counter: DefinitionsCounter,
): NamedDefinitions<T> {
  const byName = statement(`select definition from ${table} where name = $1`);
  const all = statement(`select definition from ${table} order by name collate "C"`);
  const upsert = statement(
    `insert into ${table} (name, definition) values ($1, $2) on conflict (name) do update set definition = excluded.definition`,
  );
  return {
    async get(name) {
      const [row] = await sql.rows(byName, [name]);
      return row?.[0] as T | undefined;
    },
    async all() {
      return (await sql.rows(all)).map((row) => row[0] as T);
    },
    async save(definition) {
      await counter.raise();
      await sql.run(upsert, [definition.name, JSON.stringify(definition)]);
    },
  };
}
