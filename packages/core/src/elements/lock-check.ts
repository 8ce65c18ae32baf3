import type { LineageError } from "../errors/lineage-error.ts";
import type { RequestScope } from "../scope/request-scope.ts";
import { lockedByOther, type ElementLock } from "./element-lock.ts";
import type { ElementRevision } from "./smart-element.ts";

/**
 * Why the principal may not change an element, or undefined when they may: a lock someone else
 * holds, then the edit right (the original's canEdit).
 */
export function editRefusal(scope: RequestScope, element: ElementRevision, lock: ElementLock | undefined): string | undefined {
  if (lockedByOther(lock, scope.principal.account.id)) {
    const holder = scope.account(lock.accountId)?.displayName ?? String(lock.accountId);
    return lock.temporary
      ? `Element "${element.title}" is in edition by ${holder}`
      : `You are not allowed to update the element "${element.title}" (# ${element.initid}): it is locked by "${holder}"`;
  }
  return scope.permissions(element).has("edit") ? undefined : `Access not granted: no edit right on "${element.title}"`;
}

/** The lock of an element with its holder's account loaded, so that `editRefusal` and `lockInfo` can name them. */
export async function loadLock(scope: RequestScope, element: ElementRevision): Promise<ElementLock | undefined> {
  const lock = await scope.repos.locks.byElement(element.initid);
  if (lock) await scope.load({ accounts: [lock.accountId] });
  return lock;
}

/**
 * Refuses a change of an element locked by someone else: what PUT, DELETE and transitions check
 * inside their transaction. An administrator's change goes through, as the original's does.
 */
export async function refuseIfLockedByOther(scope: RequestScope, element: ElementRevision, refuse: (reason: string) => LineageError): Promise<void> {
  if (scope.principal.isAdmin) return;
  const lock = await loadLock(scope, element);
  if (!lockedByOther(lock, scope.principal.account.id)) return;
  throw refuse(editRefusal(scope, element, lock)!);
}
