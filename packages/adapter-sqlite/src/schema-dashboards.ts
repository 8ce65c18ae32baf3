import { sqliteTable, text } from "drizzle-orm/sqlite-core";

/** The dashboards bundles registered: the platform's slug, the uuid on the dashboard server, the roles that may view it. */
export const dashboards = sqliteTable("dashboards", {
  slug: text("slug").primaryKey(),
  uuid: text("uuid").notNull(),
  roles: text("roles", { mode: "json" }).$type<readonly string[]>().notNull(),
});
