import type { DashboardCatalog, DashboardEntry } from "@lineage/core";
import type { DefinitionsCounter } from "./definitions-counter.ts";
import { statement, type SqlClient } from "./sql-client.ts";

const BY_SLUG = statement("select slug, uuid, roles from dashboards where slug = $1");
const ALL = statement(`select slug, uuid, roles from dashboards order by slug collate "C"`);
const UPSERT = statement(
  "insert into dashboards (slug, uuid, roles) values ($1, $2, $3) on conflict (slug) do update set uuid = excluded.uuid, roles = excluded.roles",
);

/** The catalog's dashboards, one row each; a save raises the definitions counter. */
export function createDashboardCatalog(sql: SqlClient, counter: DefinitionsCounter): DashboardCatalog {
  const toEntry = (row: unknown[]): DashboardEntry => ({ slug: row[0] as string, uuid: row[1] as string, roles: [...(row[2] as string[])] });
  return {
    async dashboard(slug) {
      const [row] = await sql.rows(BY_SLUG, [slug]);
      return row && toEntry(row);
    },
    async dashboards() {
      return (await sql.rows(ALL)).map(toEntry);
    },
    async saveDashboard(entry) {
      await counter.raise();
      await sql.run(UPSERT, [entry.slug, entry.uuid, JSON.stringify(entry.roles)]);
    },
  };
}
