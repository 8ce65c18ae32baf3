/** Tuning of the brute-force slowdown. */
export interface ThrottleOptions {
  /** Failures answered without delay; 2 by default (a typo or two cost nothing). */
  readonly freeFailures?: number;
  /** Delay after the first failure beyond the free ones (ms), doubled with each further failure; 250 by default. */
  readonly baseDelayMs?: number;
  /** The most a request is delayed (ms); 5000 by default. */
  readonly maxDelayMs?: number;
  /** Failures older than this are forgotten (ms); 15 minutes by default. */
  readonly windowMs?: number;
  /** Keys remembered at most; the least recently failed go first. 10000 by default. */
  readonly maxEntries?: number;
}

/**
 * Counts failed logins and token uses per key (an account, a client
 * address) and says how long to delay the next attempt on those keys.
 * Memory is bounded, and nothing here sleeps: callers await the delay.
 */
export interface LoginThrottle {
  /** The delay (ms) to apply before answering an attempt on these keys: the worst of them. */
  delayMs(keys: readonly string[], now: number): number;
  failed(keys: readonly string[], now: number): void;
  /** Forgets the failures of these keys (after a success). */
  reset(keys: readonly string[]): void;
  /** How many keys are remembered (for tests and metrics). */
  readonly size: number;
}

/** The throttle keys of an attempt: the account (case-insensitive) and the client address. */
export function throttleKeys(login: string | undefined, clientAddress: string): string[] {
  return [...(login === undefined ? [] : [`account:${login.toLowerCase()}`]), `address:${clientAddress}`];
}

/** A throttle with exponential delays per key, in memory. */
export function createLoginThrottle(options: ThrottleOptions = {}): LoginThrottle {
  const free = options.freeFailures ?? 2;
  const base = options.baseDelayMs ?? 250;
  const max = options.maxDelayMs ?? 5000;
  const windowMs = options.windowMs ?? 15 * 60_000;
  const maxEntries = options.maxEntries ?? 10_000;
  const entries = new Map<string, { failures: number; last: number }>();

  const failuresOf = (key: string, now: number) => {
    const entry = entries.get(key);
    if (!entry) return 0;
    if (now - entry.last > windowMs) {
      entries.delete(key);
      return 0;
    }
    return entry.failures;
  };
  // Map order is least recently failed first: the head goes when the map is full.
  const makeRoom = () => {
    for (const key of entries.keys()) {
      if (entries.size < maxEntries) return;
      entries.delete(key);
    }
  };

  return {
    delayMs(keys, now) {
      if (entries.size === 0) return 0;
      const failures = Math.max(0, ...keys.map((key) => failuresOf(key, now)));
      const paid = failures - Math.max(free, 1);
      return paid < 0 ? 0 : Math.min(max, base * 2 ** Math.min(paid, 30));
    },
    failed(keys, now) {
      for (const key of keys) {
        const failures = failuresOf(key, now) + 1;
        entries.delete(key);
        makeRoom();
        entries.set(key, { failures, last: now });
      }
    },
    reset(keys) {
      for (const key of keys) entries.delete(key);
    },
    get size() {
      return entries.size;
    },
  };
}
