import type { Database } from "better-sqlite3";

/** Runs `fn` in the store's transaction, joining the one already open. */
export type Atomic = <T>(fn: () => T) => T;

/**
 * A transaction runner over one connection. Nested calls join the outer
 * transaction rather than open a savepoint, as the in-memory fake does.
 * Transactions begin IMMEDIATE: taking the write lock up front lets another
 * connection's commit make us wait (busy_timeout) instead of failing a
 * read-then-write with SQLITE_BUSY, and makes look-up-then-insert safe.
 * `ended` runs when an outermost transaction is over, committed or not.
 */
export function createAtomic(client: Database, ended: () => void = () => {}): Atomic {
  const transaction = client.transaction((fn: () => unknown) => fn());
  return <T>(fn: () => T): T => {
    if (!client.inTransaction) {
      try {
        return transaction.immediate(fn) as T;
      } finally {
        ended();
      }
    }
    const result = fn();
    // better-sqlite3 refuses promises only at the outer level; writes after an await would escape the transaction.
    if (typeof (result as { then?: unknown } | null)?.then === "function") {
      throw new TypeError("Store.transaction cannot run an async function");
    }
    return result;
  };
}
