import { statement, type SqlClient } from "./sql-client.ts";

/** The definitions counter of the clock row (schema.ts, lineageClock) as one transaction raises it. */
export interface DefinitionsCounter {
  /** Call on every write of a definition: raises the counter, once per transaction. */
  raise(): Promise<void>;
  /** True once the transaction raised the counter. */
  raised(): boolean;
}

const RAISE = statement("update lineage_clock set definitions = definitions + 1 where id = 1");

export function createDefinitionsCounter(sql: SqlClient): DefinitionsCounter {
  let raised = false;
  return {
    async raise() {
      if (raised) return;
      raised = true;
      await sql.run(RAISE);
    },
    raised: () => raised,
  };
}

/** The pool's repositories never write: writes go through transactions (core's outsideTransactions). */
export const READ_ONLY_COUNTER: DefinitionsCounter = {
  raise: () => Promise.reject(new Error("Definitions are written in a transaction")),
  raised: () => false,
};
