import { sql } from "drizzle-orm";
import { check, integer, sqliteTable } from "drizzle-orm/sqlite-core";

/**
 * The definitions counter behind the change clock's `definitions` stamp: one
 * row (absent until the first write of a definition), raised in the same
 * transaction as every write of structures, enumerates, lifecycles, profiles,
 * dashboards, search domains, accounts, roles and groups.
 */
export const definitionsVersion = sqliteTable(
  "definitions_version",
  {
    id: integer("id").primaryKey(),
    version: integer("version").notNull(),
  },
  (t) => [check("definitions_version_one_row", sql`${t.id} = 1`)],
);
