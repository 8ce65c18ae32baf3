import type { ChangeClock, ChangeStamp } from "@lineage/core";
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
