import type { Clock } from "../ports/clock.port.ts";
import type { Deadline } from "../ports/store.port.ts";
import { LineageError } from "../errors/lineage-error.ts";
import type { RequestScope } from "../scope/request-scope.ts";
import type { ElementLock, LockKind } from "./element-lock.ts";
import { REVISIONS_RULES, locateElement } from "./locate-element.ts";
import type { ElementRevision } from "./smart-element.ts";
import { editRefusal, loadLock } from "./lock-check.ts";

/** What the lock routes answer (the original's lock information). */
export interface LockInfo {
  /** True when the reader may not change the element now: no edit right, or a lock held by someone else. */
  readonly readOnly: boolean;
  readonly uri: string;
  readonly lock: null | {
    readonly lockedBy: { readonly id: number; readonly title: string };
    readonly isMyLock: boolean;
    readonly temporary: boolean;
    readonly fixed: false;
  };
}

export interface LockOptions {
  /** The structure whose collection named the element (404 CRUD0220 when it is not of it). */
  readonly family?: string | undefined;
  readonly deadline?: Deadline | undefined;
}

/** The URI of a lock route: the kind's, or the collection's for every lock. */
function lockUri(element: ElementRevision, kind: LockKind): string {
  const base = `/api/v2/smart-elements/${element.name ?? element.initid}/locks/`;
  return kind === "all" ? base : `${base}${kind}`;
}

/** The lock information of an element as the principal sees it; `route` picks its URI: the kind held (`one`), or the collection's (`all`). */
function lockInfo(scope: RequestScope, element: ElementRevision, lock: ElementLock | undefined, route: "one" | "all"): LockInfo {
  const me = scope.principal.account.id;
  return {
    readOnly: editRefusal(scope, element, lock) !== undefined,
    uri: lockUri(element, route === "all" ? "all" : lock?.temporary ? "temporary" : "permanent"),
    lock: lock
      ? {
          // The holder was loaded with the lock (loadLock), unless the principal just took it.
          lockedBy: { id: lock.accountId, title: lock.accountId === me ? scope.principal.account.displayName : scope.account(lock.accountId)?.displayName ?? String(lock.accountId) },
          isMyLock: lock.accountId === me,
          temporary: lock.temporary,
          fixed: false,
        }
      : null,
  };
}

/** GET on a lock route: the lock information of an element the principal may view. */
export async function readLock(scope: RequestScope, ref: string, route: "one" | "all", options: LockOptions = {}): Promise<LockInfo> {
  const element = await locateElement(scope, ref, REVISIONS_RULES, options.family);
  return lockInfo(scope, element, await loadLock(scope, element), route);
}

/**
 * POST or PUT on `/locks/permanent` or `/locks/temporary`, in one transaction: 400 CRUD0231 when
 * someone else holds a lock or the principal may not edit. A permanent lock replaces the
 * principal's temporary one; a temporary lock is taken only where there is none (the original's
 * automatic lock), so it never weakens a permanent one.
 */
export function takeLock(scope: RequestScope, clock: Clock, ref: string, kind: "permanent" | "temporary", options: LockOptions = {}): Promise<LockInfo> {
  return scope.transaction(async (tx) => {
    const element = await locateElement(tx, ref, REVISIONS_RULES, options.family);
    const current = await loadLock(tx, element);
    const refusal = editRefusal(tx, element, current);
    if (refusal) throw new LineageError("CRUD0231", [refusal]);
    const temporary = kind === "temporary";
    if (current && (temporary || !current.temporary)) return lockInfo(tx, element, current, "one");
    const now = clock.now();
    const lock: ElementLock = { initid: element.initid, accountId: tx.principal.account.id, temporary, lockedAt: now.toISOString() };
    await tx.repos.locks.save(lock);
    return lockInfo(tx, element, lock, "one");
  }, { deadline: options.deadline });
}

/**
 * DELETE on a lock route, in one transaction. `/locks/temporary` refuses a permanent lock (400
 * CRUD0233) and `/locks/permanent` a temporary one (400 CRUD0234); `/locks/` releases either. Only
 * the holder who may still edit, or an administrator, releases a lock (400 CRUD0232 otherwise).
 */
export function releaseLock(scope: RequestScope, ref: string, kind: LockKind, options: LockOptions = {}): Promise<LockInfo> {
  return scope.transaction(async (tx) => {
    const element = await locateElement(tx, ref, REVISIONS_RULES, options.family);
    const current = await loadLock(tx, element);
    const route = kind === "all" ? "all" : "one";
    if (!current) return lockInfo(tx, element, undefined, route);
    if (kind === "temporary" && !current.temporary) throw new LineageError("CRUD0233", [element.title]);
    if (kind === "permanent" && current.temporary) throw new LineageError("CRUD0234", [element.title]);
    if (!tx.principal.isAdmin) {
      const refusal = editRefusal(tx, element, current);
      if (refusal) throw new LineageError("CRUD0232", [refusal]);
    }
    await tx.repos.locks.remove(element.initid);
    return lockInfo(tx, element, undefined, route);
  }, { deadline: options.deadline });
}
