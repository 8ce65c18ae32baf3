import type { Database } from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import type { ChangeClock, Clock, Repositories } from "@lineage/core";
import { createAccountRepository } from "./account-repository.ts";
import { withBulkWrite } from "./bulk-write.ts";
import { createCatalogRepository } from "./catalog-repository.ts";
import type { DefinitionsCounter } from "./definitions-counter.ts";
import { createElementRepository } from "./element-repository.ts";
import { createEventLog } from "./event-log.ts";
import { createFolderRepository } from "./folder-repository.ts";
import { createLockRepository } from "./lock-repository.ts";
import { createSearchRepository } from "./search-repository.ts";
import { createSessionRepository } from "./session-repository.ts";
import { createTokenRepository } from "./token-repository.ts";
import { createVault } from "./vault.ts";

export interface ConnectionSettings {
  readonly client: Database;
  readonly counter: DefinitionsCounter;
  readonly changes: ChangeClock;
  readonly vaultDir: string;
  readonly clock: Clock;
  /** Called at each event appended on this connection. */
  readonly eventAppended?: () => void;
}

/** Every repository over one connection, its statements prepared once. */
export function connectionRepositories({ client, counter, changes, vaultDir, clock, eventAppended }: ConnectionSettings): Repositories {
  const db = drizzle({ client });
  return {
    elements: withBulkWrite(createElementRepository(db, client), client),
    folders: createFolderRepository(client),
    locks: createLockRepository(client),
    catalog: createCatalogRepository(db, client, counter),
    accounts: createAccountRepository(db, counter),
    vault: createVault(db, vaultDir, clock),
    search: createSearchRepository(client, counter),
    sessions: createSessionRepository(db),
    tokens: createTokenRepository(db),
    changes,
    events: createEventLog(client, eventAppended),
  };
}
