import type pg from "pg";
import { readyToCommit, refuseIfExpired, type Clock, type SerialQueue, type Store } from "@lineage/core";
import { createTransactionClock } from "./change-clocks.ts";
import { connectionRepositories } from "./connection-repositories.ts";
import { asDatabaseUnavailable } from "./database-unavailable.ts";
import { createDefinitionsCounter } from "./definitions-counter.ts";
import { sqlClient } from "./sql-client.ts";

/**
 * Locks the clock row for the transaction and moves its data counter: writers of every node take
 * turns from here to their commit, as SQLite's writers do behind BEGIN IMMEDIATE, so a look-up
 * then insert cannot race, and sequence numbers are taken in commit order. The notification goes
 * out with the commit, to the nodes that keep their clock by notifications (change-clocks.ts).
 * Sent with BEGIN as one simple query: one round trip.
 */
const BEGIN = "begin; update lineage_clock set data = data + 1 where id = 1 returning definitions::text; notify lineage_clock";

/**
 * Transactions on a connection from the pool, one at a time per store behind `queue`: a node's
 * writers would wait for the clock row anyway, and this way they wait without each holding a
 * connection the reads need; `committed` is told of each commit. Transactions do not nest: a `transaction` (or a write on the
 * store's own repositories) called from inside `fn` waits for `fn`, which waits for it.
 */
export function createWriteTransactions(pool: pg.Pool, clock: Clock, queue: SerialQueue, committed: () => void = () => {}): Store["transaction"] {
  return (fn, options) => queue.run(async () => {
    refuseIfExpired(options);
    const connection = await pool.connect().catch((error: unknown) => {
      throw asDatabaseUnavailable(error);
    });
    let open = true;
    let failed = false;
    try {
      const results = (await connection.query(BEGIN)) as unknown as pg.QueryResult[];
      const definitions = results[1]!.rows[0].definitions as string;
      const sql = sqlClient(connection, () => open);
      const counter = createDefinitionsCounter(sql);
      const tx = connectionRepositories({ sql, counter, changes: createTransactionClock(definitions, counter), clock });
      const result = await fn(tx);
      readyToCommit(options);
      open = false;
      await connection.query("commit");
      committed();
      return result;
    } catch (error) {
      open = false;
      try {
        await connection.query("rollback");
      } catch {
        // The connection is broken: it leaves the pool below.
        failed = true;
      }
      throw asDatabaseUnavailable(error);
    } finally {
      open = false;
      connection.release(failed);
    }
  });
}
