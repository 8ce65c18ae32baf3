import type { WebhookRepository } from "../ports/webhook-repository.port.ts";
import type { DeliveryAttempt, DeliveryWithAttempts, Webhook, WebhookDelivery } from "../webhooks/webhook.ts";

interface DeliveryRow {
  delivery: WebhookDelivery;
  body: string;
  leaseOwner: string | null;
  leaseUntil: number | null;
  attempts: DeliveryAttempt[];
}

/** The message of an attempt whose node stopped holding its lease before it said how it went. */
export const ABANDONED_ATTEMPT = "abandoned: the node sending it stopped before it finished (lease expired)";

/**
 * Webhooks and deliveries in memory: each method runs to its end without yielding, which is the
 * atomicity the port asks for.
 */
export function createMemoryWebhookRepository(): WebhookRepository {
  const webhooks = new Map<string, Webhook>();
  const deliveries = new Map<string, DeliveryRow>();
  const ofWebhook = (id: string) => [...deliveries.values()].filter((row) => row.delivery.webhookId === id);
  const withAttempts = (row: DeliveryRow): DeliveryWithAttempts => ({ ...row.delivery, attemptLog: row.attempts.map((a) => ({ ...a })) });
  const update = (row: DeliveryRow, changes: Partial<WebhookDelivery>) => {
    row.delivery = { ...row.delivery, ...changes };
  };

  const repository: WebhookRepository = {
    async create(webhook) {
      webhooks.set(webhook.id, { ...webhook, types: [...webhook.types], structures: [...webhook.structures] });
    },
    async list() {
      return [...webhooks.values()].map((webhook) => {
        const last = ofWebhook(webhook.id).sort((a, b) => b.delivery.seq - a.delivery.seq)[0];
        return { webhook, last: last && { ...last.delivery } };
      });
    },
    async byId(id) {
      return webhooks.get(id);
    },
    async remove(id) {
      for (const row of ofWebhook(id)) deliveries.delete(row.delivery.id);
      return webhooks.delete(id);
    },
    async enqueue(webhookId, from, to, added, now) {
      const webhook = webhooks.get(webhookId);
      if (!webhook || webhook.cursor !== from) return false;
      const seqs = new Set(ofWebhook(webhookId).map((row) => row.delivery.seq));
      for (const delivery of added) {
        if (seqs.has(delivery.seq)) continue;
        seqs.add(delivery.seq);
        deliveries.set(delivery.id, {
          delivery: {
            id: delivery.id, webhookId, seq: delivery.seq, initid: delivery.initid, type: delivery.type, status: "pending", attempts: 0,
            since: now, nextAttemptAt: now, lastStatusCode: null, lastError: null, createdAt: now, updatedAt: now, deliveredAt: null,
          },
          body: delivery.body, leaseOwner: null, leaseUntil: null, attempts: [],
        });
      }
      webhooks.set(webhookId, { ...webhook, cursor: to });
      return true;
    },
    async claim({ node, now, leaseUntil, limit }) {
      const pending = [...deliveries.values()].filter((row) => row.delivery.status === "pending");
      // The first pending delivery of each element, per webhook: later ones wait for it.
      const first = new Map<string, number>();
      for (const row of pending) {
        const key = `${row.delivery.webhookId}\u0000${row.delivery.initid}`;
        first.set(key, Math.min(first.get(key) ?? Infinity, row.delivery.seq));
      }
      const due = pending
        .filter((row) => row.delivery.nextAttemptAt <= now && (row.leaseUntil === null || row.leaseUntil <= now)
          && webhooks.get(row.delivery.webhookId)?.disabledAt === null
          && first.get(`${row.delivery.webhookId}\u0000${row.delivery.initid}`) === row.delivery.seq)
        .sort((a, b) => a.delivery.nextAttemptAt - b.delivery.nextAttemptAt || a.delivery.seq - b.delivery.seq)
        .slice(0, limit);
      return due.map((row) => {
        for (const open of row.attempts) if (open.endedAt === null) Object.assign(open, { endedAt: now, error: ABANDONED_ATTEMPT });
        const attempt = row.delivery.attempts + 1;
        update(row, { attempts: attempt, updatedAt: now });
        row.leaseOwner = node;
        row.leaseUntil = leaseUntil;
        row.attempts.push({ attempt, node, startedAt: now, endedAt: null, statusCode: null, error: null });
        const webhook = webhooks.get(row.delivery.webhookId)!;
        return { id: row.delivery.id, webhookId: webhook.id, url: webhook.url, secret: webhook.secret, seq: row.delivery.seq, body: row.body, attempt, since: row.delivery.since };
      });
    },
    async settle(deliveryId, attempt, node, settlement) {
      const row = deliveries.get(deliveryId);
      if (!row) return false;
      const tried = row.attempts.find((a) => a.attempt === attempt);
      if (tried) Object.assign(tried, { endedAt: settlement.at, statusCode: settlement.statusCode, error: settlement.error });
      if (row.leaseOwner !== node || row.delivery.status !== "pending") return false;
      update(row, {
        status: settlement.status, nextAttemptAt: settlement.nextAttemptAt, lastStatusCode: settlement.statusCode, lastError: settlement.error,
        updatedAt: settlement.at, deliveredAt: settlement.status === "delivered" ? settlement.at : row.delivery.deliveredAt,
      });
      row.leaseOwner = null;
      row.leaseUntil = null;
      const webhook = webhooks.get(row.delivery.webhookId);
      if (webhook) {
        webhooks.set(webhook.id, {
          ...webhook,
          failingSince: settlement.status === "delivered" ? null : (webhook.failingSince ?? settlement.at),
          disabledAt: settlement.status === "failed" ? settlement.at : webhook.disabledAt,
        });
      }
      return true;
    },
    async deliveries(webhookId, limit) {
      return ofWebhook(webhookId).sort((a, b) => b.delivery.seq - a.delivery.seq).slice(0, limit).map(withAttempts);
    },
    async delivery(webhookId, deliveryId) {
      const row = deliveries.get(deliveryId);
      return row && row.delivery.webhookId === webhookId ? withAttempts(row) : undefined;
    },
    async retry(webhookId, deliveryId, now) {
      const row = deliveries.get(deliveryId);
      const webhook = webhooks.get(webhookId);
      if (!row || !webhook || row.delivery.webhookId !== webhookId) return false;
      update(row, { status: "pending", nextAttemptAt: now, since: now, updatedAt: now });
      row.leaseOwner = null;
      row.leaseUntil = null;
      webhooks.set(webhookId, { ...webhook, disabledAt: null });
      return true;
    },
    async settleAll(node, settlements) {
      const done: boolean[] = [];
      for (const { deliveryId, attempt, settlement } of settlements) done.push(await repository.settle(deliveryId, attempt, node, settlement));
      return done;
    },
  };
  return repository;
}
