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

const GRANT = /^(role|group|user):(.+)$/;

/** A grant (role:ID, group:ID or user:LOGIN) names a known role, group or user. */
export function checkGrant(entry: string, path: string, known: Known, report: Report): void {
  const match = GRANT.exec(entry);
  if (!match) return report(path, `"${entry}" is not role:ID, group:ID or user:LOGIN`);
  const [, kind, id = ""] = match;
  if (kind === "role" && !known.role(id)) report(path, `unknown role "${id}"`);
  if (kind === "group" && !known.group(id)) report(path, `unknown group "${id}"`);
  if (kind === "user" && !known.user(id)) report(path, `unknown user "${id}"`);
}
