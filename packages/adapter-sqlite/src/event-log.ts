import type { Database, Statement } from "better-sqlite3";
import type { ElementEvent, EventLog, EventLogFilter, NewEvent } from "@lineage/core";

/**
 * The event log (schema-events.ts) over prepared statements; the read statements of each filter's
 * shape are kept once made. `appended` is called at each append (the store wakes its watchers once
 * the transaction commits).
 */
export function createEventLog(client: Database, appended: () => void = () => {}): EventLog {
  // Writers hold SQLite's write lock from BEGIN IMMEDIATE to COMMIT: AUTOINCREMENT numbers come in commit order.
  const insert = client.prepare("insert into events (time, type, initid, structure, body) values (?, ?, ?, ?, ?) returning seq").pluck();
  const pruned = client.prepare("select coalesce((select seq from events_pruned where id = 1), 0)").pluck();
  const last = client.prepare(
    "select max(coalesce((select max(seq) from events), 0), coalesce((select seq from events_pruned where id = 1), 0))",
  ).pluck();
  // The log in seq order up to the first event not older than the time: what a prune removes is a prefix.
  const firstKept = client.prepare("select seq from events where time >= ? order by seq limit 1").pluck();
  const lastOfAll = client.prepare("select max(seq) from events").pluck();
  const remove = client.prepare("delete from events where seq <= ?");
  const markPruned = client.prepare(
    "insert into events_pruned (id, seq) values (1, ?) on conflict(id) do update set seq = max(seq, excluded.seq)",
  );
  const reads = new Map<string, Statement>();

  /** The statement reading after a seq for a filter of this shape (how many types and structures). */
  function readStatement(types: number | undefined, structures: number | undefined, initids: number | undefined): Statement {
    const key = `${types ?? "-"}:${structures ?? "-"}:${initids ?? "-"}`;
    let statement = reads.get(key);
    if (!statement) {
      const list = (n: number) => Array.from({ length: n }, () => "?").join(",");
      const conditions = ["seq > ?"];
      if (types !== undefined) conditions.push(`type in (${list(types)})`);
      if (structures !== undefined) conditions.push(`structure in (${list(structures)})`);
      if (initids !== undefined) conditions.push(`initid in (${list(initids)})`);
      statement = client.prepare(`select seq, body from events where ${conditions.join(" and ")} order by seq limit ?`);
      reads.set(key, statement);
    }
    return statement;
  }

  const parse = (row: unknown): ElementEvent => {
    const { seq, body } = row as { seq: number; body: string };
    return { seq, ...(JSON.parse(body) as NewEvent) };
  };

  return {
    async append(event) {
      const seq = insert.get(event.time, event.type, event.initid, event.structure, JSON.stringify(event)) as number;
      appended();
      return { seq, ...event };
    },
    async after(seq, limit, filter: EventLogFilter = {}) {
      const { types, structures, initids } = filter;
      if (types?.length === 0 || structures?.length === 0 || initids?.length === 0) return [];
      const statement = readStatement(types?.length, structures?.length, initids?.length);
      return statement.all(seq, ...(types ?? []), ...(structures ?? []), ...(initids ?? []), Math.min(limit, Number.MAX_SAFE_INTEGER)).map(parse);
    },
    async lastSeq() {
      return last.get() as number;
    },
    async oldestSeq() {
      return (pruned.get() as number) + 1;
    },
    async prune(before) {
      const kept = firstKept.get(before) as number | undefined;
      const cut = kept === undefined ? (lastOfAll.get() as number | null) : kept - 1;
      if (cut === null || cut <= (pruned.get() as number)) return 0;
      const removed = remove.run(cut).changes;
      markPruned.run(cut);
      return removed;
    },
  };
}
