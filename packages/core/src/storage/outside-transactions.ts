import type { Repositories, Store } from "../ports/store.port.ts";

/** The methods that write, per repository. */
const WRITES = {
  elements: ["insert", "save", "setLineageStatus", "appendHistory"],
  folders: ["add", "remove"],
  locks: ["save", "remove"],
  catalog: ["saveStructure", "saveEnumerate", "saveLifecycle", "saveProfile", "saveFieldAccess", "saveDashboard"],
  accounts: ["saveAccount", "removeAccount", "saveRole", "saveGroup"],
  vault: ["store"],
  search: ["saveDomain", "setGeneration"],
  sessions: ["create", "extend", "delete", "deleteForAccount", "deleteExpired"],
  tokens: ["create", "delete", "consume", "deleteExpired"],
  changes: [],
  events: ["append", "prune"],
} as const satisfies { readonly [K in keyof Repositories]: readonly (keyof Repositories[K])[] };

/**
 * For store adapters: the store's own repositories, reading from `reads` (committed data: a read
 * connection, a pool) and running each write as a transaction of its own, so that it waits its
 * turn instead of landing inside whichever transaction is open on the write connection.
 */
export function outsideTransactions(reads: Repositories, transaction: Store["transaction"]): Repositories {
  const combined: Record<string, unknown> = {};
  for (const name of Object.keys(WRITES) as (keyof Repositories)[]) {
    const repository: Record<string, unknown> = { ...reads[name] };
    for (const method of WRITES[name]) {
      repository[method] = (...args: unknown[]) =>
        transaction((tx) => (tx[name][method as keyof Repositories[typeof name]] as (...args: unknown[]) => Promise<unknown>)(...args));
    }
    combined[name] = repository;
  }
  return combined as unknown as Repositories;
}
