import type { ChangeClock } from "@lineage/core";
import type { DefinitionsCounter } from "./definitions-counter.ts";
import { statement, type SqlClient } from "./sql-client.ts";

const READ = statement("select data::text, definitions::text from lineage_clock where id = 1");

/**
 * The store's change clock: the clock row as committed. Every node reads the same row, so a
 * commit on any node moves every node's stamp, and equal stamps mean equal data on every node.
 */
export function createCommittedClock(sql: SqlClient): ChangeClock {
  return {
    async read() {
      const [row] = await sql.rows(READ);
      return { data: row![0] as string, definitions: row![1] as string };
    },
  };
}

/**
 * A transaction's change clock: no `data` stamp (what it read may roll back), and the definitions
 * counter it found as it locked the clock row (the committed one: nobody else may commit meanwhile)
 * until it writes a definition.
 */
export function createTransactionClock(committedDefinitions: string, counter: DefinitionsCounter): ChangeClock {
  return {
    async read() {
      return { data: "", definitions: counter.raised() ? "" : committedDefinitions };
    },
  };
}
