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

/** The most changes one commit takes: a bound on how long the first of them waits for the last. */
export const GROUP_LIMIT = 64;

/** A change waiting for its turn on the write connection. */
interface Member {
  readonly fn: (tx: Repositories) => Promise<unknown>;
  readonly options: Parameters<Store["transaction"]>[1];
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
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
 *
 * Group commit: the changes that queued up while one ran share the next commit (up to GROUP_LIMIT),
 * each in a savepoint of its own, so that one sync of the disk serves them all. Each is still all
 * or nothing: one that fails is rolled back to its savepoint and refused alone, and none is
 * answered before the commit that holds it (a failed commit refuses all of them). A change waits
 * for no one who has not asked yet: alone in the queue, it commits at once.
 */
export function createWriteTransactions(
  client: Database, repositories: Repositories, counter: DefinitionsCounter, queue: SerialQueue, hooks: TransactionHooks = {},
): Store["transaction"] {
  const begin = client.prepare("BEGIN IMMEDIATE");
  const commit = client.prepare("COMMIT");
  const rollback = client.prepare("ROLLBACK");
  const savepoint = client.prepare("SAVEPOINT change");
  const release = client.prepare("RELEASE change");
  const rollbackTo = client.prepare("ROLLBACK TO change");
  const repositoriesOf = transactionRepositories(repositories);
  const waiting: Member[] = [];
  let scheduled = false;

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

  /** Runs one change inside the open transaction; true when its changes are in it, false when it was refused (and rolled back). */
  async function runMember(member: Member, alone: boolean, done: [Member, unknown][]): Promise<boolean> {
    counter.reset();
    if (!alone) savepoint.run();
    let open = true;
    try {
      refuseIfExpired(member.options);
      const result = await member.fn(repositoriesOf(() => open));
      readyToCommit(member.options);
      if (!alone) release.run();
      done.push([member, result]);
      return true;
    } catch (error) {
      member.reject(error);
      // SQLite may have rolled the whole transaction back already (e.g. on SQLITE_FULL): the changes before it went too.
      if (!client.inTransaction) {
        for (const [other] of done.splice(0)) other.reject(error);
      } else if (!alone) {
        rollbackTo.run();
        release.run();
      }
      return false;
    } finally {
      open = false;
    }
  }

  async function runGroup(): Promise<void> {
    const group = waiting.splice(0, GROUP_LIMIT);
    if (waiting.length > 0) void queue.run(runGroup);
    else scheduled = false;
    try {
      await commitGroup(group);
    } catch (error) {
      // Past the members' own errors (a ROLLBACK TO that failed): nothing of the group is committed, and none may wait forever.
      if (client.inTransaction) {
        try {
          rollback.run();
        } catch {
          // The connection is unusable: the next BEGIN says so to the changes that ask for it.
        }
      }
      // Rejecting a member already settled does nothing.
      for (const member of group) member.reject(error);
    }
  }

  async function commitGroup(group: readonly Member[]): Promise<void> {
    const alone = group.length === 1;
    const done: [Member, unknown][] = [];
    for (const member of group) {
      if (!client.inTransaction) {
        try {
          refuseIfExpired(member.options);
          await beginImmediate();
        } catch (error) {
          member.reject(error);
          continue;
        }
        hooks.begun?.();
      }
      await runMember(member, alone, done);
    }
    if (!client.inTransaction) return;
    try {
      if (done.length === 0) {
        rollback.run();
        return;
      }
      commit.run();
    } catch (error) {
      if (client.inTransaction) rollback.run();
      for (const [member] of done) member.reject(error);
      return;
    }
    hooks.committed?.();
    for (const [member, result] of done) member.resolve(result);
  }

  return (fn, options) => new Promise((resolve, reject) => {
    waiting.push({ fn, options, resolve: resolve as (value: unknown) => void, reject });
    if (scheduled) return;
    scheduled = true;
    void queue.run(runGroup);
  });
}

/** SQLITE_BUSY or one of its extended codes (better-sqlite3 names them in `code`). */
function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("SQLITE_BUSY");
}
