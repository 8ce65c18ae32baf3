import type { Account, Group, Role } from "../accounts/account.ts";

export type NewAccount = Omit<Account, "id">;

/** Users, roles and groups. */
export interface AccountRepository {
  byLogin(login: string): Account | undefined;
  byId(id: number): Account | undefined;
  /** Creates the account, or replaces the one with the same login (keeping its id). */
  saveAccount(account: NewAccount): Account;
  roles(): Role[];
  saveRole(role: Role): void;
  groups(): Group[];
  saveGroup(group: Group): void;
}
