import { asc, eq, sql } from "drizzle-orm";
import type { Database } from "better-sqlite3";
import type { BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { namedCatalog, type CatalogRepository, type Enumerate, type FieldAccess, type Lifecycle, type Profile, type SmartStructure, type StructureDefinition } from "@lineage/core";
import { createDashboardCatalog } from "./dashboard-catalog.ts";
import { syncFieldIndexes } from "./field-indexes.ts";
import type { DefinitionsCounter } from "./definitions-counter.ts";
import { namedDefinitions } from "./named-definitions.ts";
import { structures } from "./schema.ts";

/**
 * Structures, enumerates, lifecycles, profiles and field accesses, each kept as one JSON definition. Every write
 * raises the definitions counter, which core's definitions cache is keyed by.
 */
export function createCatalogRepository(db: BetterSQLite3Database, client: Database, counter: DefinitionsCounter): CatalogRepository {
  const byName = db.select().from(structures).where(eq(structures.name, sql.placeholder("name"))).prepare();
  const byId = db.select().from(structures).where(eq(structures.id, sql.placeholder("id"))).prepare();
  const toStructure = (row: { id: number; definition: StructureDefinition }): SmartStructure => ({ ...row.definition, id: row.id });
  const allStructures = db.select().from(structures).orderBy(asc(structures.id)).prepare();
  // Through the live revisions' index of structures (list-indexes.ts): a new structure costs no table scan.
  const adoptRevisions = client.prepare(
    "update elements set structure_id = ? where status in ('alive', 'deleted') and fixed = 0 and structure = ? and structure_id is null",
  );

  return {
    ...namedCatalog({
      enumerates: namedDefinitions<Enumerate>(client, "enumerates", counter),
      lifecycles: namedDefinitions<Lifecycle>(client, "lifecycles", counter),
      profiles: namedDefinitions<Profile>(client, "profiles", counter),
      fieldAccesses: namedDefinitions<FieldAccess>(client, "field_accesses", counter),
    }),
    ...createDashboardCatalog(db, counter),
    async structure(name) {
      const row = byName.get({ name });
      return row && toStructure(row);
    },
    async structureById(id) {
      const row = byId.get({ id });
      return row && toStructure(row);
    },
    async structures() {
      return allStructures.all().map(toStructure);
    },
    async saveStructure(definition) {
      const { id: _carried, ...stored } = definition as StructureDefinition & { id?: unknown };
      counter.raise();
      // Look up then update or insert: an upsert would burn an AUTOINCREMENT id on every replacement.
      const existing = byName.get({ name: stored.name });
      // Every structure's, since a parent's fields are its descendants' too (field-indexes.ts).
      const previous = allStructures.all().map((row) => row.definition);
      syncFieldIndexes(client, previous, [...previous.filter((d) => d.name !== stored.name), stored], stored.name);
      if (existing) {
        db.update(structures).set({ definition: stored }).where(eq(structures.id, existing.id)).run();
        return { ...stored, id: existing.id };
      }
      const { id } = db.insert(structures).values({ name: stored.name, definition: stored }).returning({ id: structures.id }).get();
      // Revisions written before their structure existed sort as of no structure until now (the fromid order).
      adoptRevisions.run(id, stored.name);
      return { ...stored, id };
    },
  };
}
