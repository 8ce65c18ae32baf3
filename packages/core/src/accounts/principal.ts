import type { Profile, Permission } from "../access/profile.ts";
import { ADMIN_ROLE, type Account, type Group } from "./account.ts";

/** An authenticated account with its effective roles (its own and its groups'). */
export interface Principal {
  readonly account: Account;
  readonly roles: ReadonlySet<string>;
  readonly groups: ReadonlySet<string>;
  readonly isAdmin: boolean;
}

/** The principal of an account, given the groups it may belong to. */
export function principalOf(account: Account, groups: readonly Group[]): Principal {
  const memberOf = new Set(account.groups);
  const roles = new Set(account.roles);
  for (const group of groups) {
    if (memberOf.has(group.id)) for (const role of group.roles) roles.add(role);
  }
  return { account, roles, groups: memberOf, isAdmin: roles.has(ADMIN_ROLE) };
}

/** True when a grant entry (`role:ID`, `group:ID`, `user:LOGIN`) designates the principal. */
export function grantMatches(entry: string, principal: Principal): boolean {
  const colon = entry.indexOf(":");
  const kind = entry.slice(0, colon);
  const id = entry.slice(colon + 1);
  switch (kind) {
    case "role": return principal.roles.has(id);
    case "group": return principal.groups.has(id);
    case "user": return principal.account.login === id;
    default: return false;
  }
}

/** True when one of the entries designates the principal, or the principal is admin. */
export function isGranted(entries: readonly string[] | undefined, principal: Principal): boolean {
  return principal.isAdmin || (entries ?? []).some((entry) => grantMatches(entry, principal));
}

/** What the principal may do under a profile; no profile means no access control. */
export function permissionsUnder(profile: Profile | undefined, principal: Principal): ReadonlySet<Permission> {
  if (!profile || principal.isAdmin) return new Set(["view", "edit", "delete"]);
  const result = new Set<Permission>();
  for (const permission of ["view", "edit", "delete"] as const) {
    if (isGranted(profile.grants[permission], principal)) result.add(permission);
  }
  return result;
}

/**
 * True when the principal may create elements of a structure under this profile through the API:
 * its `create` grant, or its `edit` grant when it has none (bundle.md); no profile, anyone.
 */
export function mayCreateUnder(profile: Profile | undefined, principal: Principal): boolean {
  if (!profile || principal.isAdmin) return true;
  return isGranted(profile.grants.create ?? profile.grants.edit, principal);
}

/** A stable text naming a set of permissions: the rights-vector part of ETags. */
export function rightsVector(permissions: ReadonlySet<Permission>): string {
  return ["view", "edit", "delete"].map((p) => (permissions.has(p as Permission) ? p[0] : "-")).join("");
}
