import { HTTP_RIGHTS } from "../../accounts/account.ts";
import { OWNER_GRANT } from "../../access/profile.ts";
import type { BundleView } from "./bundle-view.ts";
import type { Known } from "./known-names.ts";
import { duplicates, type Report } from "./problem-report.ts";

/** Roles, groups and users: unique identifiers, and the roles and groups they name known. */
export function checkAccounts(view: BundleView, known: Known, report: Report): void {
  duplicates(view.roles, (r) => r.id, "$.accounts.roles", "id", "role", report);
  duplicates(view.groups, (g) => g.id, "$.accounts.groups", "id", "group", report);
  duplicates(view.users, (u) => u.login, "$.accounts.users", "login", "login", report);
  view.groups.forEach((group, i) => {
    group?.roles?.forEach((role, k) => {
      if (!known.role(role)) report(`$.accounts.groups[${i}].roles[${k}]`, `unknown role "${role}"`);
    });
  });
  view.users.forEach((user, i) => {
    user?.roles?.forEach((role, k) => {
      if (!known.role(role)) report(`$.accounts.users[${i}].roles[${k}]`, `unknown role "${role}"`);
    });
    user?.groups?.forEach((group, k) => {
      if (!known.group(group)) report(`$.accounts.users[${i}].groups[${k}]`, `unknown group "${group}"`);
    });
  });
}

const GRANT = /^(role|group|user|right):(.+)$/;

/**
 * A grant entry names a known role, group or user (role:ID, group:ID, user:LOGIN), or a global
 * HTTP right (right:GET, PUT, POST or DELETE); in a profile, `owner` too (each element's owner).
 */
export function checkGrant(entry: string, path: string, known: Known, report: Report, { owner = false } = {}): void {
  if (entry === OWNER_GRANT) {
    if (!owner) report(path, `"owner" grants only in profiles (it names each element's owner)`);
    return;
  }
  const match = GRANT.exec(entry);
  if (!match) return report(path, `"${entry}" is not role:ID, group:ID, user:LOGIN, right:METHOD${owner ? " or owner" : ""}`);
  const [, kind, id = ""] = match;
  if (kind === "role" && !known.role(id)) report(path, `unknown role "${id}"`);
  if (kind === "group" && !known.group(id)) report(path, `unknown group "${id}"`);
  if (kind === "user" && !known.user(id)) report(path, `unknown user "${id}"`);
  if (kind === "right" && !(HTTP_RIGHTS as readonly string[]).includes(id)) report(path, `"${id}" is not a right: ${HTTP_RIGHTS.join(", ")}`);
}
