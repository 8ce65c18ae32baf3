import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { TokenRoute } from "@lineage/core";

/** Login sessions; `id` is the SHA-256 of the cookie value, never the value. */
export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    accountId: integer("account_id").notNull(),
    csrfToken: text("csrf_token").notNull(),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at").notNull(),
    absoluteExpiresAt: text("absolute_expires_at").notNull(),
  },
  (t) => [index("sessions_account_idx").on(t.accountId), index("sessions_expires_idx").on(t.expiresAt)],
);

/** Access tokens; `hash` is the SHA-256 of the token, never the token. */
export const accessTokens = sqliteTable(
  "access_tokens",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    id: text("id").notNull().unique(),
    hash: text("hash").notNull().unique(),
    accountId: integer("account_id").notNull(),
    routes: text("routes", { mode: "json" }).$type<readonly TokenRoute[]>().notNull(),
    expiresAt: text("expires_at"),
    oneshot: integer("oneshot", { mode: "boolean" }).notNull(),
    description: text("description").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("access_tokens_expires_idx").on(t.expiresAt)],
);
