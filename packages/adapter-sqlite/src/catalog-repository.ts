import { asc, eq, sql } from "drizzle-orm";
import type { BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import type { CatalogRepository, SmartStructure, StructureDefinition } from "@lineage/core";
import { createDashboardCatalog } from "./dashboard-catalog.ts";
import type { DefinitionsCounter } from "./definitions-counter.ts";
import { enumerates, lifecycles, profiles, structures } from "./schema.ts";

/**
 * Structures, enumerates, lifecycles and profiles, each kept as one JSON definition. Every write
 * raises the definitions counter, which core's definitions cache is keyed by.
 */
export function createCatalogRepository(db: BetterSQLite3Database, counter: DefinitionsCounter): CatalogRepository {
  const byName = db.select().from(structures).where(eq(structures.name, sql.placeholder("name"))).prepare();
  const byId = db.select().from(structures).where(eq(structures.id, sql.placeholder("id"))).prepare();
  const toStructure = (row: { id: number; definition: StructureDefinition }): SmartStructure => ({ ...row.definition, id: row.id });
  const allStructures = db.select().from(structures).orderBy(asc(structures.id)).prepare();
  const enumerateByName = db.select().from(enumerates).where(eq(enumerates.name, sql.placeholder("name"))).prepare();
  const allEnumerates = db.select().from(enumerates).orderBy(asc(enumerates.name)).prepare();
  const lifecycleByName = db.select().from(lifecycles).where(eq(lifecycles.name, sql.placeholder("name"))).prepare();
  const allLifecycles = db.select().from(lifecycles).orderBy(asc(lifecycles.name)).prepare();
  const profileByName = db.select().from(profiles).where(eq(profiles.name, sql.placeholder("name"))).prepare();
  const allProfiles = db.select().from(profiles).orderBy(asc(profiles.name)).prepare();

  return {
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
    async enumerate(name) {
      return enumerateByName.get({ name })?.definition;
    },
    async enumerates() {
      return allEnumerates.all().map((row) => row.definition);
    },
    async saveEnumerate(enumerate) {
      counter.raise();
      db.insert(enumerates).values({ name: enumerate.name, definition: enumerate })
        .onConflictDoUpdate({ target: enumerates.name, set: { definition: enumerate } }).run();
    },
    async lifecycle(name) {
      return lifecycleByName.get({ name })?.definition;
    },
    async lifecycles() {
      return allLifecycles.all().map((row) => row.definition);
    },
    async saveLifecycle(lifecycle) {
      counter.raise();
      db.insert(lifecycles).values({ name: lifecycle.name, definition: lifecycle })
        .onConflictDoUpdate({ target: lifecycles.name, set: { definition: lifecycle } }).run();
    },
    async profile(name) {
      return profileByName.get({ name })?.definition;
    },
    async profiles() {
      return allProfiles.all().map((row) => row.definition);
    },
    async saveProfile(profile) {
      counter.raise();
      db.insert(profiles).values({ name: profile.name, definition: profile })
        .onConflictDoUpdate({ target: profiles.name, set: { definition: profile } }).run();
    },
  };
}
