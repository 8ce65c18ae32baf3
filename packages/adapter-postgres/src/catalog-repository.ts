import { namedCatalog, resolvedOrderFields, type CatalogRepository, type Enumerate, type FieldAccess, type Lifecycle, type Profile, type SmartStructure, type StructureDefinition } from "@lineage/core";
import { createDashboardCatalog } from "./dashboard-catalog.ts";
import type { DefinitionsCounter } from "./definitions-counter.ts";
import { namedDefinitions } from "./named-definitions.ts";
import { syncSortKeys } from "./sort-keys.ts";
import { statement, type SqlClient } from "./sql-client.ts";

const BY_NAME = statement("select id, definition from structures where name = $1");
const BY_ID = statement("select id, definition from structures where id = $1");
const ALL = statement("select id, definition from structures order by id");
const KEPT = statement("select definition, sort_fields from structures");
const SET_KEPT = statement("update structures set sort_fields = $2 where name = $1");
// The name's unique index settles a race between transactions of several nodes; a replacement keeps its id.
// The fields kept before come back too (the CTE reads the table as it was), and whether the structure is new.
const UPSERT = statement(
  `with previous as (select sort_fields from structures where name = $1)
   insert into structures (name, definition, sort_fields) values ($1, $2, $3)
   on conflict (name) do update set definition = excluded.definition, sort_fields = excluded.sort_fields
   returning id, (select sort_fields from previous)`,
);
// Through the live revisions' index of structures (list-indexes.ts): a new structure costs no table scan.
const ADOPT_REVISIONS = statement(
  `update elements set structure_id = $1 where status in ('alive', 'deleted') and not fixed and structure collate "C" = $2 and structure_id is null`,
);

/**
 * Structures, enumerates, lifecycles, profiles and field accesses, each kept as one JSON definition. Every write
 * raises the definitions counter, which core's definitions cache is keyed by.
 */
export function createCatalogRepository(sql: SqlClient, counter: DefinitionsCounter): CatalogRepository {
  const toStructure = (row: unknown[]): SmartStructure => ({ ...(row[1] as StructureDefinition), id: row[0] as number });

  return {
    ...namedCatalog({
      enumerates: namedDefinitions<Enumerate>(sql, "enumerates", counter),
      lifecycles: namedDefinitions<Lifecycle>(sql, "lifecycles", counter),
      profiles: namedDefinitions<Profile>(sql, "profiles", counter),
      fieldAccesses: namedDefinitions<FieldAccess>(sql, "field_accesses", counter),
    }),
    ...createDashboardCatalog(sql, counter),
    async structure(name) {
      const [row] = await sql.rows(BY_NAME, [name]);
      return row && toStructure(row);
    },
    async structureById(id) {
      const [row] = await sql.rows(BY_ID, [id]);
      return row && toStructure(row);
    },
    async structures() {
      return (await sql.rows(ALL)).map(toStructure);
    },
    async saveStructure(definition) {
      const { id: _carried, ...stored } = definition as StructureDefinition & { id?: unknown };
      await counter.raise();
      // Each structure's fields as resolved: a parent's fields are its descendants' too (sort-keys.ts).
      const kept = (await sql.rows(KEPT)).map((r) => ({ definition: r[0] as StructureDefinition, sortFields: r[1] as string[] }));
      const resolved = resolvedOrderFields([...kept.map((k) => k.definition).filter((d) => d.name !== stored.name), stored]);
      const sortFields = resolved.get(stored.name)!;
      const [row] = await sql.rows(UPSERT, [stored.name, JSON.stringify(stored), sortFields]);
      const id = row![0] as number;
      const previous = row![1] as string[] | null;
      await syncSortKeys(sql, stored.name, previous ?? [], sortFields);
      for (const other of kept) {
        const fields = resolved.get(other.definition.name)!;
        if (other.definition.name === stored.name || JSON.stringify(fields) === JSON.stringify(other.sortFields)) continue;
        await sql.run(SET_KEPT, [other.definition.name, fields]);
        await syncSortKeys(sql, other.definition.name, other.sortFields, fields);
      }
      // Revisions written before their structure existed sort as of no structure until now (the fromid order).
      if (previous === null) await sql.run(ADOPT_REVISIONS, [id, stored.name]);
      return { ...stored, id };
    },
  };
}
