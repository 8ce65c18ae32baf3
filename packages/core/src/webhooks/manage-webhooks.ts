import * as v from "valibot";
import { ADMIN_ROLE } from "../accounts/account.ts";
import type { Principal } from "../accounts/principal.ts";
import { requireAccess } from "../access/authorization-guard.ts";
import type { EventType } from "../events/element-event.ts";
import { LineageError } from "../errors/lineage-error.ts";
import type { Clock } from "../ports/clock.port.ts";
import type { Store } from "../ports/store.port.ts";
import type { WebhookDestinations } from "../ports/webhook-destinations.port.ts";
import type { Definitions } from "../scope/definitions.ts";
import { newWebhookId, newWebhookSecret } from "./webhook-credentials.ts";
import { WebhookInputSchema } from "./webhook-input.schema.ts";
import { webhookStatus, type DeliveryAttempt, type DeliveryStatus, type DeliveryWithAttempts, type Webhook, type WebhookDelivery, type WebhookStatus } from "./webhook.ts";

/** A delivery as the admin routes answer it; times in ISO 8601. */
export interface DeliverySummary {
  readonly id: string;
  readonly seq: number;
  readonly type: EventType;
  readonly status: DeliveryStatus;
  readonly attempts: number;
  readonly lastStatusCode: number | null;
  readonly lastError: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
  /** When it is tried next; null unless pending. */
  readonly nextAttemptAt: string | null;
  readonly deliveredAt: string | null;
}

/** One attempt as the admin routes answer it. */
export interface AttemptSummary {
  readonly attempt: number;
  readonly node: string;
  readonly startedAt: string;
  readonly endedAt: string | null;
  readonly statusCode: number | null;
  readonly error: string | null;
}

/** A delivery with its attempts, oldest first. */
export interface DeliveryDetail extends DeliverySummary {
  readonly attemptLog: readonly AttemptSummary[];
}

/** A webhook as GET /api/admin/webhooks/ answers it: never its secret. */
export interface WebhookSummary extends Pick<Webhook, "id" | "url" | "types" | "structures" | "description"> {
  readonly status: WebhookStatus;
  readonly createdAt: string;
  readonly lastDelivery: DeliverySummary | null;
}

/** A webhook just made: its secret, shown this once. */
export interface CreatedWebhook {
  readonly id: string;
  readonly url: string;
  readonly types: readonly EventType[];
  readonly structures: readonly string[];
  readonly description: string;
  readonly secret: string;
}

/** The most deliveries GET .../deliveries answers. */
export const MAX_LISTED_DELIVERIES = 100;

const iso = (ms: number) => new Date(ms).toISOString();
const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

const requireAdmin = (principal: Principal, route: string) => requireAccess(principal, { route, anyRole: [ADMIN_ROLE] });

/** The delivery as answered. */
export function deliverySummary(delivery: WebhookDelivery): DeliverySummary {
  return {
    id: delivery.id, seq: delivery.seq, type: delivery.type, status: delivery.status, attempts: delivery.attempts,
    lastStatusCode: delivery.lastStatusCode, lastError: delivery.lastError, createdAt: iso(delivery.createdAt), updatedAt: iso(delivery.updatedAt),
    nextAttemptAt: delivery.status === "pending" ? iso(delivery.nextAttemptAt) : null, deliveredAt: isoOrNull(delivery.deliveredAt),
  };
}

function attemptSummary(attempt: DeliveryAttempt): AttemptSummary {
  return {
    attempt: attempt.attempt, node: attempt.node, startedAt: iso(attempt.startedAt), endedAt: isoOrNull(attempt.endedAt),
    statusCode: attempt.statusCode, error: attempt.error,
  };
}

/** What the webhook use cases need besides the store. */
export interface WebhookNeeds {
  readonly store: Store;
  readonly clock: Clock;
  readonly destinations: WebhookDestinations;
  definitions(): Promise<Definitions>;
}

const refuse = (why: string): never => {
  throw new LineageError("WEBHOOK0400", [why]);
};

