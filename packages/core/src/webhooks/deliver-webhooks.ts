import type { Store } from "../ports/store.port.ts";
import type { Definitions } from "../scope/definitions.ts";
import { settleAttempt, type AttemptOutcome } from "./delivery-schedule.ts";
import { newDeliveryId } from "./webhook-credentials.ts";
import { webhookFilter } from "./webhook-match.ts";
import { webhookPayload } from "./webhook-payload.ts";
import type { ClaimedDelivery, DeliverySettlement, NewDelivery } from "./webhook.ts";

/** How many events one step of a webhook's cursor reads at most. */
const ENQUEUE_BATCH = 500;

/**
 * Makes the deliveries of the events committed since each webhook last looked: reads the log after
 * the webhook's cursor (its types and structures only) and adds one delivery per event with the
 * body it will send, moving the cursor in the same step. Several nodes may run it at once: a
 * cursor moves once from a given seq, so no event is queued twice, and none is skipped (a read
 * that reaches the end of the log moves the cursor only to the last seq read before it).
 * Events pruned before a webhook looked are not delivered. Answers how many deliveries it made,
 * and the last seq of the log as it started (what to wait for events after).
 */
export async function enqueueDeliveries(store: Store, definitions: () => Promise<Definitions>, now: () => number): Promise<QueuedDeliveries> {
  let made = 0;
  const last = await store.events.lastSeq();
  const webhooks = await store.webhooks.list();
  if (webhooks.length === 0) return { queued: 0, last, webhooks: 0 };
  const defs = await definitions();
  for (const { webhook } of webhooks) {
    let cursor = webhook.cursor;
    for (;;) {
      // Read first: every event up to it is committed (seqs come in commit order).
      const horizon = await store.events.lastSeq();
      const start = Math.max(cursor, (await store.events.oldestSeq()) - 1);
      const batch = await store.events.after(start, ENQUEUE_BATCH, webhookFilter(webhook));
      const reachedEnd = batch.length < ENQUEUE_BATCH;
      const to = reachedEnd ? Math.max(horizon, batch.at(-1)?.seq ?? start) : batch.at(-1)!.seq;
      if (to <= cursor) break;
      const deliveries: NewDelivery[] = batch.map((event) => ({
        id: newDeliveryId(), seq: event.seq, initid: event.initid, type: event.type, body: webhookPayload(event, defs),
      }));
      // Another node moved the cursor first: it queued these events; this node goes on with the next webhook.
      if (!(await store.webhooks.enqueue(webhook.id, cursor, to, deliveries, now()))) break;
      made += deliveries.length;
      cursor = to;
      if (reachedEnd) break;
    }
  }
  return { queued: made, last, webhooks: webhooks.length };
}

/** What a round of queueing did. */
export interface QueuedDeliveries {
  /** Deliveries made. */
  readonly queued: number;
  /** The log's last seq as the round started. */
  readonly last: number;
  /** How many webhooks there were: with none, no delivery is due, nor will be before one is added. */
  readonly webhooks: number;
}

/** How long a claimed delivery stays a node's by default: an attempt's 10 s timeout, and time to record it. */
export const DEFAULT_LEASE_MS = 30_000;

/** Claims due deliveries for one attempt each, leased to `node` for `leaseMs` (WebhookRepository.claim). */
export function claimDeliveries(store: Store, node: string, now: number, limit: number, leaseMs = DEFAULT_LEASE_MS): Promise<ClaimedDelivery[]> {
  return store.webhooks.claim({ node, now, leaseUntil: now + leaseMs, limit });
}

/** Several attempts' outcomes at once (`recordAttempt` for each, one write where the store can). */
export async function recordAttempts(
  store: Store, node: string, ended: readonly { claimed: ClaimedDelivery; outcome: AttemptOutcome; at: number }[], random: () => number,
): Promise<DeliverySettlement[]> {
  const settlements = ended.map(({ claimed, outcome, at }) => settleAttempt(claimed, outcome, at, random));
  await store.webhooks.settleAll(node, ended.map(({ claimed }, i) => ({ deliveryId: claimed.id, attempt: claimed.attempt, settlement: settlements[i]! })));
  return settlements;
}

/**
 * Records an attempt's outcome and what the delivery becomes (delivery-schedule.ts): delivered,
 * pending until its next try, or failed (its webhook then disabled until a retry).
 */
export async function recordAttempt(
  store: Store, node: string, claimed: ClaimedDelivery, outcome: AttemptOutcome, at: number, random: () => number,
): Promise<DeliverySettlement> {
  const settlement = settleAttempt(claimed, outcome, at, random);
  await store.webhooks.settle(claimed.id, claimed.attempt, node, settlement);
  return settlement;
}
