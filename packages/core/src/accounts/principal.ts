import { OWNER_GRANT, type Profile, type Permission } from "../access/profile.ts";
import { ADMIN_ROLE, HTTP_RIGHTS, type Account, type Group, type HttpRight } from "./account.ts";

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

/**
 * True when a grant entry designates the principal: `role:ID`, `group:ID`, `user:LOGIN`,
 * `right:METHOD` (every account holding that global HTTP API right), or `owner` (the owner of the
 * element the grant is checked for: `owner`, an account id; undefined where there is no element).
 */
export function grantMatches(entry: string, principal: Principal, owner?: number): boolean {
  if (entry === OWNER_GRANT) return owner !== undefined && owner === principal.account.id;
  const colon = entry.indexOf(":");
  const kind = entry.slice(0, colon);
  const id = entry.slice(colon + 1);
  switch (kind) {
    case "role": return principal.roles.has(id);
    case "group": return principal.groups.has(id);
    case "user": return principal.account.login === id;
    case "right": return isHttpRight(id) && principal.account.rights.includes(id);
    default: return false;
  }
}

const isHttpRight = (id: string): id is HttpRight => (HTTP_RIGHTS as readonly string[]).includes(id);

/** True when one of the entries designates the principal (`owner`: the element's owner, see grantMatches), or the principal is admin. */
export function isGranted(entries: readonly string[] | undefined, principal: Principal, owner?: number): boolean {
  return principal.isAdmin || (entries ?? []).some((entry) => grantMatches(entry, principal, owner));
}

/**
 * What the principal may do under a profile with an element owned by `owner` (an account id;
 * undefined: no element, so `owner` entries grant nothing); no profile means no access control.
 */
export function permissionsUnder(profile: Profile | undefined, principal: Principal, owner?: number): ReadonlySet<Permission> {
  if (!profile || principal.isAdmin) return new Set(["view", "edit", "delete"]);
  const result = new Set<Permission>();
  for (const permission of ["view", "edit", "delete"] as const) {
    if (isGranted(profile.grants[permission], principal, owner)) result.add(permission);
  }
  return result;
}

/**
 * True when the principal may create elements of a structure under this profile through the API:
 * its `create` grant, or its `edit` grant when it has none (bundle.md); no profile, anyone. An
 * `owner` entry grants it: the element made is its creator's.
 */
export function mayCreateUnder(profile: Profile | undefined, principal: Principal): boolean {
  if (!profile || principal.isAdmin) return true;
  return isGranted(profile.grants.create ?? profile.grants.edit, principal, principal.account.id);
}

/** A stable text naming a set of permissions: the rights-vector part of ETags. */
export function rightsVector(permissions: ReadonlySet<Permission>): string {
  return ["view", "edit", "delete"].map((p) => (permissions.has(p as Permission) ? p[0] : "-")).join("");
}