/**
 * Registers a webhook (administrators only): checks the body (400 WEBHOOK0400 naming what is wrong,
 * an unknown structure and a URL on a private network included), and starts it after the last event
 * of the log: it receives the events committed from now on. Answers it with its secret, shown once.
 */
export async function createWebhook(needs: WebhookNeeds, principal: Principal, body: unknown): Promise<CreatedWebhook> {
  requireAdmin(principal, "admin::webhooks");
  const parsed = v.safeParse(WebhookInputSchema, body);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const path = issue.path?.map((item) => String(item.key)).join(".");
    refuse(issue.message.includes(":") || !path ? issue.message : `${path}: ${issue.message}`);
  }
  const input = parsed.output as v.InferOutput<typeof WebhookInputSchema>;
  const definitions = await needs.definitions();
  const structures = [...new Set(input.structures ?? [])];
  for (const name of structures) if (!definitions.structure(name)) refuse(`structures: "${name}" is not a known structure`);
  await needs.destinations.check(input.url);
  const webhook: Webhook = {
    id: newWebhookId(), url: input.url, types: [...new Set(input.types ?? [])], structures, description: input.description ?? "",
    secret: newWebhookSecret(), createdAt: needs.clock.now().getTime(), cursor: await needs.store.events.lastSeq(), failingSince: null, disabledAt: null,
  };
  await needs.store.webhooks.create(webhook);
  const { id, url, types, description, secret } = webhook;
  return { id, url, types, structures, description, secret };
}

/** Every webhook without its secret, with its status and latest delivery (administrators only). */
export async function listWebhooks(store: Store, principal: Principal): Promise<WebhookSummary[]> {
  requireAdmin(principal, "admin::webhooks");
  return (await store.webhooks.list()).map(({ webhook, last }) => ({
    id: webhook.id, url: webhook.url, types: webhook.types, structures: webhook.structures, description: webhook.description,
    status: webhookStatus(webhook), createdAt: iso(webhook.createdAt), lastDelivery: last ? deliverySummary(last) : null,
  }));
}

/** Removes a webhook and its deliveries (administrators only; 404 WEBHOOK0404 when there is none). */
export async function removeWebhook(store: Store, principal: Principal, id: string): Promise<void> {
  requireAdmin(principal, "admin::webhooks");
  if (!(await store.webhooks.remove(id))) throw new LineageError("WEBHOOK0404", [`webhook "${id}"`]);
}

/** A webhook's recent deliveries, newest first, with their attempts (administrators only; 404 WEBHOOK0404). */
export async function listDeliveries(store: Store, principal: Principal, id: string, limit = MAX_LISTED_DELIVERIES): Promise<DeliveryDetail[]> {
  requireAdmin(principal, "admin::webhooks");
  if (!(await store.webhooks.byId(id))) throw new LineageError("WEBHOOK0404", [`webhook "${id}"`]);
  const deliveries = await store.webhooks.deliveries(id, Math.min(Math.max(limit, 1), MAX_LISTED_DELIVERIES));
  return deliveries.map(deliveryDetail);
}

function deliveryDetail(delivery: DeliveryWithAttempts): DeliveryDetail {
  return { ...deliverySummary(delivery), attemptLog: delivery.attemptLog.map(attemptSummary) };
}

/**
 * Sends a delivery again now (administrators only): it is pending and due at once, for a new
 * retry window, and its webhook, if disabled, is enabled again. 404 WEBHOOK0404 for an unknown one.
 */
export async function retryDelivery(store: Store, clock: Clock, principal: Principal, id: string, deliveryId: string): Promise<DeliveryDetail> {
  requireAdmin(principal, "admin::webhooks");
  if (!(await store.webhooks.retry(id, deliveryId, clock.now().getTime()))) {
    throw new LineageError("WEBHOOK0404", [`delivery "${deliveryId}" of webhook "${id}"`]);
  }
  const delivery = await store.webhooks.delivery(id, deliveryId);
  if (!delivery) throw new LineageError("WEBHOOK0404", [`delivery "${deliveryId}" of webhook "${id}"`]);
  return deliveryDetail(delivery);
}
