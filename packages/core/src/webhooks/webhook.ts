import type { EventType } from "../events/element-event.ts";

/** What an administrator sees of a webhook: `active`, `failing` (its last attempt failed), `disabled` (a delivery gave up; a retry enables it again). */
export const WEBHOOK_STATUSES = ["active", "failing", "disabled"] as const;
export type WebhookStatus = (typeof WEBHOOK_STATUSES)[number];

/** Where a delivery stands: `pending` (to send, or to send again), `delivered` (a 2xx answer), `failed` (retried for the whole window). */
export const DELIVERY_STATUSES = ["pending", "delivered", "failed"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * A webhook as the store keeps it. Times are milliseconds since the epoch. `cursor` is the seq of
 * the last event of the log it has looked at: deliveries exist for the matching events up to it.
 */
export interface Webhook {
  readonly id: string;
  readonly url: string;
  /** Event types it wants; empty: every type. */
  readonly types: readonly EventType[];
  /** Structure names it wants; empty: every structure. */
  readonly structures: readonly string[];
  readonly description: string;
  /** `whsec_` then the base64 key of the signatures. */
  readonly secret: string;
  readonly createdAt: number;
  readonly cursor: number;
  /** Since when its attempts fail (null once one succeeds). */
  readonly failingSince: number | null;
  /** When a delivery gave up: nothing is sent until a retry. */
  readonly disabledAt: number | null;
}

/** One try at sending a delivery. An attempt whose node stopped has an error saying so once another node takes the delivery over. */
export interface DeliveryAttempt {
  readonly attempt: number;
  /** The node that sent it. */
  readonly node: string;
  readonly startedAt: number;
  readonly endedAt: number | null;
  readonly statusCode: number | null;
  readonly error: string | null;
}

/** One event to send to one webhook, and how its sending went. Its `id` is the `webhook-id` header, the same at every attempt. */
export interface WebhookDelivery {
  readonly id: string;
  readonly webhookId: string;
  readonly seq: number;
  /** The element of the event: deliveries of one element go out in seq order. */
  readonly initid: number;
  readonly type: EventType;
  readonly status: DeliveryStatus;
  readonly attempts: number;
  /** When its retry window opened: at its creation, or at the last manual retry. */
  readonly since: number;
  readonly nextAttemptAt: number;
  readonly lastStatusCode: number | null;
  readonly lastError: string | null;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly deliveredAt: number | null;
}

/** A delivery with its attempts, oldest first. */
export interface DeliveryWithAttempts extends WebhookDelivery {
  readonly attemptLog: readonly DeliveryAttempt[];
}

/** A delivery as it is made from an event: `body` is what every attempt sends. */
export interface NewDelivery {
  readonly id: string;
  readonly seq: number;
  readonly initid: number;
  readonly type: EventType;
  readonly body: string;
}

/** A delivery a node has claimed for one attempt, with what it needs to send it. */
export interface ClaimedDelivery {
  readonly id: string;
  readonly webhookId: string;
  readonly url: string;
  readonly secret: string;
  readonly seq: number;
  readonly body: string;
  /** This attempt's number, from 1. */
  readonly attempt: number;
  readonly since: number;
}

/** How an attempt ended, and what the delivery becomes. */
export interface DeliverySettlement {
  readonly status: DeliveryStatus;
  /** When a pending delivery is tried next. */
  readonly nextAttemptAt: number;
  readonly statusCode: number | null;
  readonly error: string | null;
  /** When the attempt ended. */
  readonly at: number;
}

/** The status an administrator sees of a webhook. */
export function webhookStatus(webhook: Pick<Webhook, "failingSince" | "disabledAt">): WebhookStatus {
  if (webhook.disabledAt !== null) return "disabled";
  return webhook.failingSince === null ? "active" : "failing";
}
