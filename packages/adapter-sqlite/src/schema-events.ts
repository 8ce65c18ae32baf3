import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { EventType, NewEvent } from "@lineage/core";

/**
 * The event log: one row per event, written in the change's own transaction. `seq` is an
 * AUTOINCREMENT key: SQLite never gives a committed number again, pruned or not, and writers take
 * turns behind the write lock, so numbers come in commit order. `body` is the event as JSON
 * without its seq; the other columns are what reads filter on.
 */
export const events = sqliteTable(
  "events",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    time: text("time").notNull(),
    type: text("type").$type<EventType>().notNull(),
    initid: integer("initid").notNull(),
    structure: text("structure").notNull(),
    body: text("body", { mode: "json" }).$type<NewEvent>().notNull(),
  },
  (t) => [index("events_structure_idx").on(t.structure, t.seq), index("events_initid_idx").on(t.initid, t.seq)],
);

/** Where pruning stopped: one row (absent until the first prune), the last seq it removed. */
export const eventsPruned = sqliteTable(
  "events_pruned",
  {
    id: integer("id").primaryKey(),
    seq: integer("seq").notNull(),
  },
  (t) => [check("events_pruned_one_row", sql`${t.id} = 1`)],
);
