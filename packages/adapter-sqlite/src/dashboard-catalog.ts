import { asc, eq, sql } from "drizzle-orm";
import type { BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import type { DashboardCatalog, DashboardEntry } from "@lineage/core";
import type { DefinitionsCounter } from "./definitions-counter.ts";
import { dashboards } from "./schema-dashboards.ts";

/** The catalog's dashboards, one row each; a save raises the definitions counter. */
export function createDashboardCatalog(db: BetterSQLite3Database, counter: DefinitionsCounter): DashboardCatalog {
  const bySlug = db.select().from(dashboards).where(eq(dashboards.slug, sql.placeholder("slug"))).prepare();
  const all = db.select().from(dashboards).orderBy(asc(dashboards.slug)).prepare();
  const toEntry = (row: DashboardEntry): DashboardEntry => ({ slug: row.slug, uuid: row.uuid, roles: [...row.roles] });
  return {
    async dashboard(slug) {
      const row = bySlug.get({ slug });
      return row && toEntry(row);
    },
    async dashboards() {
      return all.all().map(toEntry);
    },
    async saveDashboard(entry) {
      counter.raise();
      const row = { slug: entry.slug, uuid: entry.uuid, roles: [...entry.roles] };
      db.insert(dashboards).values(row).onConflictDoUpdate({ target: dashboards.slug, set: { uuid: row.uuid, roles: row.roles } }).run();
    },
  };
}
