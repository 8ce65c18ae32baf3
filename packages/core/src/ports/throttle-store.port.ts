/** The failures counted under one throttle key (an account, a client). */
export interface ThrottleRecord {
  readonly failures: number;
  /** When the last of them was counted (ms since the epoch). */
  readonly lastFailureAt: number;
}

/**
 * Where the login throttle counts failures. The rules (what a count means)
 * live in the core's LoginThrottle; a store only counts, atomically, so that
 * several nodes sharing one store count together. A key's failures are
 * forgotten `windowMs` after its last one. In memory by default
 * (createMemoryThrottleStore); a shared store needs one table keyed by the
 * key, and `fail` is then one upsert:
 *
 *   INSERT INTO throttle (key, failures, last_failure_at) VALUES ($1, 1, $now)
 *   ON CONFLICT (key) DO UPDATE SET
 *     failures = CASE WHEN throttle.last_failure_at < $now - $window THEN 1 ELSE throttle.failures + 1 END,
 *     last_failure_at = $now
 *   RETURNING failures, last_failure_at
 *
 * `throttleStoreContract` of `@lineage/core/testing` checks an implementation.
 */
export interface ThrottleStore {
  /** The records of these keys, by index; none (undefined, or a shorter array) for a key without failures in the window. */
  read(keys: readonly string[], now: number, windowMs: number): Promise<ReadonlyArray<ThrottleRecord | undefined>>;
  /** Counts one failure under each key and answers the records after it; a key whose last failure is out of the window starts again at one. */
  fail(keys: readonly string[], now: number, windowMs: number): Promise<readonly ThrottleRecord[]>;
  /** Forgets these keys. */
  forget(keys: readonly string[]): Promise<void>;
  /**
   * Optional: what `read` answers, without waiting, for a store held in this process. With it a
   * correct password costs no await and no store round trip.
   */
  peek?(keys: readonly string[], now: number, windowMs: number): ReadonlyArray<ThrottleRecord | undefined>;
}
