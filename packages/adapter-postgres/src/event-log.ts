import type { ElementEvent, EventLog, EventLogFilter, NewEvent } from "@lineage/core";
import { statement, type SqlClient } from "./sql-client.ts";

// The writer holds the clock row from its BEGIN to its commit (write-transactions.ts), as every
// write transaction of every node does: numbers taken here come in commit order (schema.ts, eventSeq).
const APPEND = statement(
  "insert into events (seq, time, type, initid, structure, body) values (nextval('event_seq'), $1, $2, $3, $4, $5) returning seq::float8",
);
const AFTER = statement(
  `select seq::float8, body from events
   where seq > $1 and ($2::text[] is null or type = any($2)) and ($3::text[] is null or structure = any($3))
   order by seq limit $4`,
);
// An element's events apart: its own index (initid, seq), not the log's order.
const AFTER_OF_ELEMENTS = statement(
  `select seq::float8, body from events
   where initid = any($5::int[]) and seq > $1 and ($2::text[] is null or type = any($2)) and ($3::text[] is null or structure = any($3))
   order by seq limit $4`,
);
const PRUNED = statement("select coalesce((select seq from events_pruned where id = 1), 0)::float8");
const LAST = statement(
  "select greatest(coalesce((select max(seq) from events), 0), coalesce((select seq from events_pruned where id = 1), 0))::float8",
);
// The log in seq order up to the first event not older than the time: what a prune removes is a prefix.
const FIRST_KEPT = statement(`select seq::float8 from events where time >= $1 collate "C" order by seq limit 1`);
const LAST_OF_ALL = statement("select max(seq)::float8 from events");
const REMOVE = statement("delete from events where seq <= $1");
const MARK_PRUNED = statement(
  "insert into events_pruned (id, seq) values (1, $1) on conflict (id) do update set seq = greatest(events_pruned.seq, excluded.seq)",
);

/** The event log (schema.ts), shared by every node; `appended` is called at each append. */
export function createEventLog(sql: SqlClient, appended: () => void = () => {}): EventLog {
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
      const parameters = [seq, types ?? null, structures ?? null, Number.isFinite(limit) ? limit : null];
      const rows = initids ? await sql.rows(AFTER_OF_ELEMENTS, [...parameters, initids]) : await sql.rows(AFTER, parameters);
      return rows.map(([n, body]): ElementEvent => ({ seq: n as number, ...(body as NewEvent) }));
    },
    async lastSeq() {
      return (await sql.rows(LAST))[0]![0] as number;
    },
    async oldestSeq() {
      return (await pruned()) + 1;
    },
    async prune(before) {
      const [kept] = await sql.rows(FIRST_KEPT, [before]);
      const cut = kept ? (kept[0] as number) - 1 : ((await sql.rows(LAST_OF_ALL))[0]![0] as number | null);
      if (cut === null || cut <= (await pruned())) return 0;
      const removed = await sql.run(REMOVE, [cut]);
      await sql.run(MARK_PRUNED, [cut]);
      return removed;
    },
  };
}
