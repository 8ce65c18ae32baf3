/**
 * Answers kept for `ttlMs` by key, counted from their arrival. Callers asking
 * while an answer is on its way share it (also with a ttl of 0); a failure is
 * not kept, so the next caller asks again.
 */
export interface AnswerCache {
  get<T>(key: string, load: () => Promise<T>): Promise<T>;
}

interface Entry {
  readonly value: Promise<unknown>;
  /** When the answer goes stale; Infinity while it is on its way. */
  until: number;
}

/** An AnswerCache over a clock in milliseconds (`Date.now` by default). */
export function createAnswerCache(ttlMs: number, now: () => number = Date.now): AnswerCache {
  const entries = new Map<string, Entry>();
  return {
    get<T>(key: string, load: () => Promise<T>): Promise<T> {
      const found = entries.get(key);
      if (found && found.until > now()) return found.value as Promise<T>;
      for (const [stale, entry] of entries) if (entry.until <= now()) entries.delete(stale);
      const entry: Entry = { value: load(), until: Number.POSITIVE_INFINITY };
      entries.set(key, entry);
      entry.value.then(
        () => { entry.until = now() + ttlMs; },
        () => { if (entries.get(key) === entry) entries.delete(key); },
      );
      return entry.value as Promise<T>;
    },
  };
}
