import type { ElementRevision } from "./smart-element.ts";

/**
 * A lock on a lineage (the original's `locked`): one account holds it, and no one else may change
 * the element while it is held. A permanent lock stays until released; a temporary lock is the
 * one an editing form takes (the original's automatic lock), released on its own route.
 */
export interface ElementLock {
  readonly initid: number;
  readonly accountId: number;
  readonly temporary: boolean;
  /** ISO 8601 date-time. */
  readonly lockedAt: string;
}

/** Which lock a route names: `/locks/permanent`, `/locks/temporary`, or every lock (`/locks/`). */
export type LockKind = "permanent" | "temporary" | "all";

/**
 * The `locked` property as the original gives it: -1 for a fixed revision, 0 when unlocked, the
 * holder's account id for a permanent lock, its opposite for a temporary one.
 */
export function lockedProperty(revision: ElementRevision, lock: ElementLock | undefined): number {
  if (revision.fixed) return -1;
  if (!lock) return 0;
  return lock.temporary ? -lock.accountId : lock.accountId;
}

/** True when a lock is held by someone other than this account. */
export function lockedByOther(lock: ElementLock | undefined, accountId: number): lock is ElementLock {
  return lock !== undefined && lock.accountId !== accountId;
}
