import type { DeliverySettlement, DeliveryAttempt, DeliveryWithAttempts, Webhook, WebhookDelivery, WebhookRepository } from "@lineage/core";
import { statement, type SqlClient } from "./sql-client.ts";

/** The message of an attempt whose node stopped holding its lease before it said how it went. */
const ABANDONED = "abandoned: the node sending it stopped before it finished (lease expired)";

const WEBHOOK = `id, url, types, structures, description, secret, created_at::float8, cursor::float8, failing_since::float8, disabled_at::float8`;
const delivery = (t: string) =>
  `${t}.id, ${t}.webhook_id, ${t}.seq::float8, ${t}.initid, ${t}.type, ${t}.status, ${t}.attempts, ${t}.since::float8, ${t}.next_attempt_at::float8,
   ${t}.last_status_code, ${t}.last_error, ${t}.created_at::float8, ${t}.updated_at::float8, ${t}.delivered_at::float8`;
const DELIVERY_WIDTH = 14;

const CREATE = statement(
  "insert into webhooks (id, url, types, structures, description, secret, created_at, cursor, failing_since, disabled_at) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
);
const LIST = statement(
  `select ${WEBHOOK.split(", ").map((c) => `w.${c}`).join(", ")}, ${delivery("d")} from webhooks w
   left join lateral (select * from webhook_deliveries x where x.webhook_id = w.id order by x.seq desc limit 1) d on true
   order by w.created_at, w.id`,
);
const BY_ID = statement(`select ${WEBHOOK} from webhooks where id = $1`);
const REMOVE = statement("delete from webhooks where id = $1");
// The cursor moves once from a given seq; the deliveries go in only with that move, in the same statement.
const ENQUEUE = statement(
  `with moved as (update webhooks set cursor = $3 where id = $1 and cursor = $2 returning id),
   added as (
     insert into webhook_deliveries (id, webhook_id, seq, initid, type, body, status, attempts, since, next_attempt_at, created_at, updated_at)
     select d.id, moved.id, d.seq, d.initid, d.type, d.body, 'pending', 0, $5, $5, $5, $5
     from moved, json_to_recordset($4::json) as d(id text, seq bigint, initid integer, type text, body text)
     on conflict (webhook_id, seq) do nothing
   )
   select count(*)::int from moved`,
);
// SKIP LOCKED: a delivery another node is claiming at this moment is left to it, never waited for nor taken twice.
// An earlier pending delivery of the same element, leased or not, holds the later ones back.
const CLAIM = statement(
  `with due as (
     select d.id from webhook_deliveries d join webhooks w on w.id = d.webhook_id
     where d.status = 'pending' and d.next_attempt_at <= $2 and (d.lease_until is null or d.lease_until <= $2) and w.disabled_at is null
       and not exists (select 1 from webhook_deliveries p
                       where p.webhook_id = d.webhook_id and p.initid = d.initid and p.status = 'pending' and p.seq < d.seq)
     order by d.next_attempt_at, d.seq limit $4
     for update of d skip locked
   ),
   leased as (
     update webhook_deliveries d set attempts = d.attempts + 1, lease_owner = $1, lease_until = $3, updated_at = $2
     from due where d.id = due.id
     returning d.id, d.webhook_id, d.seq, d.body, d.attempts, d.since, d.next_attempt_at
   ),
   abandoned as (
     update webhook_attempts a set ended_at = $2, error = $5 from leased where a.delivery_id = leased.id and a.ended_at is null
   ),
   started as (
     insert into webhook_attempts (delivery_id, attempt, node, started_at) select id, attempts, $1, $2 from leased
   )
   select leased.id, leased.webhook_id, w.url, w.secret, leased.seq::float8, leased.body, leased.attempts, leased.since::float8
   from leased join webhooks w on w.id = leased.webhook_id
   order by leased.next_attempt_at, leased.seq`,
);
const SETTLE = statement(
  `with ended as (
     update webhook_attempts set ended_at = $7, status_code = $5, error = $6 where delivery_id = $1 and attempt = $8
   ),
   settled as (
     update webhook_deliveries set status = $3, next_attempt_at = $4, last_status_code = $5, last_error = $6, updated_at = $7,
       delivered_at = case when $3 = 'delivered' then $7 else delivered_at end, lease_owner = null, lease_until = null
     where id = $1 and lease_owner = $2 and status = 'pending' returning webhook_id
   ),
   marked as (
     update webhooks set failing_since = case when $3 = 'delivered' then null else coalesce(failing_since, $7) end,
       disabled_at = case when $3 = 'failed' then $7 else disabled_at end
     where id in (select webhook_id from settled)
   )
   select count(*)::int from settled`,
);
// SETTLE for many attempts in one statement, so one commit. A webhook settled several times ends as
// the same settlements one after the other would leave it: failing since the first failure after
// its last delivery of the batch (none after it: not failing), disabled at its last failure for good.
const SETTLE_ALL = statement(
  `with input as (
     select * from json_to_recordset($2::json) as s(n int, id text, attempt int, status text, next float8, code int, error text, at float8)
   ),
   ended as (
     update webhook_attempts a set ended_at = s.at, status_code = s.code, error = s.error from input s where a.delivery_id = s.id and a.attempt = s.attempt
   ),
   settled as (
     update webhook_deliveries d set status = s.status, next_attempt_at = s.next, last_status_code = s.code, last_error = s.error, updated_at = s.at,
       delivered_at = case when s.status = 'delivered' then s.at else d.delivered_at end, lease_owner = null, lease_until = null
     from input s where d.id = s.id and d.lease_owner = $1 and d.status = 'pending'
     returning s.n, d.webhook_id, s.status, s.at
   ),
   last_delivered as (
     select webhook_id, max(n) filter (where status = 'delivered') as n from settled group by webhook_id
   ),
   summary as (
     select s.webhook_id, l.n as delivered_n,
       (array_agg(s.at order by s.n) filter (where s.status <> 'delivered' and s.n > coalesce(l.n, -1)))[1] as failing_from,
       (array_agg(s.at order by s.n desc) filter (where s.status = 'failed'))[1] as disabled_at
     from settled s join last_delivered l on l.webhook_id = s.webhook_id group by s.webhook_id, l.n
   ),
   marked as (
     update webhooks w set
       failing_since = case when m.delivered_n is null then coalesce(w.failing_since, m.failing_from) else m.failing_from end,
       disabled_at = coalesce(m.disabled_at, w.disabled_at)
     from summary m where w.id = m.webhook_id
   )
   select n from settled`,
);
const DELIVERIES = statement(`select ${delivery("d")} from webhook_deliveries d where d.webhook_id = $1 order by d.seq desc limit $2`);
const DELIVERY = statement(`select ${delivery("d")} from webhook_deliveries d where d.webhook_id = $1 and d.id = $2`);
const ATTEMPTS = statement(
  `select delivery_id, attempt, node, started_at::float8, ended_at::float8, status_code, error from webhook_attempts
   where delivery_id = any($1) order by delivery_id, attempt`,
);
const RETRY = statement(
  `with retried as (
     update webhook_deliveries set status = 'pending', next_attempt_at = $3, since = $3, updated_at = $3, lease_owner = null, lease_until = null
     where id = $2 and webhook_id = $1 returning webhook_id
   ),
   enabled as (update webhooks set disabled_at = null where id in (select webhook_id from retried))
   select count(*)::int from retried`,
);

