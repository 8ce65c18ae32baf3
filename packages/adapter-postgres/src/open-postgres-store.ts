import pg from "pg";
import { outsideTransactions, systemClock, type Clock, type Store } from "@lineage/core";
import { createCommittedClock, createNotifiedClock } from "./change-clocks.ts";
import { allSinks, listenForChanges, type ChangeListener } from "./change-listener.ts";
import { createEventWatchers } from "./event-watchers.ts";
import { connectionRepositories } from "./connection-repositories.ts";
import { READ_ONLY_COUNTER } from "./definitions-counter.ts";
import { migrateSchema } from "./migrate-schema.ts";
import { sqlClient } from "./sql-client.ts";
import { createPostgresThrottleStore, type PostgresThrottleStore, type PostgresThrottleStoreOptions } from "./throttle-store.ts";
import { createTransactionSlots } from "./transaction-slots.ts";
import { createWebhookRepository } from "./webhook-repository.ts";
import { createWriteTransactions } from "./write-transactions.ts";

export interface PostgresStoreOptions {
  /** `postgres://USER:PASSWORD@HOST:PORT/DBNAME`, or anything else node-postgres takes as a connection string. */
  readonly url: string;
  /** Dates the vault stamps on new files. */
  readonly clock?: Clock;
  /** Connections kept at most; 10 by default. Transactions take up to all but two of them, side by side; reads the others. */
  readonly poolSize?: number;
  /** Where connection failures seen outside any request are reported; stderr by default. */
  readonly log?: (message: string) => void;
  /**
   * How the store learns of other nodes' commits: "poll" (the default) reads the clock row once per
   * event-loop turn that asks; "notify" reads it only after a NOTIFY from a commit, on a connection
   * of its own (docs/deployment.md compares them).
   */
  readonly changes?: "poll" | "notify";
}

/** The store on PostgreSQL, and the shared counts of the login throttle over the same pool. */
export interface PostgresStore extends Store {
  /** The login throttle's ThrottleStore shared by every node on the database (made on first call, stopped with the store). */
  throttleStore(options?: Omit<PostgresThrottleStoreOptions, "log">): PostgresThrottleStore;
}

/**
 * Opens the store on a PostgreSQL database, applying the migrations it lacks first. Several
 * stores, on one node or several, may share one database: their transactions run side by side,
 * those that change one lineage taking turns (transaction-locks.ts), and the change clock tells
 * each what the others committed (change-horizon.ts). Transactions do not nest: inside
 * `transaction`, use the repositories it gives, never the store's (a write there of what the
 * transaction holds would wait for it). `close()` waits for the transactions already asked for,
 * then closes the pool.
 *
 * @example
 * const store = await openPostgresStore({ url: "postgres://lineage:secret@127.0.0.1:5432/lineage" });
 * await store.transaction(async (tx) => tx.catalog.saveEnumerate(colors));
 * await store.close();
 */
export async function openPostgresStore({ url, clock = systemClock, poolSize = 10, log = logToStderr, changes = "poll" }: PostgresStoreOptions): Promise<PostgresStore> {
  // Bounded waits: a database host gone silent (a failover without a reset) is answered 503, not after minutes.
  const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, keepAlive: true });
  // An idle connection that breaks (the server restarted) is dropped by the pool; without a
  // listener, node-postgres would make it an uncaught error that ends the process.
  pool.on("error", (error) => log(`PostgreSQL connection lost: ${error.message}`));
  try {
    await migrateSchema(pool);
  } catch (error) {
    await pool.end();
    throw error;
  }
  const sql = sqlClient(pool);
  const notified = changes === "notify" ? createNotifiedClock(sql) : undefined;
  // One connection listens for commits: from the start for the notified clock, else from the first
  // watcher of the event log (a live stream) on, so that other nodes' events wake this node's streams.
  const eventWatchers = createEventWatchers();
  let listener: ChangeListener | undefined = notified && listenForChanges(url, allSinks(notified, eventWatchers), log);
  const committed = connectionRepositories({ sql, counter: READ_ONLY_COUNTER, changes: notified ?? createCommittedClock(sql), clock });
  const slots = createTransactionSlots(Math.max(1, poolSize - 2));
  const run = createWriteTransactions(pool, clock, slots, (appendedEvents) => {
    notified?.changed();
    if (appendedEvents) eventWatchers.wake();
  });
  let throttle: PostgresThrottleStore | undefined;
  let closing: Promise<void> | undefined;
  const transaction: Store["transaction"] = (fn, options) =>
    closing ? Promise.reject(new Error("The store is closed")) : run(fn, options);
  return {
    ...outsideTransactions(committed, transaction),
    transaction,
    webhooks: createWebhookRepository(sql),
    watchEvents(watcher) {
      if (!closing) listener ??= listenForChanges(url, eventWatchers, log);
      return eventWatchers.watch(watcher);
    },
    throttleStore(throttleOptions) {
      throttle ??= createPostgresThrottleStore(sql, { ...throttleOptions, log });
      return throttle;
    },
    close() {
      closing ??= (async () => {
        await slots.idle();
        throttle?.stop();
        await listener?.close();
        await pool.end();
      })();
      return closing;
    },
  };
}

/** How long a request waits for a connection (a new one, or one of the pool's) before its 503. */
const CONNECT_TIMEOUT_MS = 5000;

function logToStderr(message: string): void {
  process.stderr.write(`${message}\n`);
}
