import type pg from "pg";
import { readyToCommit, refuseIfExpired, type Clock, type Store } from "@lineage/core";
import { createTransactionClock } from "./change-clocks.ts";
import { HOLD, RECORD_COMMIT } from "./change-horizon.ts";
import { connectionRepositories } from "./connection-repositories.ts";
import { asDatabaseUnavailable } from "./database-unavailable.ts";
import { createDefinitionsCounter } from "./definitions-counter.ts";
import { statement, transactionSql } from "./sql-client.ts";
import { createTransactionLocks } from "./transaction-locks.ts";
import type { TransactionSlots } from "./transaction-slots.ts";

/**
 * How long a transaction waits for a lock another one holds (a lineage it reads, the definitions
 * counter) before it fails with 503 API0110: a node stuck while holding one must not stop the
 * writes of that lineage for longer.
 */
export const LOCK_TIMEOUT_MS = 10_000;

/**
 * BEGIN, the transaction's hold (change-horizon.ts) and the definitions counter as committed: sent
 * with the transaction's first statement, in its round trip (sql-client.ts, `later`). No lock any
 * other writer waits for: writers of different lineages go side by side, on one node or several
 * (transaction-locks.ts orders the writers of one lineage).
 */
const BEGIN = [statement("begin"), statement(`set local lock_timeout = '${LOCK_TIMEOUT_MS}ms'`), statement(HOLD)];
const DEFINITIONS = statement("select definitions::text from lineage_clock where id = 1");

/**
 * The commit's number for the change clock, the commit, and then the notification to the nodes
 * that keep their clock by notifications (change-clocks.ts): sent after the commit, in a
 * transaction of its own, since PostgreSQL makes the commits that notify take turns.
 */
const COMMIT = `${RECORD_COMMIT}; commit; notify lineage_clock`;

/**
 * Transactions, each on a connection of the pool, side by side up to the slots' limit (the rest of
 * the pool serves reads); `committed` is told of each commit, and whether it appended events.
 * Transactions do not nest: a `transaction` called from inside `fn` that reads what `fn` changed
 * waits for `fn`'s locks, which `fn` holds until it is over.
 */
export function createWriteTransactions(
  pool: pg.Pool, clock: Clock, slots: TransactionSlots, committed: (appendedEvents: boolean) => void = () => {},
): Store["transaction"] {
  return (fn, options) => slots.run(async () => {
    refuseIfExpired(options);
    const connection = await pool.connect().catch((error: unknown) => {
      throw asDatabaseUnavailable(error);
    });
    // A checked-out connection has no listener of the pool's: without this one, the server
    // ending it mid-transaction (a restart) would be an uncaught 'error' that ends the process.
    let broken = false;
    const onError = () => {
      broken = true;
    };
    connection.on("error", onError);
    const { sql, later, flush, end, abort } = transactionSql(connection);
    try {
      for (const s of BEGIN) void later(s).catch(() => {});
      const committedDefinitions = later(DEFINITIONS).then(([row]) => row![0] as string);
      // Read only if the transaction reads the clock; failed, it fails the statement it went with.
      committedDefinitions.catch(() => {});
      let definitionsRead = false;
      void committedDefinitions.then(() => (definitionsRead = true), () => {});
      const definitions = async () => {
        if (!definitionsRead) await flush();
        return committedDefinitions;
      };
      const counter = createDefinitionsCounter(sql);
      let appended = false;
      const eventAppended = () => {
        appended = true;
      };
      const locks = createTransactionLocks(sql);
      const tx = connectionRepositories({ sql, counter, changes: createTransactionClock(definitions, counter), clock, eventAppended, locks });
      const result = await fn(tx);
      readyToCommit(options);
      // A transaction that sent nothing has nothing to commit: nothing is sent.
      await end(COMMIT, "");
      committed(appended);
      return result;
    } catch (error) {
      try {
        await abort();
      } catch {
        // The connection is broken: it leaves the pool below.
        broken = true;
      }
      throw asDatabaseUnavailable(error);
    } finally {
      connection.removeListener("error", onError);
      connection.release(broken);
    }
  });
}
