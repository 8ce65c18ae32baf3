import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { SearchDomain } from "@lineage/core";

/** Full-text search domains, as bundles declare them; `generation` counts full rebuilds, so other processes reload. */
export const searchDomains = sqliteTable("search_domains", {
  name: text("name").primaryKey(),
  definition: text("definition", { mode: "json" }).$type<SearchDomain>().notNull(),
  generation: integer("generation").notNull().default(0),
});
