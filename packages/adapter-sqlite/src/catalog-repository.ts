import { asc, eq, sql } from "drizzle-orm";
import type { BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import type { CatalogRepository, SmartStructure, StructureDefinition } from "@lineage/core";
import type { Atomic } from "./atomic.ts";
import { createDashboardCatalog } from "./dashboard-catalog.ts";
import type { DefinitionCache } from "./definition-cache.ts";
import { enumerates, lifecycles, profiles, structures } from "./schema.ts";

/** Structures, enumerates, lifecycles and profiles, each kept as one JSON definition, read through the definition cache. */
export function createCatalogRepository(db: BetterSQLite3Database, atomic: Atomic, cache: DefinitionCache): CatalogRepository {
  const byName = db.select().from(structures).where(eq(structures.name, sql.placeholder("name"))).prepare();
  const byId = db.select().from(structures).where(eq(structures.id, sql.placeholder("id"))).prepare();
  const toStructure = (row: { id: number; definition: StructureDefinition } | undefined): SmartStructure | undefined =>
    row && { ...row.definition, id: row.id };
  const enumerateByName = db.select().from(enumerates).where(eq(enumerates.name, sql.placeholder("name"))).prepare();
  const lifecycleByName = db.select().from(lifecycles).where(eq(lifecycles.name, sql.placeholder("name"))).prepare();
  const profileByName = db.select().from(profiles).where(eq(profiles.name, sql.placeholder("name"))).prepare();
  const allStructures = db.select().from(structures).orderBy(asc(structures.id)).prepare();

  return {
    ...createDashboardCatalog(db),
    structure: (name) => cache.get(`structure:${name}`, () => toStructure(byName.get({ name }))),
    structureById: (id) => cache.get(`structure#${id}`, () => toStructure(byId.get({ id }))),
    structures: () => cache.get("structures", () => allStructures.all().map((row) => ({ ...row.definition, id: row.id }))) ?? [],
    saveStructure(definition) {
      const { id: _carried, ...stored } = definition as StructureDefinition & { id?: unknown };
      // Look up then update or insert: an upsert would burn an AUTOINCREMENT id on every replacement.
      cache.written();
      return atomic(() => {
        const existing = byName.get({ name: stored.name });
        if (existing) {
          db.update(structures).set({ definition: stored }).where(eq(structures.id, existing.id)).run();
          return { ...stored, id: existing.id };
        }
        const { id } = db.insert(structures).values({ name: stored.name, definition: stored }).returning({ id: structures.id }).get();
        return { ...stored, id };
      });
    },
    enumerate: (name) => cache.get(`enumerate:${name}`, () => enumerateByName.get({ name })?.definition),
    saveEnumerate(enumerate) {
      cache.written();
      db.insert(enumerates).values({ name: enumerate.name, definition: enumerate })
        .onConflictDoUpdate({ target: enumerates.name, set: { definition: enumerate } }).run();
    },
    lifecycle: (name) => cache.get(`lifecycle:${name}`, () => lifecycleByName.get({ name })?.definition),
    saveLifecycle(lifecycle) {
      cache.written();
      db.insert(lifecycles).values({ name: lifecycle.name, definition: lifecycle })
        .onConflictDoUpdate({ target: lifecycles.name, set: { definition: lifecycle } }).run();
    },
    profile: (name) => cache.get(`profile:${name}`, () => profileByName.get({ name })?.definition),
    saveProfile(profile) {
      cache.written();
      db.insert(profiles).values({ name: profile.name, definition: profile })
        .onConflictDoUpdate({ target: profiles.name, set: { definition: profile } }).run();
    },
  };
}
