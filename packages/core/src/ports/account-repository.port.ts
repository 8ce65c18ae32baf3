import type { Account, Group, Role } from "../accounts/account.ts";

export type NewAccount = Omit<Account, "id">;

/** Users, roles and groups. */
export interface AccountRepository {
  byLogin(login: string): Promise<Account | undefined>;
  byId(id: number): Promise<Account | undefined>;
  /** The accounts of these ids that exist, in no particular order. */
  byIds(ids: readonly number[]): Promise<Account[]>;
  /** Every account, by ascending id. */
  list(): Promise<Account[]>;
  /** Creates the account, or replaces the one with the same login (keeping its id). */
  saveAccount(account: NewAccount): Promise<Account>;
  /** Deletes the account of this id; true when it existed. Its sessions and tokens are the caller's to end. */
  removeAccount(id: number): Promise<boolean>;
  roles(): Promise<Role[]>;
  saveRole(role: Role): Promise<void>;
  groups(): Promise<Group[]>;
  saveGroup(group: Group): Promise<void>;
}
