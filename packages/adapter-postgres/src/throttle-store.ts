import type { ThrottleRecord, ThrottleStore } from "@lineage/core";
import { statement, type SqlClient } from "./sql-client.ts";

const READ = statement("select key, failures, last_failure_at::float8 from login_failures where key = any($1::text[]) and last_failure_at >= $2");
// One upsert per key, counted under the row's lock: failures counted at once on several nodes all count.
const FAIL = statement(
  `insert into login_failures (key, failures, last_failure_at) select k, 1, $2::bigint from unnest($1::text[]) as k
   on conflict (key) do update set
     failures = case when login_failures.last_failure_at < $2::bigint - $3::bigint then 1 else login_failures.failures + 1 end,
     last_failure_at = greatest(login_failures.last_failure_at, $2::bigint)
   returning key, failures, last_failure_at::float8`,
);
const FORGET = statement("delete from login_failures where key = any($1::text[])");
const RECENT = statement(
  "select key, failures, last_failure_at::float8 from login_failures where last_failure_at >= $1 order by last_failure_at desc limit $2",
);
const PURGE = statement("delete from login_failures where last_failure_at < $1");

export interface PostgresThrottleStoreOptions {
  /** How often the node's copy of the recent failures is read again (ms); 1000 by default. */
  readonly refreshMs?: number;
  /** The failures' window (ms), as the throttle's; rows older are purged. 15 minutes by default. */
  readonly windowMs?: number;
  /** Keys copied at most; 10000 by default. */
  readonly maxEntries?: number;
  /** The time of the refresh and the purge (ms since the epoch), as the throttle counts it; Date.now by default. */
  readonly now?: () => number;
  readonly log?: (message: string) => void;
}

/** The shared ThrottleStore, with its background refresh to stop. */
export interface PostgresThrottleStore extends ThrottleStore {
  stop(): void;
}

/**
 * The login throttle's counts in PostgreSQL, shared by every node: each failure is one upsert,
 * so nodes count together. A correct password must not pay a round trip, so `peek` answers from
 * this node's copy of the recent failures, read again every `refreshMs` and updated at once by
 * the node's own failures: another node's failures reach it within that time (an attacker
 * alternating between nodes gains at most that long). When the recent failures are more than
 * the copy holds (a flood of invented logins), `peek` is withdrawn and every attempt reads.
 */
export function createPostgresThrottleStore(sql: SqlClient, options: PostgresThrottleStoreOptions = {}): PostgresThrottleStore {
  const refreshMs = options.refreshMs ?? 1000;
  const windowMs = options.windowMs ?? 15 * 60_000;
  const maxEntries = options.maxEntries ?? 10_000;
  const now = options.now ?? Date.now;
  let copy = new Map<string, ThrottleRecord>();
  // The copy holds every recent failure only while the last refresh found fewer than maxEntries.
  let complete = true;
  let stopped = false;

  const remember = (rows: unknown[][]) => rows.map(([key, failures, lastFailureAt]) => {
    const record = { failures: failures as number, lastFailureAt: lastFailureAt as number };
    copy.set(key as string, record);
    return [key as string, record] as const;
  });
  const live = (record: ThrottleRecord | undefined, at: number, window: number) =>
    record && at - record.lastFailureAt <= window ? record : undefined;

  async function refresh(): Promise<void> {
    const started = now();
    const rows = await sql.rows(RECENT, [started - windowMs, maxEntries]);
    const fresh = new Map<string, ThrottleRecord>();
    for (const [key, failures, lastFailureAt] of rows) fresh.set(key as string, { failures: failures as number, lastFailureAt: lastFailureAt as number });
    // What this node counted while the rows were read is newer than they are.
    for (const [key, record] of copy) if (record.lastFailureAt >= started && (fresh.get(key)?.lastFailureAt ?? -1) < record.lastFailureAt) fresh.set(key, record);
    copy = fresh;
    complete = rows.length < maxEntries;
    await sql.run(PURGE, [started - windowMs]);
  }

  const peek = (keys: readonly string[], at: number, window: number) => keys.map((key) => live(copy.get(key), at, window));

  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      refresh().catch((error: unknown) => options.log?.(`login throttle: could not read the recent failures: ${(error as Error).message}`)).finally(schedule);
    }, refreshMs);
    timer.unref();
  };
  void refresh().catch(() => undefined).finally(schedule);

  return {
    get peek() {
      return complete ? peek : undefined;
    },
    async read(keys, at, window) {
      const found = new Map(remember(await sql.rows(READ, [keys, at - window])));
      return keys.map((key) => found.get(key));
    },
    async fail(keys, at, window) {
      const counted = new Map(remember(await sql.rows(FAIL, [keys, at, window])));
      return keys.map((key) => counted.get(key)!);
    },
    async forget(keys) {
      for (const key of keys) copy.delete(key);
      await sql.run(FORGET, [keys]);
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
