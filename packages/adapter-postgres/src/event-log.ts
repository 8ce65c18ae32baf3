import type { ElementEvent, EventLog, EventLogFilter, NewEvent } from "@lineage/core";
import { readHorizon } from "./change-horizon.ts";
import { statement, type SqlClient } from "./sql-client.ts";

// Numbers from lineage_seq, taken without waiting for any other writer: readers read only up to
// the horizon (change-horizon.ts), below which every number that will be committed is, so they
// meet the events in seq order and never a smaller seq after a larger one (schema.ts, lineageSeq).
const APPEND = statement(
  "insert into events (seq, time, type, initid, structure, body) values (nextval('lineage_seq'), $1, $2, $3, $4, $5) returning seq::float8",
);
const AFTER = statement(
  `select seq::float8, body from events
   where seq > $1 and seq <= $5 and ($2::text[] is null or type = any($2)) and ($3::text[] is null or structure = any($3))
   order by seq limit $4`,
);
// An element's events apart: its own index (initid, seq), not the log's order.
const AFTER_OF_ELEMENTS = statement(
  `select seq::float8, body from events
   where initid = any($6::int[]) and seq > $1 and seq <= $5 and ($2::text[] is null or type = any($2)) and ($3::text[] is null or structure = any($3))
   order by seq limit $4`,
);
// Beyond the horizon: committed, with numbers a running transaction may still commit below.
const BEYOND = statement("select seq::float8, body from events where seq > $1::float8 and seq > $3::float8 order by seq limit $2");
const PRUNED = statement("select coalesce((select seq from events_pruned where id = 1), 0)::float8");
const LAST = statement(
  "select greatest(coalesce((select max(seq) from events where seq <= $1), 0), coalesce((select seq from events_pruned where id = 1), 0))::float8",
);
// The same up to the horizon, both in one round trip (migration 0019).
const LAST_COMMITTED = statement("select lineage_last_event_seq()");
// The log in seq order up to the first event not older than the time: what a prune removes is a prefix.
const FIRST_KEPT = statement(`select seq::float8 from events where seq <= $2 and time >= $1 collate "C" order by seq limit 1`);
const LAST_OF_ALL = statement("select max(seq)::float8 from events where seq <= $1");
// Numbers are shared with other logs (schema.ts, lineageSeq): the event before another is not always its seq minus one.
const LAST_BEFORE = statement("select max(seq)::float8 from events where seq < $1");
const REMOVE = statement("delete from events where seq <= $1");
const MARK_PRUNED = statement(
  "insert into events_pruned (id, seq) values (1, $1) on conflict (id) do update set seq = greatest(events_pruned.seq, excluded.seq)",
);

/** The event log (schema.ts), shared by every node; `appended` is called at each append. */
export function createEventLog(sql: SqlClient, appended: () => void = () => {}, inTransaction = false): EventLog {
  // A transaction reads its own numbers too, and what is committed, in no order promised to anyone else.
  const horizon = () => (inTransaction ? Promise.resolve(Number.MAX_SAFE_INTEGER) : readHorizon(sql));
  const pruned = async () => (await sql.rows(PRUNED))[0]![0] as number;
  return {
    async append(event) {
      const [row] = await sql.rows(APPEND, [event.time, event.type, event.initid, event.structure, JSON.stringify(event)]);
      appended();
      return { seq: row![0] as number, ...event };
    },
    async after(seq, limit, filter: EventLogFilter = {}) {
      const { types, structures, initids } = filter;
      if (types?.length === 0 || structures?.length === 0 || initids?.length === 0) return [];
      const upTo = await horizon();
      const parameters = [seq, types ?? null, structures ?? null, Number.isFinite(limit) ? limit : null, upTo];
      const rows = initids ? await sql.rows(AFTER_OF_ELEMENTS, [...parameters, initids]) : await sql.rows(AFTER, parameters);
      return rows.map(([n, body]): ElementEvent => ({ seq: n as number, ...(body as NewEvent) }));
    },
    async beyond(seq, limit) {
      if (inTransaction) return [];
      const upTo = await horizon();
      const rows = await sql.rows(BEYOND, [seq, Number.isFinite(limit) ? limit : null, upTo]);
      return rows.map(([n, body]): ElementEvent => ({ seq: n as number, ...(body as NewEvent) }));
    },
    async lastSeq() {
      if (!inTransaction) return (await sql.rows(LAST_COMMITTED))[0]![0] as number;
      return (await sql.rows(LAST, [await horizon()]))[0]![0] as number;
    },
    async oldestSeq() {
      return (await pruned()) + 1;
    },
    async prune(before) {
      // Up to the horizon only: an event a running transaction may still commit below it stays.
      const upTo = await horizon();
      const [kept] = await sql.rows(FIRST_KEPT, [before, upTo]);
      const [last] = kept ? await sql.rows(LAST_BEFORE, [kept[0]]) : await sql.rows(LAST_OF_ALL, [upTo]);
      const cut = last![0] as number | null;
      if (cut === null || cut <= (await pruned())) return 0;
      const removed = await sql.run(REMOVE, [cut]);
      await sql.run(MARK_PRUNED, [cut]);
      return removed;
    },
  };
}
