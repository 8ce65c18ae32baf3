import type { Database } from "better-sqlite3";
import type { ChangeClock, ChangeStamp } from "@lineage/core";
import type { DefinitionsCounter } from "./definitions-counter.ts";

let opened = 0;

/**
 * The store's change clock, read on the read connection. Its `PRAGMA data_version` changes when
 * any other connection commits (the store's own write connection, another store, another
 * process), so it is the `data` stamp, prefixed by this clock's number because its values are
 * the connection's own. The definitions counter is read again only when it moved: the common
 * case costs one pragma. The pragma runs before the counter's read, so a commit falling between
 * them moves the pragma for the next read and nothing older is ever kept under a newer stamp.
 */
export function createCommittedClock(reader: Database, counter: DefinitionsCounter): ChangeClock {
  // A plain statement: the pragma_data_version table function prepares its pragma anew at every call.
  const dataVersion = reader.prepare("PRAGMA data_version").pluck();
  const prefix = `${++opened}.`;
  let seen: unknown;
  let stamp: ChangeStamp = { data: "", definitions: "" };
  return {
    async read() {
      const version = dataVersion.get();
      if (version !== seen) {
        stamp = { data: `${prefix}${String(version)}`, definitions: String(counter.value()) };
        seen = version;
      }
      return stamp;
    },
  };
}

/**
 * A transaction's change clock: no `data` stamp (what it read may roll back), and the definitions
 * counter as the transaction sees it until the transaction writes a definition. Transactions take
 * the write lock as they begin, so until then that value is the committed one.
 */
export function createTransactionClock(counter: DefinitionsCounter): ChangeClock {
  return {
    async read() {
      return { data: "", definitions: counter.raised() ? "" : String(counter.value()) };
    },
  };
}
