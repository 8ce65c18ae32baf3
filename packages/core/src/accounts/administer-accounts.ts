import { requireAccess } from "../access/authorization-guard.ts";
import { LineageError } from "../errors/lineage-error.ts";
import type { PasswordHasher } from "../ports/password-hasher.port.ts";
import type { Repositories, Store } from "../ports/store.port.ts";
import { ADMIN_ROLE, type Account, type AddUserInput, type Group, type Role } from "./account.ts";
import { accountProblems, addUser, removeUser, setAccountDisabled, setPassword, type AccountRemoval } from "./manage-accounts.ts";
import { principalOf, type Principal } from "./principal.ts";

/*
 * Accounts administered by a person (the console's user pages): the command line's operations,
 * refused (403 ROUTES0131) to anyone but an administrator, and refused (400 ACCOUNT0002) when
 * they would lock the administrator doing them out: disabling or deleting their own account,
 * taking the admin role from themselves, or deleting the last administrator.
 */

/** What an administrator changes of an existing account; undefined keys stay as they are. */
export interface AccountEdit {
  readonly displayName?: string | undefined;
  readonly locale?: string | undefined;
  readonly roles?: readonly string[] | undefined;
  readonly groups?: readonly string[] | undefined;
}

/** The roles and groups an account may be given. */
export interface Memberships {
  readonly roles: Role[];
  readonly groups: Group[];
}

const requireAdmin = (principal: Principal) => requireAccess(principal, { route: "admin::accounts", anyRole: [ADMIN_ROLE] });

/** ACCOUNT0002 with one problem, at `path`, so that a form can show it at its field. */
const lockout = (path: string, message: string) => new LineageError("ACCOUNT0002", [`${path}: ${message}`], { data: { problems: [{ path, message }] } });

async function existing(store: Repositories, login: string): Promise<Account> {
  const account = await store.accounts.byLogin(login);
  if (!account) throw new LineageError("ACCOUNT0003", [login]);
  return account;
}

/** The roles and groups there are, for an administrator's forms (403 ROUTES0131 for others). */
export async function membershipsAs(store: Store, principal: Principal): Promise<Memberships> {
  requireAdmin(principal);
  const [roles, groups] = await Promise.all([store.accounts.roles(), store.accounts.groups()]);
  return { roles, groups };
}

/** One account, for an administrator (403 ROUTES0131 for others, 404 ACCOUNT0003 when there is none). */
export async function accountAs(store: Store, principal: Principal, login: string): Promise<Account> {
  requireAdmin(principal);
  return existing(store, login);
}

/** A new account made by an administrator; refused as `lineage user add` refuses one (ACCOUNT0001, ACCOUNT0002). */
export async function addAccountAs(store: Store, hasher: PasswordHasher, principal: Principal, input: AddUserInput): Promise<Account> {
  requireAdmin(principal);
  return addUser(store, hasher, input);
}

/** A new password set by an administrator; the account's sessions end. */
export async function setPasswordAs(store: Store, hasher: PasswordHasher, principal: Principal, login: string, password: string) {
  requireAdmin(principal);
  return setPassword(store, hasher, login, password);
}

/** Disables or enables an account for an administrator; never their own account disabled. */
export async function setDisabledAs(store: Store, principal: Principal, login: string, disabled: boolean) {
  requireAdmin(principal);
  if (disabled && login === principal.account.login) throw lockout("disabled", "you cannot disable your own account");
  return setAccountDisabled(store, login, disabled);
}

/**
 * Changes an account's display name, locale, roles and groups (checked as a bundle's user entry:
 * roles and groups that exist), in one transaction. An administrator cannot take the admin role
 * from themselves, directly or through a group.
 */
export async function editAccountAs(store: Store, principal: Principal, login: string, edit: AccountEdit): Promise<Account> {
  requireAdmin(principal);
  const current = await existing(store, login);
  const values = Object.fromEntries(Object.entries(edit).filter(([, value]) => value !== undefined)) as AccountEdit;
  const problems = await accountProblems(store, { login, ...values });
  if (problems.length > 0) {
    const first = problems[0]!;
    throw new LineageError("ACCOUNT0002", [`${first.path ? `${first.path}: ` : ""}${first.message}`], { data: { problems } });
  }
  if (values.displayName !== undefined && values.displayName.trim() === "") throw lockout("displayName", "a display name cannot be empty");
  return store.transaction(async (tx) => {
    const account = await existing(tx, login);
    const next: Account = {
      ...account,
      displayName: values.displayName?.trim() ?? account.displayName,
      locale: values.locale ?? account.locale,
      roles: [...(values.roles ?? account.roles)],
      groups: [...(values.groups ?? account.groups)],
    };
    if (current.login === principal.account.login && !principalOf(next, await tx.accounts.groups()).isAdmin) {
      throw lockout("roles", "you cannot take the admin role from yourself");
    }
    const { id: _id, ...saved } = next;
    return tx.accounts.saveAccount(saved);
  });
}

/**
 * Deletes an account for an administrator: its sessions and tokens end, the elements it owns stay.
 * Refused (ACCOUNT0002, at `remove`) for their own account and for the last enabled administrator.
 */
export async function removeAccountAs(store: Store, principal: Principal, login: string): Promise<AccountRemoval> {
  requireAdmin(principal);
  if (login === principal.account.login) throw lockout("remove", "you cannot delete your own account");
  const [account, accounts, groups] = await Promise.all([existing(store, login), store.accounts.list(), store.accounts.groups()]);
  const isAdmin = (candidate: Account) => !candidate.disabled && principalOf(candidate, groups).isAdmin;
  if (isAdmin(account) && !accounts.some((other) => other.id !== account.id && isAdmin(other))) {
    throw lockout("remove", "you cannot delete the last administrator");
  }
  return removeUser(store, login, { keepOwned: true });
}
