import type { ChangeClock, ChangeStamp } from "@lineage/core";
import type { DefinitionsCounter } from "./definitions-counter.ts";
import { statement, type SqlClient } from "./sql-client.ts";

// The horizon and the numbers committed above it (migration 0013, change-horizon.ts), and the definitions counter.
const READ = statement("select data, definitions from lineage_clock_stamp()");

/**
 * The store's change clock as committed: `data` is the horizon with the numbers of the commits
 * above it (each commit records one, write-transactions.ts), so every commit on any node moves it:
 * either the horizon passes the commit's number or the number shows above it. Rows are only added
 * in the order the horizon lets through, so equal stamps mean equal data on every node.
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
 * The committed clock kept current by PostgreSQL's notifications: every write transaction sends
 * NOTIFY lineage_clock as it commits (write-transactions.ts), and `listen()` holds a connection
 * that listens for it. The row is read again after a notification, after this store's own
 * commits, and at least every `maxAgeMs` (a listening connection may die without a word). A
 * notification travels on its own connection: another node's commit shows once it has arrived,
 * not by construction before the next request (docs/deployment.md). While no connection listens
 * (at start, after a failure), every read asks the database, as the plain committed clock does.
 */
export function createNotifiedClock(sql: SqlClient, maxAgeMs = 1000): NotifiedClock {
  const committed = createCommittedClock(sql);
  let listening = false;
  let current: Promise<ChangeStamp> | undefined;
  let readAt = 0;
  const changed = () => {
    current = undefined;
  };
  return {
    read() {
      if (!listening) return committed.read();
      if (current && Date.now() - readAt > maxAgeMs) changed();
      if (!current) {
        readAt = Date.now();
        // Shared by the reads until the next notification; a failed read is not kept.
        current = committed.read().catch((error: unknown) => {
          current = undefined;
          throw error;
        });
      }
      return current;
    },
    listen(client) {
      client.on("notification", changed);
      listening = true;
      changed();
    },
    unlisten() {
      listening = false;
      changed();
    },
    changed,
  };
}

/** The committed clock of a store that listens for notifications. */
export interface NotifiedClock extends ChangeClock {
  listen(client: NotificationSource): void;
  unlisten(): void;
  /** Forgets the stamp: called as this store commits, so its own writes show without waiting for their notification. */
  changed(): void;
}

/** The connection notifications arrive on. */
export interface NotificationSource {
  on(event: "notification", listener: () => void): unknown;
}

/**
 * A transaction's change clock: no `data` stamp (what it read may roll back), and the definitions
 * counter committed as it began until it writes a definition. Another transaction may commit
 * definitions meanwhile: this one goes on with those it began with, as if it had run just before.
 */
export function createTransactionClock(committedDefinitions: () => Promise<string>, counter: DefinitionsCounter): ChangeClock {
  return {
    async read() {
      return { data: "", definitions: counter.raised() ? "" : await committedDefinitions() };
    },
  };
}
