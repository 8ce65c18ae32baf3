import { createHash } from "node:crypto";
import pg from "pg";
import { asDatabaseUnavailable } from "./database-unavailable.ts";

/** A statement with its name: PostgreSQL parses and plans a named statement once per connection. */
export interface Statement {
  /** None: parsed at every call, kept nowhere. */
  readonly name: string | undefined;
  readonly text: string;
}

/**
 * A statement named after its text, prepared once per connection and kept as long as the
 * connection: for the fixed statements of the code. Statements built from requests (a list's
 * order) are `unnamed`, or every order ever asked would stay prepared on every connection.
 */
export function statement(text: string, { unnamed = false } = {}): Statement {
  return { name: unnamed ? undefined : `lineage_${createHash("sha1").update(text).digest("hex").slice(0, 24)}`, text };
}

/** What the repositories run their statements on: the pool (committed data) or one transaction's connection. */
export interface SqlClient {
  /** The rows, each an array of its columns in the statement's order. */
  rows(statement: Statement, values?: readonly unknown[]): Promise<unknown[][]>;
  /** How many rows the statement changed. */
  run(statement: Statement, values?: readonly unknown[]): Promise<number>;
  /**
   * Runs `fn` with a client whose statements all see one snapshot: the transaction's own, or, over
   * the pool, a read-only transaction taken on one connection for them (a page read in several steps).
   */
  snapshot<T>(fn: (sql: SqlClient) => Promise<T>): Promise<T>;
}

/**
 * The SqlClient over the pool (a connection per statement), for reads of committed data. Rows
 * come as arrays (`rowMode`): no object built per row only to be taken apart again.
 */
export function sqlClient(pool: pg.Pool): SqlClient {
  return clientOf((s, values) => send(pool, s, values), (fn) => onSnapshot(pool, fn));
}

/** Runs `fn` on one connection of the pool, in a read-only transaction of one snapshot (repeatable read). */
async function onSnapshot<T>(pool: pg.Pool, fn: (sql: SqlClient) => Promise<T>): Promise<T> {
  const connection = await pool.connect().catch((error: unknown) => {
    throw asDatabaseUnavailable(error);
  });
  // Checked out, the connection has no listener of the pool's: a server restart must fail the read, not the process.
  const ignore = () => {};
  connection.on("error", ignore);
  let failed = false;
  try {
    await connection.query("begin isolation level repeatable read read only");
    const sql: SqlClient = clientOf((s, values) => send(connection, s, values), (inner) => inner(sql));
    const result = await fn(sql);
    await connection.query("commit");
    return result;
  } catch (error) {
    failed = true;
    throw asDatabaseUnavailable(error);
  } finally {
    connection.removeListener("error", ignore);
    // A connection that failed inside its transaction is closed rather than handed to another read.
    connection.release(failed);
  }
}

/** One transaction's statements on its connection, and how it ends. */
export interface TransactionSql {
  readonly sql: SqlClient;
  /** Sends COMMIT or ROLLBACK (with any statements of its own round trip) after the statements already asked for; from then on `sql` refuses statements. */
  end(command: string): Promise<void>;
}

/**
 * A transaction's SqlClient: its statements one after the other (a transaction may start several
 * at once, with Promise.all, and node-postgres no longer queues them itself: deprecated, gone in
 * pg 9), its end in the same queue, and every statement refused once it ended, so a `tx` kept
 * past its transaction cannot write into whichever one holds the connection next.
 */
export function transactionSql(connection: pg.PoolClient): TransactionSql {
  let ended = false;
  const inTurn = serialized();
  const sql: SqlClient = clientOf((s, values) => {
    if (ended) return Promise.reject(new Error(`A statement was run after its transaction ended: ${s.text.slice(0, 60)}`));
    return inTurn(() => send(connection, s, values));
  }, (fn) => fn(sql));
  return {
    sql,
    end(command) {
      ended = true;
      return inTurn(async () => {
        await connection.query(command);
      });
    },
  };
}

function clientOf(
  query: (s: Statement, values: readonly unknown[]) => Promise<pg.QueryResult>,
  snapshot: SqlClient["snapshot"],
): SqlClient {
  return {
    snapshot,
    async rows(s, values = []) {
      return (await query(s, values)).rows as unknown[][];
    },
    async run(s, values = []) {
      return (await query(s, values)).rowCount ?? 0;
    },
  };
}

function send(target: pg.Pool | pg.PoolClient, s: Statement, values: readonly unknown[]): Promise<pg.QueryResult> {
  const config = { text: s.text, values: values as unknown[], rowMode: "array" as const, ...(s.name ? { name: s.name } : {}) };
  return target.query(config).catch((error: unknown) => {
    throw asDatabaseUnavailable(error);
  });
}

/** Runs tasks one after the other, whether the previous ones succeeded or failed. */
function serialized(): <R>(task: () => Promise<R>) => Promise<R> {
  let last: Promise<unknown> = Promise.resolve();
  return (task) => {
    const next = last.then(task);
    last = next.catch(() => undefined);
    return next;
  };
}