/**
 * Webhooks and deliveries in PostgreSQL, shared by every node: each method is one statement on the
 * pool, atomic on its own, and none takes the clock row, so deliveries never wait for element writes
 * nor move the change clock.
 */
export function createWebhookRepository(sql: SqlClient): WebhookRepository {
  const count = async (s: typeof CREATE, values: unknown[]) => ((await sql.rows(s, values))[0]![0] as number) > 0;
  const withAttempts = async (rows: unknown[][]): Promise<DeliveryWithAttempts[]> => {
    const deliveries = rows.map((row) => toDelivery(row));
    if (deliveries.length === 0) return [];
    const attempts = new Map<string, DeliveryAttempt[]>();
    for (const row of await sql.rows(ATTEMPTS, [deliveries.map((d) => d.id)])) {
      const list = attempts.get(row[0] as string) ?? [];
      list.push({
        attempt: row[1] as number, node: row[2] as string, startedAt: row[3] as number, endedAt: row[4] as number | null,
        statusCode: row[5] as number | null, error: row[6] as string | null,
      });
      attempts.set(row[0] as string, list);
    }
    return deliveries.map((d) => ({ ...d, attemptLog: attempts.get(d.id) ?? [] }));
  };
  const settle = (deliveryId: string, attempt: number, node: string, s: DeliverySettlement) =>
    count(SETTLE, [deliveryId, node, s.status, s.nextAttemptAt, s.statusCode, s.error, s.at, attempt]);
  return {
    async create(w) {
      await sql.run(CREATE, [w.id, w.url, JSON.stringify(w.types), JSON.stringify(w.structures), w.description, w.secret, w.createdAt, w.cursor, w.failingSince, w.disabledAt]);
    },
    async list() {
      return (await sql.rows(LIST)).map((row) => ({
        webhook: toWebhook(row),
        last: row[10] === null ? undefined : toDelivery(row.slice(10, 10 + DELIVERY_WIDTH)),
      }));
    },
    async byId(id) {
      const [row] = await sql.rows(BY_ID, [id]);
      return row && toWebhook(row);
    },
    async remove(id) {
      return (await sql.run(REMOVE, [id])) > 0;
    },
    enqueue: (webhookId, from, to, deliveries, now) => count(ENQUEUE, [webhookId, from, to, JSON.stringify(deliveries), now]),
    async claim({ node, now, leaseUntil, limit }) {
      return (await sql.rows(CLAIM, [node, now, leaseUntil, limit, ABANDONED])).map((row) => ({
        id: row[0] as string, webhookId: row[1] as string, url: row[2] as string, secret: row[3] as string, seq: row[4] as number,
        body: row[5] as string, attempt: row[6] as number, since: row[7] as number,
      }));
    },
    settle,
    async settleAll(node, settlements) {
      if (settlements.length === 0) return [];
      const input = settlements.map(({ deliveryId, attempt, settlement: s }, n) => ({
        n, id: deliveryId, attempt, status: s.status, next: s.nextAttemptAt, code: s.statusCode, error: s.error, at: s.at,
      }));
      const settled = new Set((await sql.rows(SETTLE_ALL, [node, JSON.stringify(input)])).map((row) => row[0] as number));
      return settlements.map((_, n) => settled.has(n));
    },
    async deliveries(webhookId, limit) {
      return withAttempts(await sql.rows(DELIVERIES, [webhookId, limit]));
    },
    async delivery(webhookId, deliveryId) {
      return (await withAttempts(await sql.rows(DELIVERY, [webhookId, deliveryId])))[0];
    },
    retry: (webhookId, deliveryId, now) => count(RETRY, [webhookId, deliveryId, now]),
  };
}

function toWebhook(row: unknown[]): Webhook {
  return {
    id: row[0] as string, url: row[1] as string, types: row[2] as Webhook["types"], structures: row[3] as string[], description: row[4] as string,
    secret: row[5] as string, createdAt: row[6] as number, cursor: row[7] as number, failingSince: row[8] as number | null, disabledAt: row[9] as number | null,
  };
}

function toDelivery(row: unknown[]): WebhookDelivery {
  return {
    id: row[0] as string, webhookId: row[1] as string, seq: row[2] as number, initid: row[3] as number, type: row[4] as WebhookDelivery["type"],
    status: row[5] as WebhookDelivery["status"], attempts: row[6] as number, since: row[7] as number, nextAttemptAt: row[8] as number,
    lastStatusCode: row[9] as number | null, lastError: row[10] as string | null, createdAt: row[11] as number, updatedAt: row[12] as number,
    deliveredAt: row[13] as number | null,
  };
}
