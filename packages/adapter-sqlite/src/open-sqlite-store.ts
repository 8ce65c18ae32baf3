import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { drizzle, type BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { createSerialQueue, outsideTransactions, systemClock, type Clock, type Store } from "@lineage/core";
import { createCommittedClock, createTransactionClock } from "./change-clocks.ts";
import { connectionRepositories } from "./connection-repositories.ts";
import { createDefinitionsCounter } from "./definitions-counter.ts";
import { ensureFieldIndexes } from "./field-indexes.ts";
import { createWebhookRepository } from "./webhook-repository.ts";
import { createWriteTransactions, WRITE_LOCK_TIMEOUT_MS } from "./write-transactions.ts";

export interface SqliteStoreOptions {
  /** Holds `lineage.sqlite` and the `vault/` folder; created when missing. */
  readonly dataDir: string;
  /** Dates the vault stamps on new files. */
  readonly clock?: Clock;
  /**
   * "full" (the default) syncs the WAL to disk at every commit, so a commit survives a power cut too;
   * "normal" syncs only at checkpoints: about 1 ms less per write, but a power cut (never a mere
   * process crash) may lose the last commits. See docs/limits.md, Durability.
   */
  readonly synchronous?: "full" | "normal";
}

const MIGRATIONS = fileURLToPath(new URL("../drizzle", import.meta.url));

/**
 * Opens (creating and migrating as needed) the SQLite store in `dataDir`, on two connections: a
 * write connection, where transactions run one at a time (writes on the store's own repositories
 * run as transactions of their own), and a read connection, where every read outside a
 * transaction runs on committed data (WAL) without waiting for them. Several stores, even in
 * several processes, may share one dataDir. Transactions do not nest: inside `transaction`, use
 * the repositories it gives, never the store's (a write there would wait for the transaction).
 * `close()` waits for the transactions already asked for.
 *
 * @example
 * const store = openSqliteStore({ dataDir: "./data" });
 * await store.transaction(async (tx) => tx.catalog.saveEnumerate(colors));
 * await store.close();
 */
export function openSqliteStore({ dataDir, clock = systemClock, synchronous = "full" }: SqliteStoreOptions): Store {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, "lineage.sqlite");
  const vaultDir = join(dataDir, "vault");
  const writer = new Database(file);
  let reader: Database.Database | undefined;
  try {
    writer.pragma("journal_mode = WAL");
    writer.pragma(`busy_timeout = ${WRITE_LOCK_TIMEOUT_MS}`);
    writer.pragma("foreign_keys = ON");
    // What was answered as saved must stay saved, power cuts included, unless the owner chose "normal".
    writer.pragma(`synchronous = ${synchronous === "normal" ? "NORMAL" : "FULL"}`);
    migrateSchema(drizzle({ client: writer }));
    ensureFieldIndexes(writer);
    // From now on the write lock is waited for without blocking (write-transactions.ts).
    writer.pragma("busy_timeout = 0");
    const readConnection = new Database(file);
    reader = readConnection;
    readConnection.pragma(`busy_timeout = ${WRITE_LOCK_TIMEOUT_MS}`);
    // The read connection never writes: a write sent to it by mistake fails instead of escaping the write queue.
    readConnection.pragma("query_only = ON");

    const writeCounter = createDefinitionsCounter(writer);
    const readCounter = createDefinitionsCounter(readConnection);
    // The watchers of the event log are told of this store's commits that appended events; other
    // processes' commits on the same file are found by the readers' polling.
    const watchers = new Set<() => void>();
    let appended = false;
    const written = connectionRepositories({
      client: writer, counter: writeCounter, changes: createTransactionClock(writeCounter), vaultDir, clock,
      eventAppended: () => {
        appended = true;
      },
    });
    const committed = connectionRepositories({
      client: readConnection, counter: readCounter, changes: createCommittedClock(readConnection, readCounter), vaultDir, clock,
    });
    const queue = createSerialQueue();
    const run = createWriteTransactions(writer, written, writeCounter, queue, {
      begun: () => {
        appended = false;
      },
      committed: () => {
        if (appended) notifyAll(watchers);
      },
    });
    let closing: Promise<void> | undefined;
    const transaction: Store["transaction"] = (fn, options) =>
      closing ? Promise.reject(new Error("The store is closed")) : run(fn, options);
    return {
      ...outsideTransactions(committed, transaction),
      transaction,
      // Webhook bookkeeping takes the write lock like any write, but with none of the repositories of a transaction.
      webhooks: createWebhookRepository(writer, readConnection, (fn) => transaction(async () => fn())),
      watchEvents(listener) {
        const watcher = () => listener();
        watchers.add(watcher);
        return () => void watchers.delete(watcher);
      },
      close() {
        closing ??= queue.run(async () => closeConnections(writer, readConnection));
        return closing;
      },
    };
  } catch (error) {
    reader?.close();
    writer.close();
    throw error;
  }
}

function closeConnections(writer: Database.Database, reader: Database.Database): void {
  reader.close();
  try {
    // Refreshes the planner's statistics, as SQLite advises before closing a connection.
    writer.pragma(`busy_timeout = ${WRITE_LOCK_TIMEOUT_MS}`);
    writer.pragma("optimize");
  } finally {
    writer.close();
  }
}

function migrateSchema(db: BetterSQLite3Database): void {
  try {
    migrate(db, { migrationsFolder: MIGRATIONS });
  } catch {
    // drizzle reads which migrations ran before it takes the write lock, so a store opening
    // the same new dataDir at the same moment may have applied them first: read again.
    migrate(db, { migrationsFolder: MIGRATIONS });
  }
}

/** Calls each watcher; one that throws is no reason to fail a transaction that has committed. */
function notifyAll(watchers: ReadonlySet<() => void>): void {
  for (const watcher of watchers) {
    try {
      watcher();
    } catch {
      // A watcher's own failure: the readers it wakes also poll.
    }
  }
}
