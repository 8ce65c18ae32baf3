import type { Account } from "../accounts/account.ts";
import type { AccountRepository, NewAccount } from "../ports/account-repository.port.ts";
import type { MemoryContext } from "./memory-context.ts";
import { freeze, frozenCopy } from "./memory-tables.ts";

/** The memory store's accounts, roles and groups (in the order first saved); every write raises the definitions counter. */
export function createMemoryAccountRepository({ tables, nextId, definitionsWritten }: MemoryContext): AccountRepository {
  const all = () => [...tables.accounts.values()];
  return {
    async byLogin(login) {
      return tables.accounts.get(login);
    },
    async byId(id) {
      return all().find((a) => a.id === id);
    },
    async byIds(ids) {
      const wanted = new Set(ids);
      return all().filter((a) => wanted.has(a.id));
    },
    async list() {
      return all().sort((a, b) => a.id - b.id);
    },
    async saveAccount(account) {
      definitionsWritten();
      const id = tables.accounts.get(account.login)?.id ?? nextId("account");
      const stored = toAccount(id, account);
      tables.accounts.set(account.login, stored);
      return stored;
    },
    async removeAccount(id) {
      const found = all().find((a) => a.id === id);
      if (!found) return false;
      definitionsWritten();
      tables.accounts.delete(found.login);
      return true;
    },
    async roles() {
      return [...tables.roles.values()];
    },
    async saveRole(role) {
      definitionsWritten();
      tables.roles.set(role.id, frozenCopy(role));
    },
    async groups() {
      return [...tables.groups.values()];
    },
    async saveGroup(group) {
      definitionsWritten();
      tables.groups.set(group.id, frozenCopy(group));
    },
  };
}

/** Picks the stored fields only: callers may pass a whole Account, id included. */
function toAccount(id: number, a: NewAccount): Account {
  return freeze({
    id, login: a.login, displayName: a.displayName, passwordHash: a.passwordHash, roles: [...a.roles],
    groups: [...a.groups], locale: a.locale, rights: [...a.rights], disabled: a.disabled,
  });
}
