import type { NamedDefinitions } from "@lineage/core";
import type { Database } from "better-sqlite3";
import type { DefinitionsCounter } from "./definitions-counter.ts";

/** The tables that keep one JSON definition by name (schema.ts). */
type NamedDefinitionTable = "enumerates" | "lifecycles" | "profiles" | "field_accesses";

/** The NamedDefinitions of one such table; a save raises the definitions counter. */
export function namedDefinitions<T extends { readonly name: string }>(
  client: Database, table: NamedDefinitionTable, counter: DefinitionsCounter,
): NamedDefinitions<T> {
  const byName = client.prepare(`select definition from ${table} where name = ?`).pluck();
  const all = client.prepare(`select definition from ${table} order by name`).pluck();
  const upsert = client.prepare(`insert into ${table} (name, definition) values (?, ?) on conflict (name) do update set definition = excluded.definition`);
  const parse = (text: unknown) => JSON.parse(text as string) as T;
  return {
    async get(name) {
      const text = byName.get(name);
      return text === undefined ? undefined : parse(text);
    },
    async all() {
      return all.all().map(parse);
    },
    async save(definition) {
      counter.raise();
      upsert.run(definition.name, JSON.stringify(definition));
    },
  };
}
