import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { SearchDomain } from "@lineage/core";

/** Full-text search domains, as bundles declare them; `generation` counts full rebuilds, so other processes reload. */
export const searchDomains = sqliteTable("search_domains", {
  name: text("name").primaryKey(),
  definition: text("definition", { mode: "json" }).$type<SearchDomain>().notNull(),
  generation: integer("generation").notNull().default(0),
});

/**
 * The search change log: one row per lineage, with the sequence number of its
 * last change. Written in the change's own transaction; indexes apply the rows
 * above the sequence number they cover.
 */
export const searchChanges = sqliteTable(
  "search_changes",
  {
    initid: integer("initid").primaryKey(),
    structure: text("structure").notNull(),
    seq: integer("seq").notNull(),
  },
  (t) => [index("search_changes_seq_idx").on(t.seq)],
);
