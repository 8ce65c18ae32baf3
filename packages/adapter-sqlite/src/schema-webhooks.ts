import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, unique } from "drizzle-orm/sqlite-core";
import type { DeliveryStatus, EventType } from "@lineage/core";

/**
 * Webhooks (times in milliseconds since the epoch). `cursor` is the last seq of the event log the
 * webhook has looked at; `types` and `structures` are JSON lists, empty for any.
 */
export const webhooks = sqliteTable("webhooks", {
  id: text("id").primaryKey(),
  url: text("url").notNull(),
  types: text("types", { mode: "json" }).$type<EventType[]>().notNull(),
  structures: text("structures", { mode: "json" }).$type<string[]>().notNull(),
  description: text("description").notNull(),
  secret: text("secret").notNull(),
  createdAt: integer("created_at").notNull(),
  cursor: integer("cursor").notNull(),
  failingSince: integer("failing_since"),
  disabledAt: integer("disabled_at"),
});

/**
 * One event to send to one webhook: its body as every attempt sends it, where its sending stands,
 * and the lease of the node sending it now. One per webhook and seq.
 */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    webhookId: text("webhook_id").notNull().references(() => webhooks.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    initid: integer("initid").notNull(),
    type: text("type").$type<EventType>().notNull(),
    body: text("body").notNull(),
    status: text("status").$type<DeliveryStatus>().notNull(),
    attempts: integer("attempts").notNull(),
    since: integer("since").notNull(),
    nextAttemptAt: integer("next_attempt_at").notNull(),
    leaseOwner: text("lease_owner"),
    leaseUntil: integer("lease_until"),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    deliveredAt: integer("delivered_at"),
  },
  (t) => [
    unique("webhook_deliveries_webhook_seq_unique").on(t.webhookId, t.seq),
    // What a claim looks for: the pending deliveries in the order it takes them, and the earlier ones of an element.
    index("webhook_deliveries_due_idx").on(t.nextAttemptAt, t.seq).where(sql`${t.status} = 'pending'`),
    index("webhook_deliveries_element_idx").on(t.webhookId, t.initid, t.seq).where(sql`${t.status} = 'pending'`),
  ],
);

/** Each attempt at a delivery: who sent it, when, and what came of it (null until it ended). */
export const webhookAttempts = sqliteTable(
  "webhook_attempts",
  {
    deliveryId: text("delivery_id").notNull().references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    attempt: integer("attempt").notNull(),
    node: text("node").notNull(),
    startedAt: integer("started_at").notNull(),
    endedAt: integer("ended_at"),
    statusCode: integer("status_code"),
    error: text("error"),
  },
  (t) => [primaryKey({ columns: [t.deliveryId, t.attempt] })],
);
