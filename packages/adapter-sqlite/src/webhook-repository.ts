import type { Database } from "better-sqlite3";
import type { ClaimedDelivery, DeliveryAttempt, DeliverySettlement, DeliveryWithAttempts, Webhook, WebhookDelivery, WebhookRepository } from "@lineage/core";

/** Runs `fn` on the write connection inside a write transaction of its own, in the store's turn. */
export type WriteTurn = <T>(fn: () => T) => Promise<T>;

/** The message of an attempt whose node stopped holding its lease before it said how it went. */
const ABANDONED = "abandoned: the node sending it stopped before it finished (lease expired)";

const WEBHOOK_COLUMNS = "id, url, types, structures, description, secret, created_at, cursor, failing_since, disabled_at";
const DELIVERY_COLUMNS =
  "id, webhook_id, seq, initid, type, status, attempts, since, next_attempt_at, last_status_code, last_error, created_at, updated_at, delivered_at";

/**
 * Webhooks and deliveries (schema-webhooks.ts): reads on the read connection, writes on the write
 * connection in the store's turn (`write`), each method one transaction, so that every process
 * sharing the file sees each claim whole.
 */
export function createWebhookRepository(writer: Database, reader: Database, write: WriteTurn): WebhookRepository {
  const insertWebhook = writer.prepare(`insert into webhooks (${WEBHOOK_COLUMNS}) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const allWebhooks = reader.prepare(`select ${WEBHOOK_COLUMNS} from webhooks order by created_at, id`);
  const lastOf = reader.prepare(`select ${DELIVERY_COLUMNS} from webhook_deliveries where webhook_id = ? order by seq desc limit 1`);
  const webhookById = reader.prepare(`select ${WEBHOOK_COLUMNS} from webhooks where id = ?`);
  const removeWebhook = writer.prepare("delete from webhooks where id = ?");
  const moveCursor = writer.prepare("update webhooks set cursor = ? where id = ? and cursor = ?");
  const insertDelivery = writer.prepare(
    `insert into webhook_deliveries (id, webhook_id, seq, initid, type, body, status, attempts, since, next_attempt_at, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?, ?) on conflict (webhook_id, seq) do nothing`,
  );
  const due = writer.prepare(
    `select d.id from webhook_deliveries d join webhooks w on w.id = d.webhook_id
     where d.status = 'pending' and d.next_attempt_at <= @now and (d.lease_until is null or d.lease_until <= @now) and w.disabled_at is null
       and not exists (select 1 from webhook_deliveries p
                       where p.webhook_id = d.webhook_id and p.initid = d.initid and p.status = 'pending' and p.seq < d.seq)
     order by d.next_attempt_at, d.seq limit @limit`,
  ).pluck();
  const closeAbandoned = writer.prepare("update webhook_attempts set ended_at = ?, error = ? where delivery_id = ? and ended_at is null");
  const lease = writer.prepare(
    `update webhook_deliveries set attempts = attempts + 1, lease_owner = ?, lease_until = ?, updated_at = ? where id = ?
     returning id, webhook_id, seq, body, attempts, since`,
  );
  const insertAttempt = writer.prepare("insert into webhook_attempts (delivery_id, attempt, node, started_at) values (?, ?, ?, ?)");
  const urlAndSecret = writer.prepare("select url, secret from webhooks where id = ?");
  const endAttempt = writer.prepare("update webhook_attempts set ended_at = ?, status_code = ?, error = ? where delivery_id = ? and attempt = ?");
  const settleDelivery = writer.prepare(
    `update webhook_deliveries set status = @status, next_attempt_at = @next, last_status_code = @code, last_error = @error, updated_at = @at,
       delivered_at = case when @status = 'delivered' then @at else delivered_at end, lease_owner = null, lease_until = null
     where id = @id and lease_owner = @node and status = 'pending' returning webhook_id`,
  ).pluck();
  const markWebhook = writer.prepare(
    `update webhooks set failing_since = case when @status = 'delivered' then null else coalesce(failing_since, @at) end,
       disabled_at = case when @status = 'failed' then @at else disabled_at end where id = @id`,
  );
  const deliveriesOf = reader.prepare(`select ${DELIVERY_COLUMNS} from webhook_deliveries where webhook_id = ? order by seq desc limit ?`);
  const deliveryById = reader.prepare(`select ${DELIVERY_COLUMNS} from webhook_deliveries where webhook_id = ? and id = ?`);
  const attemptsOf = reader.prepare(
    "select attempt, node, started_at, ended_at, status_code, error from webhook_attempts where delivery_id = ? order by attempt",
  );
  const retryDelivery = writer.prepare(
    `update webhook_deliveries set status = 'pending', next_attempt_at = @now, since = @now, updated_at = @now, lease_owner = null, lease_until = null
     where id = @id and webhook_id = @webhook`,
  );
  const enable = writer.prepare("update webhooks set disabled_at = null where id = ?");

  /** One attempt's end, inside the caller's write. */
  const settleOne = (deliveryId: string, attempt: number, node: string, s: DeliverySettlement): boolean => {
    endAttempt.run(s.at, s.statusCode, s.error, deliveryId, attempt);
    const webhookId = settleDelivery.get({ id: deliveryId, node, status: s.status, next: s.nextAttemptAt, code: s.statusCode, error: s.error, at: s.at }) as string | undefined;
    if (webhookId === undefined) return false;
    markWebhook.run({ id: webhookId, status: s.status, at: s.at });
    return true;
  };

  const withAttempts = (row: unknown): DeliveryWithAttempts => {
    const delivery = toDelivery(row);
    return { ...delivery, attemptLog: attemptsOf.all(delivery.id).map(toAttempt) };
  };

  return {
    create: (w) => write(() => {
      insertWebhook.run(w.id, w.url, JSON.stringify(w.types), JSON.stringify(w.structures), w.description, w.secret, w.createdAt, w.cursor, w.failingSince, w.disabledAt);
    }),
    async list() {
      return allWebhooks.all().map((row) => {
        const webhook = toWebhook(row);
        const last = lastOf.get(webhook.id);
        return { webhook, last: last === undefined ? undefined : toDelivery(last) };
      });
    },
    async byId(id) {
      const row = webhookById.get(id);
      return row === undefined ? undefined : toWebhook(row);
    },
    remove: (id) => write(() => removeWebhook.run(id).changes > 0),
    enqueue: (webhookId, from, to, deliveries, now) => write(() => {
      if (moveCursor.run(to, webhookId, from).changes === 0) return false;
      for (const d of deliveries) insertDelivery.run(d.id, webhookId, d.seq, d.initid, d.type, d.body, now, now, now, now);
      return true;
    }),
    claim: ({ node, now, leaseUntil, limit }) => write(() => {
      const claimed: ClaimedDelivery[] = [];
      for (const id of due.all({ now, limit }) as string[]) {
        closeAbandoned.run(now, ABANDONED, id);
        const row = lease.get(node, leaseUntil, now, id) as { id: string; webhook_id: string; seq: number; body: string; attempts: number; since: number };
        insertAttempt.run(id, row.attempts, node, now);
        const { url, secret } = urlAndSecret.get(row.webhook_id) as { url: string; secret: string };
        claimed.push({ id, webhookId: row.webhook_id, url, secret, seq: row.seq, body: row.body, attempt: row.attempts, since: row.since });
      }
      return claimed;
    }),
    settle: (deliveryId, attempt, node, s) => write(() => settleOne(deliveryId, attempt, node, s)),
    // One transaction for them all: one commit (and one sync to disk) however many attempts ended.
    settleAll: (node, settlements) => write(() => settlements.map((one) => settleOne(one.deliveryId, one.attempt, node, one.settlement))),
    async deliveries(webhookId, limit) {
      return deliveriesOf.all(webhookId, limit).map(withAttempts);
    },
    async delivery(webhookId, deliveryId) {
      const row = deliveryById.get(webhookId, deliveryId);
      return row === undefined ? undefined : withAttempts(row);
    },
    retry: (webhookId, deliveryId, now) => write(() => {
      if (retryDelivery.run({ now, id: deliveryId, webhook: webhookId }).changes === 0) return false;
      enable.run(webhookId);
      return true;
    }),
  };
}

function toWebhook(row: unknown): Webhook {
  const r = row as Record<string, unknown>;
  return {
    id: r.id as string, url: r.url as string, types: JSON.parse(r.types as string), structures: JSON.parse(r.structures as string),
    description: r.description as string, secret: r.secret as string, createdAt: r.created_at as number, cursor: r.cursor as number,
    failingSince: r.failing_since as number | null, disabledAt: r.disabled_at as number | null,
  };
}

function toDelivery(row: unknown): WebhookDelivery {
  const r = row as Record<string, unknown>;
  return {
    id: r.id as string, webhookId: r.webhook_id as string, seq: r.seq as number, initid: r.initid as number, type: r.type as WebhookDelivery["type"],
    status: r.status as WebhookDelivery["status"], attempts: r.attempts as number, since: r.since as number, nextAttemptAt: r.next_attempt_at as number,
    lastStatusCode: r.last_status_code as number | null, lastError: r.last_error as string | null, createdAt: r.created_at as number,
    updatedAt: r.updated_at as number, deliveredAt: r.delivered_at as number | null,
  };
}

function toAttempt(row: unknown): DeliveryAttempt {
  const r = row as Record<string, unknown>;
  return {
    attempt: r.attempt as number, node: r.node as string, startedAt: r.started_at as number, endedAt: r.ended_at as number | null,
    statusCode: r.status_code as number | null, error: r.error as string | null,
  };
}
