import type { Database } from "better-sqlite3";

/** Freezes a parsed JSON value and everything in it. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

export interface DefinitionCache {
  /** The cached value of `key`, or what `load` reads (kept when found). */
  get<T>(key: string, load: () => T | undefined): T | undefined;
  /** Call on every write of a cached kind through this connection. */
  written(): void;
  /** Call when the outermost transaction ends, committed or rolled back. */
  transactionEnded(): void;
}

/**
 * Parsed definitions (structures, enumerates, lifecycles, profiles, groups)
 * kept between calls, so that a read answers the same frozen object while its
 * row is unchanged: what the core memoises per object (field indexes, an
 * enumerate's lookup index) then lasts from one request to the next, and an
 * import does not parse the same enumerate for every element.
 * A commit by another connection (another store or process on the same file)
 * empties the cache, as `PRAGMA data_version` tells. A write through this
 * connection empties it too, and so does the end of a transaction that wrote:
 * what was read after the write may have been rolled back.
 */
export function createDefinitionCache(client: Database): DefinitionCache {
  const entries = new Map<string, unknown>();
  const dataVersion = client.prepare("PRAGMA data_version").pluck();
  let seen = dataVersion.get();
  let writtenInTransaction = false;
  return {
    get<T>(key: string, load: () => T | undefined): T | undefined {
      // Transactions begin IMMEDIATE: nobody else commits while one is open, so checking outside is enough.
      if (!client.inTransaction) {
        const version = dataVersion.get();
        if (version !== seen) {
          entries.clear();
          seen = version;
        }
      }
      if (entries.has(key)) return entries.get(key) as T;
      const loaded = load();
      if (loaded !== undefined) entries.set(key, deepFreeze(loaded));
      return loaded;
    },
    written() {
      entries.clear();
      if (client.inTransaction) writtenInTransaction = true;
    },
    transactionEnded() {
      if (writtenInTransaction) entries.clear();
      writtenInTransaction = false;
    },
  };
}
