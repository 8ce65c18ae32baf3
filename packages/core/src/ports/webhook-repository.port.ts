import type {
  ClaimedDelivery, DeliverySettlement, DeliveryWithAttempts, NewDelivery, Webhook, WebhookDelivery,
} from "../webhooks/webhook.ts";

/** A claim's terms: who claims, when, and until when the deliveries claimed are theirs. */
export interface DeliveryClaim {
  /** The claiming node's name, unique among the live nodes. */
  readonly node: string;
  /** Now, in milliseconds since the epoch. */
  readonly now: number;
  /** Until when the deliveries are this node's; past it, another node may take them over. */
  readonly leaseUntil: number;
  readonly limit: number;
}

/** One attempt's end, for `settleAll`. */
export interface AttemptSettlement {
  readonly deliveryId: string;
  readonly attempt: number;
  readonly settlement: DeliverySettlement;
}

/**
 * Webhooks and their deliveries, shared by every node of a store. Each method is atomic on its own
 * and runs outside the store's transactions: a delivery's bookkeeping neither waits for element
 * writes nor makes them wait. Times are milliseconds since the epoch.
 */
export interface WebhookRepository {
  create(webhook: Webhook): Promise<void>;
  /** Every webhook, oldest first, each with its latest delivery (by seq). */
  list(): Promise<{ webhook: Webhook; last: WebhookDelivery | undefined }[]>;
  byId(id: string): Promise<Webhook | undefined>;
  /** Removes a webhook with its deliveries; false when there was none. */
  remove(id: string): Promise<boolean>;
  /**
   * Adds deliveries to a webhook and moves its cursor from `from` to `to`, both or neither: nothing
   * happens (false) when the cursor is no longer `from` (another node moved it first). A delivery of
   * a seq the webhook already has is left as it is. `now` is their creation, and when they are due.
   */
  enqueue(webhookId: string, from: number, to: number, deliveries: readonly NewDelivery[], now: number): Promise<boolean>;
  /**
   * Claims pending deliveries due by `now` whose lease is free or expired, of webhooks not disabled,
   * each the first pending one of its element for its webhook (later ones wait for it): counts an
   * attempt for each and leases it to `node`. Two claims at once, from any nodes, never get the same
   * delivery. An attempt left open by a node whose lease expired is closed with an error saying so.
   */
  claim(claim: DeliveryClaim): Promise<ClaimedDelivery[]>;
  /**
   * Records how an attempt ended, and, if `node` still holds the delivery's lease, settles it
   * (releasing the lease) and updates its webhook's failing and disabled marks; answers whether it did.
   */
  settle(deliveryId: string, attempt: number, node: string, settlement: DeliverySettlement): Promise<boolean>;
  /** `settle` for several attempts of one node at once (one write where the store can): answers each one's result, in order. */
  settleAll(node: string, settlements: readonly AttemptSettlement[]): Promise<boolean[]>;
  /** A webhook's deliveries, newest first (by seq), at most `limit`, each with its attempts. */
  deliveries(webhookId: string, limit: number): Promise<DeliveryWithAttempts[]>;
  /** One delivery of a webhook with its attempts; undefined when the webhook has no such delivery. */
  delivery(webhookId: string, deliveryId: string): Promise<DeliveryWithAttempts | undefined>;
  /**
   * Makes a delivery pending again, due `now`, its retry window opening `now`, its lease released,
   * and enables its webhook again; false when the webhook has no such delivery.
   */
  retry(webhookId: string, deliveryId: string, now: number): Promise<boolean>;
}
