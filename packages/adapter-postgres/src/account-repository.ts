import type { Account, AccountRepository, Group, HttpRight, NewAccount, Role } from "@lineage/core";
import type { DefinitionsCounter } from "./definitions-counter.ts";
import { statement, type SqlClient } from "./sql-client.ts";
import { storableText } from "./storable-text.ts";

const COLUMNS = "id, login, display_name, password_hash, roles, groups, locale, rights, disabled";
const BY_LOGIN = statement(`select ${COLUMNS} from accounts where login = $1`);
const BY_ID = statement(`select ${COLUMNS} from accounts where id = $1`);
const BY_IDS = statement(`select ${COLUMNS} from accounts where id = any($1::int[])`);
const ALL = statement(`select ${COLUMNS} from accounts order by id`);
const UPSERT = statement(
  `insert into accounts (login, display_name, password_hash, roles, groups, locale, rights, disabled) values ($1, $2, $3, $4, $5, $6, $7, $8)
   on conflict (login) do update set display_name = excluded.display_name, password_hash = excluded.password_hash,
   roles = excluded.roles, groups = excluded.groups, locale = excluded.locale, rights = excluded.rights, disabled = excluded.disabled
   returning ${COLUMNS}`,
);
const REMOVE = statement("delete from accounts where id = $1");
const ROLES = statement("select id, label from roles order by seq");
const UPSERT_ROLE = statement("insert into roles (id, label) values ($1, $2) on conflict (id) do update set label = excluded.label");
const GROUPS = statement("select id, label, roles from groups order by seq");
const UPSERT_GROUP = statement(
  "insert into groups (id, label, roles) values ($1, $2, $3) on conflict (id) do update set label = excluded.label, roles = excluded.roles",
);

/**
 * Accounts, roles and groups; roles and groups keep the order they were first saved in. Every
 * write raises the definitions counter: principals are cached by it.
 */
export function createAccountRepository(sql: SqlClient, counter: DefinitionsCounter): AccountRepository {
  const one = async (s: typeof BY_ID, key: unknown) => {
    const [row] = await sql.rows(s, [key]);
    return row && toAccount(row);
  };
  return {
    byLogin: async (login) => (storableText(login) ? one(BY_LOGIN, login) : undefined),
    byId: (id) => one(BY_ID, id),
    async byIds(ids) {
      return ids.length === 0 ? [] : (await sql.rows(BY_IDS, [ids])).map(toAccount);
    },
    async list() {
      return (await sql.rows(ALL)).map(toAccount);
    },
    async saveAccount(account) {
      const a: NewAccount = account;
      await counter.raise();
      const [row] = await sql.rows(UPSERT, [
        a.login, a.displayName, a.passwordHash, JSON.stringify(a.roles), JSON.stringify(a.groups), a.locale, JSON.stringify(a.rights), a.disabled,
      ]);
      return toAccount(row!);
    },
    async removeAccount(id) {
      const removed = (await sql.run(REMOVE, [id])) > 0;
      if (removed) await counter.raise();
      return removed;
    },
    async roles() {
      return (await sql.rows(ROLES)).map(([id, label]): Role => (label === null ? { id: id as string } : { id: id as string, label: label as Role["label"] }));
    },
    async saveRole(role) {
      await counter.raise();
      await sql.run(UPSERT_ROLE, [role.id, role.label === undefined ? null : JSON.stringify(role.label)]);
    },
    async groups() {
      return (await sql.rows(GROUPS)).map(([id, label, roles]): Group => label === null
        ? { id: id as string, roles: roles as string[] }
        : { id: id as string, label: label as Group["label"], roles: roles as string[] });
    },
    async saveGroup(group) {
      await counter.raise();
      await sql.run(UPSERT_GROUP, [group.id, group.label === undefined ? null : JSON.stringify(group.label), JSON.stringify(group.roles)]);
    },
  };
}

function toAccount(row: unknown[]): Account {
  return {
    id: row[0] as number, login: row[1] as string, displayName: row[2] as string, passwordHash: row[3] as string | null,
    roles: row[4] as string[], groups: row[5] as string[], locale: row[6] as string, rights: row[7] as HttpRight[],
    disabled: row[8] as boolean,
  };
}
