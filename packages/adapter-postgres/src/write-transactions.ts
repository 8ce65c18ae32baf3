import type pg from "pg";
import { readyToCommit, refuseIfExpired, type Clock, type SerialQueue, type Store } from "@lineage/core";
import { createTransactionClock } from "./change-clocks.ts";
import { connectionRepositories } from "./connection-repositories.ts";
import { asDatabaseUnavailable } from "./database-unavailable.ts";
import { createDefinitionsCounter } from "./definitions-counter.ts";
import { transactionSql } from "./sql-client.ts";

/**
 * How long a transaction waits for the clock row (another node's writer) before it fails with
 * 503 API0110: a node stuck while holding it must not stop every node's writes for longer.
 */
export const LOCK_TIMEOUT_MS = 10_000;

/**
 * Locks the clock row for the transaction and moves its data counter: writers of every node take
 * turns from here to their commit, as SQLite's writers do behind BEGIN IMMEDIATE, so a look-up
 * then insert cannot race, and sequence numbers are taken in commit order. The notification goes
 * out with the commit, to the nodes that keep their clock by notifications (change-clocks.ts).
 * Sent with BEGIN as one simple query: one round trip.
 */
const BEGIN = `begin; set local lock_timeout = '${LOCK_TIMEOUT_MS}ms';
  update lineage_clock set data = data + 1 where id = 1 returning definitions::text; notify lineage_clock`;

/**
 * Transactions on a connection from the pool, one at a time per store behind `queue`: a node's
 * writers would wait for the clock row anyway, and this way they wait without each holding a
 * connection the reads need; `committed` is told of each commit, and whether it appended events.
 * Transactions do not nest: a `transaction` (or a write on the store's own repositories) called
 * from inside `fn` waits for `fn`, which waits for it.
 */
export function createWriteTransactions(
  pool: pg.Pool, clock: Clock, queue: SerialQueue, committed: (appendedEvents: boolean) => void = () => {},
): Store["transaction"] {
  return (fn, options) => queue.run(async () => {
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
    const { sql, end } = transactionSql(connection);
    try {
      const results = (await connection.query(BEGIN)) as unknown as pg.QueryResult[];
      const definitions = results[2]!.rows[0].definitions as string;
      const counter = createDefinitionsCounter(sql);
      let appended = false;
      const eventAppended = () => {
        appended = true;
      };
      const tx = connectionRepositories({ sql, counter, changes: createTransactionClock(definitions, counter), clock, eventAppended });
      const result = await fn(tx);
      readyToCommit(options);
      await end("commit");
      committed(appended);
      return result;
    } catch (error) {
      try {
        await end("rollback");
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
