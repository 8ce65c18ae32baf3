import { statement, type SqlClient } from "./sql-client.ts";

/**
 * How many keys each kind of lock is spread over. A transaction that touches a lineage locks its
 * key until it ends; keys are buckets so that a transaction touching every element (a bundle
 * import) holds a bounded number of locks (PostgreSQL's lock table is of fixed size), at the price
 * of two lineages of one bucket waiting for each other now and then.
 */
const BUCKETS = 256;
/** The first key of these advisory locks: out of the holds' range (change-horizon.ts). */
const LOCK_CLASS = 1279918080;

const TAKE = statement(
  `select count(pg_advisory_xact_lock(${LOCK_CLASS}, k)) from (select distinct k from unnest($1::int[]) as k order by k) as keys`,
);

/** The keys a write transaction locks before it reads what it may change, so that concurrent writers of one thing take turns. */
export interface TransactionLocks {
  /**
   * Locks the keys this transaction does not hold yet, with its next statement (sql-client.ts,
   * `defer`: the read it guards, made after the lock in one round trip); answers true when it
   * locked some (a read made before must be made again).
   */
  take(keys: readonly number[]): Promise<boolean>;
  /** False outside a transaction: reads of committed data lock nothing. */
  readonly active: boolean;
}

/** The locks of one transaction, taken in key order (two transactions never wait for each other in a circle within one call). */
export function createTransactionLocks(sql: SqlClient): TransactionLocks {
  const held = new Set<number>();
  return {
    active: true,
    async take(keys) {
      const missing = keys.filter((key) => !held.has(key));
      if (missing.length === 0) return false;
      await sql.defer(TAKE, [missing]);
      for (const key of missing) held.add(key);
      return true;
    },
  };
}

/** Outside transactions. */
export const NO_LOCKS: TransactionLocks = { active: false, take: () => Promise.resolve(false) };

/** The key of a lineage, by its initid. */
export const lineageKey = (initid: number): number => initid % BUCKETS;
/** The key of a logical name, looked up or taken. */
export const nameKey = (name: string): number => BUCKETS + (textHash(name) % BUCKETS);
/** The key of an import key. */
export const importKey = (key: string): number => 2 * BUCKETS + (textHash(key) % BUCKETS);
/** Every key of lineages, names and import keys. */
export const ALL_ELEMENT_KEYS: readonly number[] = Array.from({ length: 3 * BUCKETS }, (_, key) => key);
/** The key of a vault file's content and name. */
export const vaultKey = (sha256: string, name: string): number => 3 * BUCKETS + (textHash(`${sha256}/${name}`) % BUCKETS);

/** FNV-1a, 32 bits: spreads texts over the buckets. */
function textHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * Reads through the transaction's locks: locks `first` (the keys known before the read), reads,
 * then locks the keys of what was read (`keysOf`) and reads again while that locked new ones, since
 * what was read before a lock may have changed before it was taken. Outside a transaction, reads once.
 */
export async function lockedRead<T>(locks: TransactionLocks, first: readonly number[], read: () => Promise<T>, keysOf: (result: T) => readonly number[]): Promise<T> {
  if (!locks.active) return read();
  await locks.take(first);
  let result = await read();
  while (await locks.take(keysOf(result))) result = await read();
  return result;
}
