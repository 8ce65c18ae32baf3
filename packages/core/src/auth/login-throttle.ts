import type { ThrottleRecord, ThrottleStore } from "../ports/throttle-store.port.ts";
import { createMemoryThrottleStore } from "./memory-throttle-store.ts";
import { throttleKeys, type ThrottleKeys } from "./throttle-keys.ts";

/** The rules of the brute-force defence, and where failures are counted. Every key has a default. */
export interface ThrottleOptions {
  /** Where failures are counted; this process's memory by default. Nodes sharing one store count together. */
  readonly store?: ThrottleStore;
  /** Failures of one login, from any clients, before it is locked; 5 by default. */
  readonly freeFailures?: number;
  /** The lock (ms) after the first failure beyond the free ones, doubled with each further one; 1000 by default. */
  readonly baseLockMs?: number;
  /** The longest lock of a login (ms): the most its owner waits once the failures stop; 60000 by default. */
  readonly maxLockMs?: number;
  /** Failures from one client, on any logins, answered without delay; 10 by default. */
  readonly clientFreeFailures?: number;
  /** Delay (ms) of the answer to a client's first failure beyond its free ones, doubled with each further one; 250 by default. */
  readonly baseDelayMs?: number;
  /** The longest such delay (ms); 5000 by default. */
  readonly maxDelayMs?: number;
  /** Failures from one client after which every attempt from it is refused, until its failures are forgotten; 100 by default. */
  readonly clientLimit?: number;
  /** Failures are forgotten this long (ms) after their key's last one; 15 minutes by default. */
  readonly windowMs?: number;
  /** Keys the default in-memory store remembers at most (the least recently failed go first); 10000 by default. */
  readonly maxEntries?: number;
}

/** Why an attempt is refused before its credentials are checked. */
export type ThrottleReason = "account-locked" | "client-blocked";

/** The throttle's word on an attempt, before its credentials are checked. */
export type ThrottleDecision =
  | { readonly refused: false; readonly keys: ThrottleKeys; readonly accountFailures: number }
  | { readonly refused: true; readonly keys: ThrottleKeys; readonly reason: ThrottleReason; readonly retryAfterMs: number };

/**
 * The brute-force defence (OWASP: per account and per client, never a long
 * lock-out). Failures are counted per login and per client:
 * - a login past its free failures is locked, for any client, for a time
 *   that doubles with each failure up to `maxLockMs`; attempts on it are
 *   refused meanwhile, right password or not, without being checked;
 * - a client past its free failures has each further failure answered
 *   later, and past `clientLimit` failures every attempt from it is refused;
 * - a correct password on a login that is not locked, from a client that is
 *   not blocked, is never delayed, whatever other logins the client failed.
 * Nothing here sleeps or does I/O itself: the store counts, callers wait.
 */
export interface LoginThrottle {
  /** Whether an attempt may be checked now; synchronous when the store holds its counts in this process. */
  admit(login: string | undefined, clientAddress: string, now: number): ThrottleDecision | Promise<ThrottleDecision>;
  /** Counts a failed attempt; answers how long (ms) its answer should wait. */
  failed(keys: ThrottleKeys, now: number): Promise<number>;
  /** Forgets the failures of the login of an admitted attempt whose password was right; undefined when there were none to forget. */
  succeeded(decision: ThrottleDecision): Promise<void> | undefined;
}

/** The login throttle over a store (this process's memory by default). */
export function createLoginThrottle(options: ThrottleOptions = {}): LoginThrottle {
  const freeFailures = options.freeFailures ?? 5;
  const baseLockMs = options.baseLockMs ?? 1000;
  const maxLockMs = options.maxLockMs ?? 60_000;
  const clientFreeFailures = options.clientFreeFailures ?? 10;
  const baseDelayMs = options.baseDelayMs ?? 250;
  const maxDelayMs = options.maxDelayMs ?? 5000;
  const clientLimit = options.clientLimit ?? 100;
  const windowMs = options.windowMs ?? 15 * 60_000;
  const store = options.store ?? createMemoryThrottleStore(options.maxEntries === undefined ? {} : { maxEntries: options.maxEntries });

  // The client first: a token attempt has no account.
  const keyList = (keys: ThrottleKeys) => (keys.account === undefined ? [keys.client] : [keys.client, keys.account]);
  const decide = (keys: ThrottleKeys, records: ReadonlyArray<ThrottleRecord | undefined>, now: number): ThrottleDecision => {
    const client = records[0];
    const account = records[1];
    const blockedUntil = client && client.failures >= clientLimit ? client.lastFailureAt + windowMs : 0;
    const lockedUntil = account ? account.lastFailureAt + growing(account.failures - freeFailures, baseLockMs, maxLockMs) : 0;
    if (blockedUntil <= now && lockedUntil <= now) return { refused: false, keys, accountFailures: account?.failures ?? 0 };
    return blockedUntil >= lockedUntil
      ? { refused: true, keys, reason: "client-blocked", retryAfterMs: blockedUntil - now }
      : { refused: true, keys, reason: "account-locked", retryAfterMs: lockedUntil - now };
  };

  return {
    admit(login, clientAddress, now) {
      const keys = throttleKeys(login, clientAddress);
      if (store.peek) return decide(keys, store.peek(keyList(keys), now, windowMs), now);
      return store.read(keyList(keys), now, windowMs).then((records) => decide(keys, records, now));
    },
    async failed(keys, now) {
      const [client] = await store.fail(keyList(keys), now, windowMs);
      return client ? growing(client.failures - clientFreeFailures, baseDelayMs, maxDelayMs) : 0;
    },
    succeeded(decision) {
      const { account } = decision.keys;
      return !decision.refused && decision.accountFailures > 0 && account !== undefined ? store.forget([account]) : undefined;
    },
  };
}

/** 0 up to the free count, then `base` doubled with each one more, up to `max`. */
function growing(beyondFree: number, base: number, max: number): number {
  return beyondFree <= 0 ? 0 : Math.min(max, base * 2 ** Math.min(beyondFree - 1, 30));
}
