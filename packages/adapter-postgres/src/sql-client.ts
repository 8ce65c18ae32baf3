import { createHash } from "node:crypto";
import { createRequire } from "node:module";
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
  /**
   * A statement whose rows nobody reads (a lock, an insert): in a transaction, it settles at once
   * and is sent in the round trip of the next statement (or of the commit), as a statement of its
   * own before it (so, in READ COMMITTED, before that one's snapshot is taken: a lock taken so is
   * held when the next statement reads); its failure fails that statement, and so the transaction.
   * Over the pool, sent at once.
   */
  defer(statement: Statement, values?: readonly unknown[]): Promise<void>;
}

/**
 * The SqlClient over the pool (a connection per statement), for reads of committed data. Rows
 * come as arrays (`rowMode`): no object built per row only to be taken apart again.
 */
export function sqlClient(pool: pg.Pool): SqlClient {
  const sql: SqlClient = clientOf((s, values) => send(pool, s, values), (fn) => onSnapshot(pool, fn), async (s, values) => {
    await sql.run(s, values);
  });
  return sql;
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
    const sql: SqlClient = clientOf((s, values) => send(connection, s, values), (inner) => inner(sql), async (s, values) => {
      await sql.run(s, values);
    });
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
  /** As `sql.defer`, with the statement's rows once it is sent. */
  later(statement: Statement, values?: readonly unknown[]): Promise<unknown[][]>;
  /** Sends what waits (`later`) alone, if anything does: for an answer needed before any other statement. */
  flush(): Promise<void>;
  /**
   * Sends COMMIT or ROLLBACK (with any statements of its own round trip) after the statements already
   * asked for, and those that wait (`later`) in its round trip; from then on `sql` refuses statements.
   * `unsent` is sent instead when the transaction was asked nothing but `later` statements, none sent
   * yet (it never began on the server, and has nothing to do there).
   */
  end(command: string, unsent?: string): Promise<void>;
  /** Rolls back: what waits is dropped, and ROLLBACK sent only if the server has seen the transaction. */
  abort(): Promise<void>;
}

/** A statement that waits for the next round trip, with what to do with its rows. */
interface Waiting {
  readonly text: string;
  settle(rows: unknown[][] | Error): void;
}

/**
 * A transaction's SqlClient: its statements one after the other (a transaction may start several
 * at once, with Promise.all, and node-postgres no longer queues them itself: deprecated, gone in
 * pg 9), its end in the same queue, and every statement refused once it ended, so a `tx` kept
 * past its transaction cannot write into whichever one holds the connection next. Statements
 * asked `later` go with the next one in one simple query, their values written in as literals
 * (node-postgres's own conversion of values, then quoted: each an untyped literal as a parameter
 * is an untyped value), so that a lock and the read it guards, or an insert and the next one, cost
 * one round trip.
 */
export function transactionSql(connection: pg.PoolClient): TransactionSql {
  let ended = false;
  // Whether the server has seen this transaction; whether it was asked a statement besides `later` ones.
  let sent = false;
  let asked = false;
  const waiting: Waiting[] = [];
  const inTurn = serialized();
  /** Sends what waits, then `text` (when given) in one round trip; answers the last statement's result. */
  const sendWith = async (text: string | undefined): Promise<pg.QueryResult | undefined> => {
    const batch = waiting.splice(0);
    const texts = [...batch.map((w) => w.text), ...(text === undefined ? [] : [text])];
    if (texts.length === 0) return undefined;
    sent = true;
    try {
      const answer = (await connection.query({ text: texts.join(";\n"), rowMode: "array" } as pg.QueryConfig)) as unknown as pg.QueryResult | pg.QueryResult[];
      const results = Array.isArray(answer) ? answer : [answer];
      batch.forEach((w, i) => w.settle((results[i]?.rows ?? []) as unknown[][]));
      return results.at(-1);
    } catch (error) {
      const failure = asDatabaseUnavailable(error);
      for (const w of batch) w.settle(failure as Error);
      throw failure;
    }
  };
  const sql: SqlClient = clientOf((s, values) => {
    if (ended) return Promise.reject(new Error(`A statement was run after its transaction ended: ${s.text.slice(0, 60)}`));
    asked = true;
    return inTurn(async () => {
      if (waiting.length === 0) {
        sent = true;
        return send(connection, s, values);
      }
      return (await sendWith(inline(s.text, values)))!;
    });
  }, (fn) => fn(sql), async (s, values = []) => {
    if (ended) throw new Error(`A statement was run after its transaction ended: ${s.text.slice(0, 60)}`);
    asked = true;
    // Its failure is the next statement's, which its caller awaits.
    waiting.push({ text: inline(s.text, values), settle: () => {} });
  });
  return {
    sql,
    later(s, values = []) {
      if (ended) return Promise.reject(new Error(`A statement was run after its transaction ended: ${s.text.slice(0, 60)}`));
      return new Promise<unknown[][]>((resolve, reject) => {
        waiting.push({ text: inline(s.text, values), settle: (rows) => (rows instanceof Error ? reject(rows) : resolve(rows)) });
      });
    },
    flush: () => inTurn(async () => {
      await sendWith(undefined);
    }),
    end(command, unsent = command) {
      ended = true;
      return inTurn(async () => {
        if (!sent && !asked) {
          waiting.splice(0);
          if (unsent) await connection.query(unsent);
          return;
        }
        await sendWith(command);
      });
    },
    abort() {
      ended = true;
      return inTurn(async () => {
        waiting.splice(0);
        if (sent) await connection.query("rollback");
      });
    },
  };
}

// node-postgres's own conversion of a parameter to its text (arrays, dates, buffers, JSON), as it sends them.
const { prepareValue } = createRequire(import.meta.url)("pg/lib/utils.js") as { prepareValue(value: unknown): unknown };

/** The statement with its parameters written in as quoted literals, in one pass (a value holding "$1" stays as it is). */
function inline(text: string, values: readonly unknown[]): string {
  return text.replace(/\$(\d+)/g, (_, n: string) => literal(values[Number(n) - 1]));
}

function literal(value: unknown): string {
  const prepared = prepareValue(value);
  if (prepared === null || prepared === undefined) return "null";
  if (Buffer.isBuffer(prepared)) return `'\\x${prepared.toString("hex")}'::bytea`;
  return pg.escapeLiteral(String(prepared));
}

function clientOf(
  query: (s: Statement, values: readonly unknown[]) => Promise<pg.QueryResult>,
  snapshot: SqlClient["snapshot"],
  defer: SqlClient["defer"],
): SqlClient {
  return {
    snapshot,
    defer,
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
