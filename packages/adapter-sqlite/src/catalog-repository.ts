import { asc, eq, sql } from "drizzle-orm";
import type { Database } from "better-sqlite3";
import type { BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import type { CatalogRepository, Enumerate, SmartStructure, StructureDefinition } from "@lineage/core";
import type { Atomic } from "./atomic.ts";
import { createDefinitionCache } from "./definition-cache.ts";
import { enumerates, lifecycles, profiles, structures } from "./schema.ts";

/** Structures, enumerates, lifecycles and profiles, each kept as one JSON definition. */
export function createCatalogRepository(db: BetterSQLite3Database & { $client: Database }, atomic: Atomic): CatalogRepository {
  const byName = db.select().from(structures).where(eq(structures.name, sql.placeholder("name"))).prepare();
  const byId = db.select().from(structures).where(eq(structures.id, sql.placeholder("id"))).prepare();
  const toStructure = (row: { id: number; definition: StructureDefinition } | undefined): SmartStructure | undefined =>
    row && { ...row.definition, id: row.id };
  // Enumerates may hold thousands of items: parsed once, so their lookup index lasts between requests.
  const enumerateCache = createDefinitionCache<Enumerate>(db.$client);

  return {
    structure: (name) => toStructure(byName.get({ name })),
    structureById: (id) => toStructure(byId.get({ id })),
    structures: () => db.select().from(structures).orderBy(asc(structures.id)).all().map((row) => ({ ...row.definition, id: row.id })),
    saveStructure(definition) {
      const { id: _carried, ...stored } = definition as StructureDefinition & { id?: unknown };
      // Look up then update or insert: an upsert would burn an AUTOINCREMENT id on every replacement.
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
    enumerate: (name) => enumerateCache.get(name, () => db.select().from(enumerates).where(eq(enumerates.name, name)).get()?.definition),
    saveEnumerate(enumerate) {
      db.insert(enumerates).values({ name: enumerate.name, definition: enumerate })
        .onConflictDoUpdate({ target: enumerates.name, set: { definition: enumerate } }).run();
      enumerateCache.forget(enumerate.name);
    },
    lifecycle: (name) => db.select().from(lifecycles).where(eq(lifecycles.name, name)).get()?.definition,
    saveLifecycle(lifecycle) {
      db.insert(lifecycles).values({ name: lifecycle.name, definition: lifecycle })
        .onConflictDoUpdate({ target: lifecycles.name, set: { definition: lifecycle } }).run();
    },
    profile: (name) => db.select().from(profiles).where(eq(profiles.name, name)).get()?.definition,
    saveProfile(profile) {
      db.insert(profiles).values({ name: profile.name, definition: profile })
        .onConflictDoUpdate({ target: profiles.name, set: { definition: profile } }).run();
    },
  };
}
