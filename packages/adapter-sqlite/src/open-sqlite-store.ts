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
import { createSearchRepository } from "./search-repository.ts";
import { createVault } from "./vault.ts";
import { createSessionRepository } from "./session-repository.ts";
import { createTokenRepository } from "./token-repository.ts";

export interface SqliteStoreOptions {
  /** Holds `lineage.sqlite` and the `vault/` folder; created when missing. */
  readonly dataDir: string;
  /** Dates the vault stamps on new files. */
  readonly clock?: Clock;
  /**
   * "full" (the default) syncs the WAL to disk at every commit, so a commit survives a power cut too;
   * "normal" syncs only at checkpoints: about 1 ms less per write, but a power cut (never a mere
   * process crash) may lose the last commits. See docs/limits.md, Durability.
   */
  readonly synchronous?: "full" | "normal";
}

const MIGRATIONS = fileURLToPath(new URL("../drizzle", import.meta.url));

/**
 * Opens (creating and migrating as needed) the SQLite store in `dataDir`.
 * Several stores, even in several processes, may share one dataDir.
 *
 * @example
 * const store = openSqliteStore({ dataDir: "./data" });
 */
export function openSqliteStore({ dataDir, clock = systemClock, synchronous = "full" }: SqliteStoreOptions): Store {
  mkdirSync(dataDir, { recursive: true });
  const client = new Database(join(dataDir, "lineage.sqlite"));
  try {
    client.pragma("journal_mode = WAL");
    client.pragma("busy_timeout = 5000");
    client.pragma("foreign_keys = ON");
    // What was answered as saved must stay saved, power cuts included, unless the owner chose "normal".
    client.pragma(`synchronous = ${synchronous === "normal" ? "NORMAL" : "FULL"}`);
    const db = drizzle({ client });
    migrateSchema(db);
    const definitions = createDefinitionCache(client);
    const atomic = createAtomic(client, definitions.transactionEnded);
    // total_changes counts this connection's writes, data_version the commits of others. Two plain
    // statements: the pragma_data_version table function prepares its pragma anew at every call.
    const totalChanges = client.prepare("SELECT total_changes()").pluck();
    const dataVersion = client.prepare("PRAGMA data_version").pluck();
    return {
      elements: createElementRepository(db, client, atomic),
      catalog: createCatalogRepository(db, atomic, definitions),
      search: createSearchRepository(client, atomic),
      accounts: createAccountRepository(db, atomic, definitions),
      vault: createVault(db, atomic, join(dataDir, "vault"), clock),
      sessions: createSessionRepository(db),
      tokens: createTokenRepository(db),
      transaction: atomic,
      version: () => (client.inTransaction ? undefined : `${totalChanges.get() as number}.${dataVersion.get() as number}`),
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
