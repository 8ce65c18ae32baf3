import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Locks on lineages (core's LockRepository): one row per locked lineage, by initid. */
export const elementLocks = sqliteTable("element_locks", {
  initid: integer("initid").primaryKey(),
  accountId: integer("account_id").notNull(),
  temporary: integer("temporary", { mode: "boolean" }).notNull(),
  lockedAt: text("locked_at").notNull(),
});
