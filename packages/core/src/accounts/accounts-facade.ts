import { currentAccount, type CurrentAccount } from "./current-account.ts";
import type { BundleProblem } from "../bundle/problems/bundle-check.ts";
import type { ChangeStamp } from "../ports/change-clock.port.ts";
import type { PlatformContext } from "../scope/platform-context.ts";
import type { Account, AddUserInput } from "./account.ts";
import { listAccountsAs } from "./administration.ts";
import { accountAs, addAccountAs, editAccountAs, membershipsAs, removeAccountAs, setDisabledAs, setPasswordAs, type AccountEdit, type Memberships } from "./administer-accounts.ts";
import { createPasswordAuthenticator } from "./authenticate.ts";
import { accountProblems, addUser, listUsers, removeUser, setAccountDisabled, setPassword, type AccountRemoval, type AccountValues } from "./manage-accounts.ts";
import type { Principal } from "./principal.ts";

/** What a change to an account ended. */
export interface AccountChange {
  readonly account: Account;
  readonly sessionsEnded: number;
}

/** Accounts: logins and passwords, principals, and their administration. */
export interface AccountsFacade {
  /** The principal for a login and password, or undefined; `stamp`, the change clock as the request saw it. */
  authenticate(login: string, password: string, stamp?: ChangeStamp): Promise<Principal | undefined>;
  /** The principal when this password was verified against this login's current password within `credentialCacheMs`, else undefined (no I/O). */
  rememberedPassword(login: string, password: string, stamp?: ChangeStamp): Principal | undefined;
  /** The principal of a login, or undefined when there is no such account. */
  principal(login: string, stamp?: ChangeStamp): Promise<Principal | undefined>;
  /** The principal of an account, with its current roles and groups. */
  principalOf(account: Account, stamp?: ChangeStamp): Promise<Principal>;
  /** The account of a login, or undefined. */
  find(login: string): Promise<Account | undefined>;
  /** A new account (ACCOUNT0001 when the login is taken). */
  add(input: AddUserInput): Promise<Account>;
  /** Every account, by id. */
  list(): Promise<Account[]>;
  /** Every account, for an administrator (403 ROUTES0131 for others). */
  listAs(principal: Principal): Promise<Account[]>;
  /** The principal's own account: login, display name, locale, effective roles and groups. */
  current(principal: Principal): CurrentAccount;
  /** What is wrong with account values, checked as a bundle's user entry is: each problem's path is the key (`roles[1]`). */
  problems(values: AccountValues): Promise<BundleProblem[]>;
  /** A new password for a login; its sessions end. */
  setPassword(login: string, password: string): Promise<AccountChange>;
  /** Disables a login (no authentication by any method, its sessions end) or enables it again. */
  setDisabled(login: string, disabled: boolean): Promise<AccountChange>;
  /** Removes a login with its sessions and tokens; refused (ACCOUNT0004) while it owns elements. */
  remove(login: string): Promise<AccountRemoval>;
  /** One account, for an administrator (403 ROUTES0131 for others, 404 ACCOUNT0003). */
  readAs(principal: Principal, login: string): Promise<Account>;
  /** The roles and groups accounts may be given, for an administrator. */
  membershipsAs(principal: Principal): Promise<Memberships>;
  /** `add`, by an administrator. */
  addAs(principal: Principal, input: AddUserInput): Promise<Account>;
  /** `setPassword`, by an administrator. */
  setPasswordAs(principal: Principal, login: string, password: string): Promise<AccountChange>;
  /** `setDisabled`, by an administrator, who cannot disable their own account (ACCOUNT0002). */
  setDisabledAs(principal: Principal, login: string, disabled: boolean): Promise<AccountChange>;
  /** Display name, locale, roles and groups, by an administrator, who cannot take the admin role from themselves (ACCOUNT0002). */
  editAs(principal: Principal, login: string, edit: AccountEdit): Promise<Account>;
  /** Deletes an account, by an administrator: its elements stay; never their own account nor the last administrator (ACCOUNT0002). */
  removeAs(principal: Principal, login: string): Promise<AccountRemoval>;
}

/** The accounts façade over a platform's context; verified passwords are remembered `credentialCacheMs` (60 s by default). */
export function createAccountsFacade(context: PlatformContext, credentialCacheMs?: number): AccountsFacade {
  const { store, hasher } = context;
  const passwords = createPasswordAuthenticator(store, context.definitions, hasher, context.clock, credentialCacheMs);
  return {
    authenticate: passwords.verify,
    rememberedPassword: passwords.remembered,
    principal: passwords.principalOfLogin,
    principalOf: passwords.principal,
    find: (login) => store.accounts.byLogin(login),
    add: (input) => addUser(store, hasher, input),
    list: () => listUsers(store),
    listAs: (principal) => listAccountsAs(store, principal),
    current: (principal) => currentAccount(principal),
    problems: (values) => accountProblems(store, values),
    setPassword: (login, password) => setPassword(store, hasher, login, password),
    setDisabled: (login, disabled) => setAccountDisabled(store, login, disabled),
    remove: (login) => removeUser(store, login),
    readAs: (principal, login) => accountAs(store, principal, login),
    membershipsAs: (principal) => membershipsAs(store, principal),
    addAs: (principal, input) => addAccountAs(store, hasher, principal, input),
    setPasswordAs: (principal, login, password) => setPasswordAs(store, hasher, principal, login, password),
    setDisabledAs: (principal, login, disabled) => setDisabledAs(store, principal, login, disabled),
    editAs: (principal, login, edit) => editAccountAs(store, principal, login, edit),
    removeAs: (principal, login) => removeAccountAs(store, principal, login),
  };
}
