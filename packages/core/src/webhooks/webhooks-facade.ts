import type { Principal } from "../accounts/principal.ts";
import type { WebhookDestinations } from "../ports/webhook-destinations.port.ts";
import type { PlatformContext } from "../scope/platform-context.ts";
import type { AttemptOutcome } from "./delivery-schedule.ts";
import { claimDeliveries, enqueueDeliveries, recordAttempt, recordAttempts, type QueuedDeliveries } from "./deliver-webhooks.ts";
import {
  createWebhook, listDeliveries, listWebhooks, removeWebhook, retryDelivery,
  type CreatedWebhook, type DeliveryDetail, type WebhookSummary,
} from "./manage-webhooks.ts";
import type { ClaimedDelivery, DeliverySettlement } from "./webhook.ts";

/** Webhooks: their administration, and the steps of the delivery worker that every node runs. */
export interface WebhooksFacade {
  /** POST /api/admin/webhooks/: checks the body (400 WEBHOOK0400) and registers the webhook; its secret is answered once. */
  create(principal: Principal, body: unknown): Promise<CreatedWebhook>;
  /** GET /api/admin/webhooks/: every webhook, without secrets. */
  list(principal: Principal): Promise<WebhookSummary[]>;
  /** DELETE /api/admin/webhooks/<id> (404 WEBHOOK0404). */
  remove(principal: Principal, id: string): Promise<void>;
  /** GET /api/admin/webhooks/<id>/deliveries: the recent deliveries, newest first, with their attempts. */
  deliveries(principal: Principal, id: string, limit?: number): Promise<DeliveryDetail[]>;
  /** POST /api/admin/webhooks/<id>/deliveries/<delivery>/retry: due again now. */
  retry(principal: Principal, id: string, deliveryId: string): Promise<DeliveryDetail>;
  /** The worker: queues the deliveries of the events committed since each webhook last looked; answers how many, and the log's last seq before. */
  enqueue(): Promise<QueuedDeliveries>;
  /** The worker: claims due deliveries for one attempt each, leased to `node` for `leaseMs`. */
  claim(node: string, limit: number, leaseMs?: number): Promise<ClaimedDelivery[]>;
  /** The worker: records how an attempt went and what the delivery becomes. */
  settle(node: string, claimed: ClaimedDelivery, outcome: AttemptOutcome): Promise<DeliverySettlement>;
  /** The worker: `settle` for several attempts at once, each with when it ended (one write where the store can). */
  settleAll(node: string, ended: readonly { claimed: ClaimedDelivery; outcome: AttemptOutcome; at: number }[]): Promise<DeliverySettlement[]>;
}

export interface WebhooksOptions {
  /** Where webhooks may send (the default refuses no URL: an adapter resolves host names, e.g. `createWebhookDestinations` of `@lineage/adapter-node`). */
  readonly destinations?: WebhookDestinations | undefined;
  /** The jitter of retry delays, in [0, 1); Math.random by default. */
  readonly random?: (() => number) | undefined;
}

const anyDestination: WebhookDestinations = { check: async () => undefined };

/** The webhooks façade over a platform's context. */
export function createWebhooksFacade(context: PlatformContext, options: WebhooksOptions = {}): WebhooksFacade {
  const { store, clock } = context;
  const random = options.random ?? Math.random;
  const needs = { store, clock, destinations: options.destinations ?? anyDestination, definitions: () => context.definitions() };
  return {
    create: (principal, body) => createWebhook(needs, principal, body),
    list: (principal) => listWebhooks(store, principal),
    remove: (principal, id) => removeWebhook(store, principal, id),
    deliveries: (principal, id, limit) => listDeliveries(store, principal, id, limit),
    retry: (principal, id, deliveryId) => retryDelivery(store, clock, principal, id, deliveryId),
    enqueue: () => enqueueDeliveries(store, () => context.definitions(), () => clock.now().getTime()),
    claim: (node, limit, leaseMs) => claimDeliveries(store, node, clock.now().getTime(), limit, leaseMs),
    settle: (node, claimed, outcome) => recordAttempt(store, node, claimed, outcome, clock.now().getTime(), random),
    settleAll: (node, ended) => recordAttempts(store, node, ended, random),
  };
}
