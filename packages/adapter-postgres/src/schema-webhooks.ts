import { sql } from "drizzle-orm";
import { bigint, index, integer, json, pgTable, primaryKey, text, unique } from "drizzle-orm/pg-core";
import type { DeliveryStatus, EventType } from "@lineage/core";

/**
 * Webhooks (times in milliseconds since the epoch). `cursor` is the last seq of the event log the
 * webhook has looked at; `types` and `structures` are lists, empty for any.
 */
export const webhooks = pgTable("webhooks", {
  id: text("id").primaryKey(),
  url: text("url").notNull(),
  types: json("types").$type<EventType[]>().notNull(),
  structures: json("structures").$type<string[]>().notNull(),
  description: text("description").notNull(),
  secret: text("secret").notNull(),
  createdAt: bigint("created_at", { mode: "number" }).notNull(),
  cursor: bigint("cursor", { mode: "number" }).notNull(),
  failingSince: bigint("failing_since", { mode: "number" }),
  disabledAt: bigint("disabled_at", { mode: "number" }),
});

/**
 * One event to send to one webhook: its body as every attempt sends it, where its sending stands,
 * and the lease of the node sending it now (taken with FOR UPDATE SKIP LOCKED: one node per attempt).
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    webhookId: text("webhook_id").notNull().references(() => webhooks.id, { onDelete: "cascade" }),
    seq: bigint("seq", { mode: "number" }).notNull(),
    initid: integer("initid").notNull(),
    type: text("type").$type<EventType>().notNull(),
    body: text("body").notNull(),
    status: text("status").$type<DeliveryStatus>().notNull(),
    attempts: integer("attempts").notNull(),
    since: bigint("since", { mode: "number" }).notNull(),
    nextAttemptAt: bigint("next_attempt_at", { mode: "number" }).notNull(),
    leaseOwner: text("lease_owner"),
    leaseUntil: bigint("lease_until", { mode: "number" }),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    updatedAt: bigint("updated_at", { mode: "number" }).notNull(),
    deliveredAt: bigint("delivered_at", { mode: "number" }),
  },
  (t) => [
    unique("webhook_deliveries_webhook_seq_unique").on(t.webhookId, t.seq),
    // What a claim looks for: the pending deliveries in the order it takes them, and the earlier ones of an element.
    index("webhook_deliveries_due_idx").on(t.nextAttemptAt, t.seq).where(sql`${t.status} = 'pending'`),
    index("webhook_deliveries_element_idx").on(t.webhookId, t.initid, t.seq).where(sql`${t.status} = 'pending'`),
  ],
);

/** Each attempt at a delivery: who sent it, when, and what came of it (null until it ended). */
export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    deliveryId: text("delivery_id").notNull().references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    attempt: integer("attempt").notNull(),
    node: text("node").notNull(),
    startedAt: bigint("started_at", { mode: "number" }).notNull(),
    endedAt: bigint("ended_at", { mode: "number" }),
    statusCode: integer("status_code"),
    error: text("error"),
  },
  (t) => [primaryKey({ columns: [t.deliveryId, t.attempt] })],
);
