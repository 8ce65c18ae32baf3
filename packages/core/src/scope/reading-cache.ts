import type { Principal } from "../accounts/principal.ts";

/**
 * Answers kept while the change clock's data stamp stays the same: a read that depends
 * only on stored data and on who reads may be served again until anything is
 * written. Failures are not kept, and at most `capacity` answers are (the
 * least recently used goes first).
 */
export interface VersionedCache<V> {
  /** The answer kept for `key` at `version`, or what `load` gives (kept when it succeeds). */
  get(key: string, version: string | undefined, load: () => Promise<V>): Promise<V>;
}

/**
 * A cache of at most `capacity` answers; 0 keeps nothing. It keeps the promises
 * themselves: a hit hands back the settled promise, with no async step of its own,
 * and requests asking at once for the same missing answer share one load.
 */
export function createVersionedCache<V>(capacity: number): VersionedCache<V> {
  const entries = new Map<string, { readonly version: string; readonly value: Promise<V> }>();
  return {
    get(key, version, load) {
      // No version (undefined, or the empty data stamp of a transaction): nothing may be kept.
      if (!version || capacity <= 0) return load();
      const entry = entries.get(key);
      if (entry) {
        entries.delete(key);
        if (entry.version === version) {
          entries.set(key, entry);
          return entry.value;
        }
      }
      const kept = { version, value: load() };
      entries.set(key, kept);
      if (entries.size > capacity) entries.delete(entries.keys().next().value as string);
      kept.value.catch(() => {
        if (entries.get(key) === kept) entries.delete(key);
      });
      return kept.value;
    },
  };
}

const principalKeys = new WeakMap<Principal, string>();

/** A text naming everything about a principal that what they read may depend on. */
export function principalKey(principal: Principal): string {
  let key = principalKeys.get(principal);
  if (key === undefined) {
    const { account } = principal;
    key = [account.id, account.locale, principal.isAdmin, [...principal.roles].sort().join(","), [...principal.groups].sort().join(",")].join("\u0000");
    principalKeys.set(principal, key);
  }
  return key;
}
