import { createHash } from "node:crypto";
import pg from "pg";
import { asDatabaseUnavailable } from "./database-unavailable.ts";

/** A statement with its name: PostgreSQL parses and plans a named statement once per connection. */
export interface Statement {
  readonly name: string;
  readonly text: string;
}

/** The same text always gets the same name, so statements built at run time never pile up on a connection. */
export function statement(text: string): Statement {
  return { name: `lineage_${createHash("sha1").update(text).digest("hex").slice(0, 24)}`, text };
}

/** What the repositories run their statements on: the pool (committed data) or one transaction's connection. */
export interface SqlClient {
  /** The rows, each an array of its columns in the statement's order. */
  rows(statement: Statement, values?: readonly unknown[]): Promise<unknown[][]>;
  /** How many rows the statement changed. */
  run(statement: Statement, values?: readonly unknown[]): Promise<number>;
}

/** Anything with node-postgres's query method: a Pool (a connection per call) or a checked-out client. */
type Queryable = Pick<pg.Pool | pg.PoolClient, "query">;

/**
 * The SqlClient over node-postgres. Rows come as arrays (`rowMode`): no object built per row
 * only to be taken apart again. `isOpen` refuses calls once a transaction is over, so a `tx`
 * kept past its transaction cannot write into whichever one holds the connection next.
 */
export function sqlClient(target: Queryable, isOpen: () => boolean = () => true): SqlClient {
  const send = (s: Statement, values: readonly unknown[] = []) => {
    if (!isOpen()) throw new Error(`A statement was run after its transaction ended: ${s.text.slice(0, 60)}`);
    return target.query({ name: s.name, text: s.text, values: values as unknown[], rowMode: "array" }).catch((error: unknown) => {
      throw asDatabaseUnavailable(error);
    });
  };
  const query = target instanceof pg.Pool ? send : inTurn(send);
  return {
    async rows(s, values) {
      return (await query(s, values)).rows as unknown[][];
    },
    async run(s, values) {
      return (await query(s, values)).rowCount ?? 0;
    },
  };
}

/**
 * Statements of one connection one after the other: a transaction may start several at once
 * (Promise.all), and node-postgres no longer queues them itself (deprecated, gone in pg 9).
 */
function inTurn<A extends unknown[], R>(run: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  let last: Promise<unknown> = Promise.resolve();
  return (...args) => {
    const next = last.then(() => run(...args));
    last = next.catch(() => undefined);
    return next;
  };
}
