import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { drizzle, type BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { systemClock, type Clock, type Store } from "@lineage/core";
import { createAccountRepository } from "./account-repository.ts";
import { createAtomic } from "./atomic.ts";
import { createDefinitionCache } from "./definition-cache.ts";
import { createCatalogRepository } from "./catalog-repository.ts";
import { createElementRepository } from "./element-repository.ts";
import { createVault } from "./vault.ts";

export interface SqliteStoreOptions {
  /** Holds `lineage.sqlite` and the `vault/` folder; created when missing. */
  readonly dataDir: string;
  /** Dates the vault stamps on new files. */
  readonly clock?: Clock;
}

const MIGRATIONS = fileURLToPath(new URL("../drizzle", import.meta.url));

/**
 * Opens (creating and migrating as needed) the SQLite store in `dataDir`.
 * Several stores, even in several processes, may share one dataDir.
 *
 * @example
 * const store = openSqliteStore({ dataDir: "./data" });
 */
export function openSqliteStore({ dataDir, clock = systemClock }: SqliteStoreOptions): Store {
  mkdirSync(dataDir, { recursive: true });
  const client = new Database(join(dataDir, "lineage.sqlite"));
  try {
    client.pragma("journal_mode = WAL");
    client.pragma("busy_timeout = 5000");
    client.pragma("foreign_keys = ON");
    // Safe with WAL: a power cut may lose the last commits but never corrupts the file.
    client.pragma("synchronous = NORMAL");
    const db = drizzle({ client });
    migrateSchema(db);
    const definitions = createDefinitionCache(client);
    const atomic = createAtomic(client, definitions.transactionEnded);
    return {
      elements: createElementRepository(db, client, atomic),
      catalog: createCatalogRepository(db, atomic, definitions),
      accounts: createAccountRepository(db, atomic, definitions),
      vault: createVault(db, atomic, join(dataDir, "vault"), clock),
      transaction: atomic,
      close() {
        if (!client.open) return;
        try {
          // Refreshes the planner's statistics, as SQLite advises before closing a connection.
          client.pragma("optimize");
        } finally {
          client.close();
        }
      },
    };
  } catch (error) {
    client.close();
    throw error;
  }
}

function migrateSchema(db: BetterSQLite3Database): void {
  try {
    migrate(db, { migrationsFolder: MIGRATIONS });
  } catch {
    // drizzle reads which migrations ran before it takes the write lock, so a store opening
    // the same new dataDir at the same moment may have applied them first: read again.
    migrate(db, { migrationsFolder: MIGRATIONS });
  }
}
