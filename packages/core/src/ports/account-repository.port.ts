import type { Account, Group, Role } from "../accounts/account.ts";

export type NewAccount = Omit<Account, "id">;

/** Users, roles and groups. */
export interface AccountRepository {
  byLogin(login: string): Promise<Account | undefined>;
  byId(id: number): Promise<Account | undefined>;
  /** The accounts of these ids that exist, in no particular order. */
  byIds(ids: readonly number[]): Promise<Account[]>;
  /** Creates the account, or replaces the one with the same login (keeping its id). */
  saveAccount(account: NewAccount): Promise<Account>;
  roles(): Promise<Role[]>;
  saveRole(role: Role): Promise<void>;
  groups(): Promise<Group[]>;
  saveGroup(group: Group): Promise<void>;
}
