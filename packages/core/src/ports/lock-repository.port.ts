import type { ElementLock } from "../elements/element-lock.ts";

/**
 * The locks on lineages, one at most per lineage (by initid). Writes belong in a transaction
 * (`Store.transaction`), where the lock is read and checked first: two nodes taking the same
 * lock at once leave one holder.
 */
export interface LockRepository {
  /** The lock on a lineage, if any. */
  byElement(initid: number): Promise<ElementLock | undefined>;
  /** The locks on those of these lineages that have one, in no particular order. */
  byElements(initids: readonly number[]): Promise<ElementLock[]>;
  /** Sets the lock of its lineage, replacing the one it had. */
  save(lock: ElementLock): Promise<void>;
  /** Removes the lock of a lineage; false when it had none. */
  remove(initid: number): Promise<boolean>;
}
