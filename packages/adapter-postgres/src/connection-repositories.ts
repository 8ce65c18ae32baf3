import type { ChangeClock, Clock, Repositories } from "@lineage/core";
import { createAccountRepository } from "./account-repository.ts";
import { createCatalogRepository } from "./catalog-repository.ts";
import type { DefinitionsCounter } from "./definitions-counter.ts";
import { createElementRepository } from "./element-repository.ts";
import { createEventLog } from "./event-log.ts";
import { createFolderRepository } from "./folder-repository.ts";
import { createLockRepository } from "./lock-repository.ts";
import { createSearchRepository } from "./search-repository.ts";
import { createSessionRepository } from "./session-repository.ts";
import type { SqlClient } from "./sql-client.ts";
import { createTokenRepository } from "./token-repository.ts";
import { NO_LOCKS, type TransactionLocks } from "./transaction-locks.ts";
import { createVault } from "./vault.ts";

export interface ConnectionSettings {
  readonly sql: SqlClient;
  readonly counter: DefinitionsCounter;
  readonly changes: ChangeClock;
  readonly clock: Clock;
  /** Called at each event appended through these repositories (a transaction's). */
  readonly eventAppended?: () => void;
  /** A transaction's locks (transaction-locks.ts); none over the pool. */
  readonly locks?: TransactionLocks;
}

/** Every repository over one SqlClient: the pool's, or a transaction's connection. */
export function connectionRepositories({ sql, counter, changes, clock, eventAppended, locks = NO_LOCKS }: ConnectionSettings): Repositories {
  return {
    elements: createElementRepository(sql, locks),
    folders: createFolderRepository(sql),
    locks: createLockRepository(sql),
    catalog: createCatalogRepository(sql, counter),
    accounts: createAccountRepository(sql, counter),
    vault: createVault(sql, clock, locks),
    search: createSearchRepository(sql, counter),
    sessions: createSessionRepository(sql),
    tokens: createTokenRepository(sql),
    changes,
    events: createEventLog(sql, eventAppended, locks.active),
  };
}
