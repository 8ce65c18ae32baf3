import { setTimeout as sleep } from "node:timers/promises";
import type { Database } from "better-sqlite3";
import { readyToCommit, refuseIfExpired, type Repositories, type SerialQueue, type Store } from "@lineage/core";
import type { DefinitionsCounter } from "./definitions-counter.ts";
import { transactionRepositories } from "./transaction-repositories.ts";

/** How long a transaction waits for another connection's write lock before it fails with SQLITE_BUSY. */
export const WRITE_LOCK_TIMEOUT_MS = 5000;

/** What the store is told of its transactions. */
export interface TransactionHooks {
  /** As a transaction begins. */
  readonly begun?: () => void;
  /** Once a transaction has committed. */
  readonly committed?: () => void;
}

/**
 * Transactions on the write connection, one at a time behind `queue` (better-sqlite3's own
 * `transaction()` runs synchronous functions only, so BEGIN and COMMIT are issued here).
 * BEGIN IMMEDIATE takes SQLite's write lock up front, so a look-up then insert cannot race another
 * writer. While another connection holds the lock (another process, or another store of this
 * one), BEGIN is tried again after short sleeps rather than in SQLite's busy handler, which would
 * block the event loop: reads go on meanwhile, and a transaction of another store in this process
 * can reach its commit. Transactions do not nest: a `transaction` (or a write on the store's own
 * repositories) called from inside `fn` waits for `fn`, which waits for it.
 */
export function createWriteTransactions(
  client: Database, repositories: Repositories, counter: DefinitionsCounter, queue: SerialQueue, hooks: TransactionHooks = {},
): Store["transaction"] {
  const begin = client.prepare("BEGIN IMMEDIATE");
  const commit = client.prepare("COMMIT");
  const rollback = client.prepare("ROLLBACK");
  const repositoriesOf = transactionRepositories(repositories);

  async function beginImmediate(): Promise<void> {
    const giveUp = Date.now() + WRITE_LOCK_TIMEOUT_MS;
    for (let wait = 1; ; wait = Math.min(wait * 2, 20)) {
      try {
        begin.run();
        return;
      } catch (error) {
        if (!isBusy(error) || Date.now() >= giveUp) throw error;
      }
      await sleep(wait);
    }
  }

  return (fn, options) => queue.run(async () => {
    refuseIfExpired(options);
    await beginImmediate();
    counter.reset();
    hooks.begun?.();
    let open = true;
    try {
      const result = await fn(repositoriesOf(() => open));
      readyToCommit(options);
      commit.run();
      hooks.committed?.();
      return result;
    } catch (error) {
      // SQLite may have rolled back already (e.g. on SQLITE_FULL).
      if (client.inTransaction) rollback.run();
      throw error;
    } finally {
      open = false;
    }
  });
}

/** SQLITE_BUSY or one of its extended codes (better-sqlite3 names them in `code`). */
function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("SQLITE_BUSY");
}
