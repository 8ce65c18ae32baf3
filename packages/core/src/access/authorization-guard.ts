import type { HttpRight } from "../accounts/account.ts";
import type { Principal } from "../accounts/principal.ts";
import { LineageError } from "../errors/lineage-error.ts";

/** What a guarded route or use case requires: any of these roles (admin always passes), and/or a global right. */
export interface AccessRequirement {
  /** Named in the refusal (ROUTES0131): the route or use case. */
  readonly route: string;
  readonly anyRole?: readonly string[];
  readonly right?: HttpRight;
}

/** True when the principal holds one of the roles (admin holds them all). */
export function hasAnyRole(principal: Principal, roles: readonly string[]): boolean {
  return principal.isAdmin || roles.some((role) => principal.roles.has(role));
}

/** True when the account holds the global HTTPAPI right (PUT, POST, GET, DELETE). */
export function hasRight(principal: Principal, right: HttpRight): boolean {
  return principal.account.rights.includes(right);
}

/**
 * Refuses with 403 ROUTES0131 (the original's route ACL text) unless the
 * principal meets the requirement. For routes and use cases that need a
 * named role, such as fullsearch_administrator or dashboard-admin.
 * @example
 * requireAccess(principal, { route: "admin::fullsearch", anyRole: ["fullsearch_administrator"] });
 */
export function requireAccess(principal: Principal, requirement: AccessRequirement): void {
  const { route, anyRole, right } = requirement;
  if (anyRole && anyRole.length > 0 && !hasAnyRole(principal, anyRole)) {
    throw new LineageError("ROUTES0131", [route, `OR:${anyRole.join(",")}`]);
  }
  if (right && !hasRight(principal, right)) throw new LineageError("ROUTES0131", [route, right]);
}
