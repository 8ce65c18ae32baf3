import { statement, type SqlClient } from "./sql-client.ts";

/**
 * The first key of a write transaction's hold (an advisory lock shared by every writer, so never
 * waited for): keys from it up to HOLD_BASE + 65535 carry the high part of the number held, the
 * second key its low 31 bits. lineage_horizon() (migration 0013) reads the holds back from pg_locks.
 */
const HOLD_BASE = 1279852544;

/**
 * Taken as a write transaction begins, before it takes any number from lineage_seq: its hold,
 * keyed by the last number given so far, so that every number it takes later is above its key. A
 * reader's horizon never passes the key of a transaction still running (lineage_horizon()), so it
 * never passes a number that transaction may yet commit. Shared: writers never wait for each other here.
 */
export const HOLD = `select pg_advisory_xact_lock_shared(${HOLD_BASE} + (given / 2147483648)::int, (given % 2147483648)::int)
  from (select case when is_called then last_value else last_value - 1 end as given from lineage_seq) as seq`;

/**
 * Sent with COMMIT, last in the transaction: its number in the change clock's commits, one row per
 * connection, so that the clock moves with every commit (change-clocks.ts).
 */
export const RECORD_COMMIT = `insert into lineage_commits (slot, seq) values (pg_backend_pid(), nextval('lineage_seq'))
  on conflict (slot) do update set seq = excluded.seq`;

const HORIZON = statement("select lineage_horizon()::float8");

/**
 * The horizon: every number of lineage_seq up to it that will ever be committed is committed now.
 * A read of the numbered rows up to it must be a later statement, outside any snapshot taken
 * before (a repeatable-read snapshot would miss what committed meanwhile).
 */
export async function readHorizon(sql: SqlClient): Promise<number> {
  const [row] = await sql.rows(HORIZON);
  return row![0] as number;
}
