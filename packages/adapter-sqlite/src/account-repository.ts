import { eq, sql } from "drizzle-orm";
import type { BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import type { Account, AccountRepository, Group, NewAccount, Role } from "@lineage/core";
import type { DefinitionsCounter } from "./definitions-counter.ts";
import { accounts, groups, roles } from "./schema.ts";

/**
 * Accounts, roles and groups; roles and groups keep the order they were first saved in. Every
 * write raises the definitions counter: principals are cached by it.
 */
export function createAccountRepository(db: BetterSQLite3Database, counter: DefinitionsCounter): AccountRepository {
  const byLogin = db.select().from(accounts).where(eq(accounts.login, sql.placeholder("login"))).prepare();
  const byId = db.select().from(accounts).where(eq(accounts.id, sql.placeholder("id"))).prepare();
  const byIds = db.select().from(accounts).where(sql`${accounts.id} in (select value from json_each(${sql.placeholder("ids")}))`).prepare();
  // An upsert keeps the rowid of a replaced row, so rowid order is first-saved order.
  const firstSaved = sql`rowid`;
  const all = db.select().from(accounts).orderBy(accounts.id).prepare();
  const allRoles = db.select().from(roles).orderBy(firstSaved).prepare();
  const allGroups = db.select().from(groups).orderBy(firstSaved).prepare();

  return {
    async byLogin(login) {
      return byLogin.get({ login });
    },
    async byId(id) {
      return byId.get({ id });
    },
    async byIds(ids) {
      return ids.length === 0 ? [] : byIds.all({ ids: JSON.stringify(ids) });
    },
    async list() {
      return all.all();
    },
    async saveAccount(account) {
      const row = columns(account);
      counter.raise();
      // Look up then update or insert: an upsert would burn an AUTOINCREMENT id on every replacement.
      const existing = byLogin.get({ login: row.login });
      if (!existing) return db.insert(accounts).values(row).returning().get();
      db.update(accounts).set(row).where(eq(accounts.id, existing.id)).run();
      return { ...row, id: existing.id } satisfies Account;
    },
    async removeAccount(id) {
      const { changes } = db.delete(accounts).where(eq(accounts.id, id)).run();
      if (changes > 0) counter.raise();
      return changes > 0;
    },
    async roles() {
      return allRoles.all().map(({ id, label }): Role => (label === null ? { id } : { id, label }));
    },
    async saveRole(role) {
      counter.raise();
      const label = role.label ?? null;
      db.insert(roles).values({ id: role.id, label }).onConflictDoUpdate({ target: roles.id, set: { label } }).run();
    },
    async groups() {
      return allGroups.all().map(({ id, label, roles }): Group => (label === null ? { id, roles } : { id, label, roles }));
    },
    async saveGroup(group) {
      counter.raise();
      const row = { label: group.label ?? null, roles: group.roles };
      db.insert(groups).values({ id: group.id, ...row }).onConflictDoUpdate({ target: groups.id, set: row }).run();
    },
  };
}

/** Picks the stored fields only: callers may pass a whole Account, id included. */
function columns(a: NewAccount): NewAccount {
  return {
    login: a.login, displayName: a.displayName, passwordHash: a.passwordHash, roles: a.roles, groups: a.groups,
    locale: a.locale, rights: a.rights, disabled: a.disabled,
  };
}
