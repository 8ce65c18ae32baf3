import type { ChangeClock } from "../ports/change-clock.port.ts";
import { systemClock, type Clock } from "../ports/clock.port.ts";
import type { Repositories, Store } from "../ports/store.port.ts";
import { createMemoryAccountRepository } from "./memory-account-repository.ts";
import { createMemoryCatalogRepository } from "./memory-catalog-repository.ts";
import { createMemoryContext, type MemoryContext } from "./memory-context.ts";
import { createMemoryElementRepository } from "./memory-element-repository.ts";
import { createMemoryEventLog } from "./memory-event-log.ts";
import { createMemoryFolderRepository } from "./memory-folder-repository.ts";
import { createMemoryLockRepository } from "./memory-lock-repository.ts";
import { createMemorySearchRepository } from "./memory-search-repository.ts";
import { createMemorySessionRepository } from "./memory-session-repository.ts";
import { createMemoryTokenRepository } from "./memory-token-repository.ts";
import { createMemoryVault } from "./memory-vault.ts";
import { createMemoryWebhookRepository } from "./memory-webhook-repository.ts";
import { createCommittedTables, frozenCopy, openDraft, readOnlyTables, type CommittedTables } from "./memory-tables.ts";
import { SYSTEM_DEFINITIONS } from "../queries/system-structures.ts";
import { outsideTransactions } from "../storage/outside-transactions.ts";
import { readyToCommit, refuseIfExpired } from "../storage/deadline-check.ts";
import { createSerialQueue } from "../storage/serial-queue.ts";

export interface MemoryStoreOptions {
  /** Dates the vault stamps on new files. */
  readonly clock?: Clock;
}

let created = 0;

/**
 * An in-memory Store with real transactions, for tests that need no I/O: transactions run one
 * at a time (others wait their turn), each on a draft of the tables that nothing outside it sees
 * until it commits, and that a rejected function leaves behind. A write on the store's own
 * repositories is a transaction of its own. Transactions do not nest: inside `transaction`, use
 * the repositories it gives, never the store's (a write there would wait for the transaction).
 *
 * @example
 * const store = createMemoryStore();
 * const element = await store.transaction((tx) => tx.elements.insert(revision));
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): Store {
  const clock = options.clock ?? systemClock;
  const committed = withSystemDefinitions(createCommittedTables());
  const prefix = `m${++created}.`;
  let commits = 0;
  let closed = false;
  const watchers = new Set<() => void>();
  // Transactions one at a time, as on a database's one write connection.
  const queue = createSerialQueue();
  const queued = <T>(task: () => Promise<T>) => queue.run(task);

  const transaction: Store["transaction"] = (fn, transactionOptions) => {
    if (closed) return Promise.reject(new Error("The store is closed"));
    return queued(async () => {
      refuseIfExpired(transactionOptions);
      const draft = openDraft(committed);
      const context = createMemoryContext(draft.tables, clock);
      const changes: ChangeClock = {
        async read() {
          const definitions = context.wroteDefinitions() ? "" : String(draft.tables.counters.get("definitions") ?? 0);
          return { data: "", definitions };
        },
      };
      try {
        const result = await fn(memoryRepositories(context, changes));
        readyToCommit(transactionOptions);
        const lastEvent = committed.counters.get("event");
        if (draft.commit()) commits++;
        if (committed.counters.get("event") !== lastEvent) {
          // A watcher's failure is no reason to fail a transaction that has committed.
          for (const watcher of watchers) Promise.resolve().then(watcher).catch(() => undefined);
        }
        return result;
      } finally {
        draft.end();
      }
    });
  };

  const committedClock: ChangeClock = {
    async read() {
      return { data: `${prefix}${commits}`, definitions: String(committed.counters.get("definitions") ?? 0) };
    },
  };
  const reads = memoryRepositories(createMemoryContext(readOnlyTables(committed), clock), committedClock);
  return {
    ...outsideTransactions(reads, transaction),
    transaction,
    webhooks: createMemoryWebhookRepository(),
    watchEvents(listener) {
      const watcher = () => listener();
      watchers.add(watcher);
      return () => void watchers.delete(watcher);
    },
    close() {
      closed = true;
      return queued(async () => undefined);
    },
  };
}

function memoryRepositories(context: MemoryContext, changes: ChangeClock): Repositories {
  return {
    elements: createMemoryElementRepository(context),
    folders: createMemoryFolderRepository(context.tables.folderMembers),
    locks: createMemoryLockRepository(context.tables.locks),
    catalog: createMemoryCatalogRepository(context),
    accounts: createMemoryAccountRepository(context),
    vault: createMemoryVault(context),
    search: createMemorySearchRepository(context),
    sessions: createMemorySessionRepository(context.tables.sessions),
    tokens: createMemoryTokenRepository(context.tables.tokens),
    changes,
    events: createMemoryEventLog(context),
  };
}

/** The system's definitions (system-structures.ts), which every store holds from its first opening, as the SQL stores' migrations write them. */
function withSystemDefinitions(tables: CommittedTables): CommittedTables {
  let id = 0;
  for (const structure of SYSTEM_DEFINITIONS.structures) tables.structures.set(structure.name, frozenCopy({ ...structure, id: ++id }));
  tables.counters.set("structure", id);
  for (const profile of SYSTEM_DEFINITIONS.profiles) tables.profiles.set(profile.name, frozenCopy(profile));
  for (const enumerate of SYSTEM_DEFINITIONS.enumerates) tables.enumerates.set(enumerate.name, frozenCopy(enumerate));
  tables.counters.set("definitions", 1);
  return tables;
}
