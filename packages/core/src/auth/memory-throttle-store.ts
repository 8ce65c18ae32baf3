import type { ThrottleRecord, ThrottleStore } from "../ports/throttle-store.port.ts";

/** A ThrottleStore in this process's memory, with the number of keys it holds (for tests and metrics). */
export interface MemoryThrottleStore extends ThrottleStore {
  peek(keys: readonly string[], now: number, windowMs: number): ReadonlyArray<ThrottleRecord | undefined>;
  readonly size: number;
}

const NONE: ReadonlyArray<ThrottleRecord | undefined> = Object.freeze([]);

/**
 * The default ThrottleStore: one process's counts, bounded to `maxEntries`
 * keys (10000 by default; the least recently failed go first), so a flood of
 * invented logins cannot grow the memory.
 */
export function createMemoryThrottleStore(options: { readonly maxEntries?: number } = {}): MemoryThrottleStore {
  const maxEntries = options.maxEntries ?? 10_000;
  // Map order is least recently failed first: a key is moved to the end at each failure.
  const entries = new Map<string, ThrottleRecord>();

  const live = (key: string, now: number, windowMs: number) => {
    const entry = entries.get(key);
    if (entry && now - entry.lastFailureAt > windowMs) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };
  const makeRoom = () => {
    for (const key of entries.keys()) {
      if (entries.size < maxEntries) return;
      entries.delete(key);
    }
  };
  const peek = (keys: readonly string[], now: number, windowMs: number) =>
    // Nothing counted (the usual case): no look-up, no array.
    entries.size === 0 ? NONE : keys.map((key) => live(key, now, windowMs));

  return {
    peek,
    read: async (keys, now, windowMs) => peek(keys, now, windowMs),
    async fail(keys, now, windowMs) {
      return keys.map((key) => {
        const record = { failures: (live(key, now, windowMs)?.failures ?? 0) + 1, lastFailureAt: now };
        entries.delete(key);
        makeRoom();
        entries.set(key, record);
        return record;
      });
    },
    async forget(keys) {
      for (const key of keys) entries.delete(key);
    },
    get size() {
      return entries.size;
    },
  };
}
