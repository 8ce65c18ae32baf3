import type { Database } from "better-sqlite3";

/** Freezes a parsed JSON value and everything in it. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

export interface DefinitionCache<T> {
  /** The cached definition of `name`, or what `load` reads (kept when found, outside transactions). */
  get(name: string, load: () => T | undefined): T | undefined;
  /** Call on every write of `name` through this connection. */
  forget(name: string): void;
}

/**
 * Parsed JSON definitions kept between calls, so that a read answers the same
 * frozen object while its row is unchanged: what the core memoises per object
 * (an enumerate's lookup index) then lasts from one request to the next.
 * A write through this connection forgets the name; a commit by another
 * connection (another store or process on the same file) empties the cache,
 * as `PRAGMA data_version` tells. Inside a transaction the cache is neither
 * read nor filled, so a rolled-back write is never remembered.
 */
export function createDefinitionCache<T extends object>(client: Database): DefinitionCache<T> {
  const entries = new Map<string, T>();
  const dataVersion = client.prepare("PRAGMA data_version").pluck();
  let seen = dataVersion.get();
  return {
    get(name, load) {
      if (client.inTransaction) return load();
      const version = dataVersion.get();
      if (version !== seen) {
        entries.clear();
        seen = version;
      }
      const cached = entries.get(name);
      if (cached) return cached;
      const loaded = load();
      if (loaded) entries.set(name, deepFreeze(loaded));
      return loaded;
    },
    forget(name) {
      entries.delete(name);
    },
  };
}
