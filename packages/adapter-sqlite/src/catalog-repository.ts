import { asc, eq, sql } from "drizzle-orm";
import type { Database } from "better-sqlite3";
import type { BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { namedCatalog, type CatalogRepository, type Enumerate, type Lifecycle, type Profile, type SmartStructure, type StructureDefinition } from "@lineage/core";
import { createDashboardCatalog } from "./dashboard-catalog.ts";
import type { DefinitionsCounter } from "./definitions-counter.ts";
import { namedDefinitions } from "./named-definitions.ts";
import { structures } from "./schema.ts";

/**
 * Structures, enumerates, lifecycles and profiles, each kept as one JSON definition. Every write
 * raises the definitions counter, which core's definitions cache is keyed by.
 */
export function createCatalogRepository(db: BetterSQLite3Database, client: Database, counter: DefinitionsCounter): CatalogRepository {
  const byName = db.select().from(structures).where(eq(structures.name, sql.placeholder("name"))).prepare();
  const byId = db.select().from(structures).where(eq(structures.id, sql.placeholder("id"))).prepare();
  const toStructure = (row: { id: number; definition: StructureDefinition }): SmartStructure => ({ ...row.definition, id: row.id });
  const allStructures = db.select().from(structures).orderBy(asc(structures.id)).prepare();

  return {
    ...namedCatalog({
      enumerates: namedDefinitions<Enumerate>(client, "enumerates", counter),
      lifecycles: namedDefinitions<Lifecycle>(client, "lifecycles", counter),
      profiles: namedDefinitions<Profile>(client, "profiles", counter),
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
      if (existing) {
        db.update(structures).set({ definition: stored }).where(eq(structures.id, existing.id)).run();
        return { ...stored, id: existing.id };
      }
      const { id } = db.insert(structures).values({ name: stored.name, definition: stored }).returning({ id: structures.id }).get();
      return { ...stored, id };
    },
  };
}
