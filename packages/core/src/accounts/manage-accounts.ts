import { checkBundle } from "../bundle/bundle-problems.ts";
import type { BundleProblem } from "../bundle/problems/bundle-check.ts";
import { LineageError } from "../errors/lineage-error.ts";
import type { PasswordHasher } from "../ports/password-hasher.port.ts";
import type { Store } from "../ports/store.port.ts";
import { HTTP_RIGHTS, type Account, type AddUserInput } from "./account.ts";

/** The values of an account as a bundle's `accounts.users` entry gives them; undefined keys are left out. */
export type AccountValues = Omit<AddUserInput, "disabled">;

const USER_ENTRY = "$.accounts.users[0]";

/**
 * What is wrong with account values, checked exactly as a bundle's user entry is (format, and roles
 * and groups that exist in the store): each problem's path is the key (`roles[1]`, `locale`).
 * @example
 * const problems = await accountProblems(store, { login: "dora", roles: ["nosuch"] }); // [{ path: "roles[0]", message: 'unknown role "nosuch"' }]
 */
export async function accountProblems(store: Store, values: AccountValues): Promise<BundleProblem[]> {
  const entry = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
  const { problems } = await checkBundle({ accounts: { users: [entry] } }, { store, readFile: () => undefined });
  return problems.map(({ path, message }) => ({ path: path.startsWith(USER_ENTRY) ? path.slice(USER_ENTRY.length).replace(/^\./, "") : path, message }));
}

/** ACCOUNT0002 naming the first problem, every problem in `data.problems`. */
function invalidAccount(problems: readonly BundleProblem[]): LineageError {
  const first = problems[0]!;
  return new LineageError("ACCOUNT0002", [`${first.path ? `${first.path}: ` : ""}${first.message}`], { data: { problems } });
}

async function checked(store: Store, values: AccountValues): Promise<void> {
  const problems = await accountProblems(store, values);
  if (problems.length > 0) throw invalidAccount(problems);
}

/** Adds an account (`lineage user add`); refuses an existing login, and values a bundle would refuse. */
export async function addUser(store: Store, hasher: PasswordHasher, input: AddUserInput): Promise<Account> {
  if (await store.accounts.byLogin(input.login)) throw new LineageError("ACCOUNT0001", [input.login]);
  const { disabled, ...values } = input;
  await checked(store, values);
  const passwordHash = input.password ? await hasher.hash(input.password) : null;
  return store.transaction(async (tx) => {
    if (await tx.accounts.byLogin(input.login)) throw new LineageError("ACCOUNT0001", [input.login]);
    return tx.accounts.saveAccount({
      login: input.login,
      displayName: input.displayName ?? input.login,
      passwordHash,
      roles: [...(input.roles ?? [])],
      groups: [...(input.groups ?? [])],
      locale: input.locale ?? "en",
      rights: [...(input.rights ?? HTTP_RIGHTS)],
      disabled: disabled === true,
    });
  });
}

/** Every account, by id (`lineage user list`). */
export function listUsers(store: Store): Promise<Account[]> {
  return store.accounts.list();
}

async function existing(accounts: Store["accounts"], login: string): Promise<Account> {
  const account = await accounts.byLogin(login);
  if (!account) throw new LineageError("ACCOUNT0003", [login]);
  return account;
}

/** Sets a new password (as a bundle checks one) and ends the account's sessions; returns how many ended. */
export async function setPassword(store: Store, hasher: PasswordHasher, login: string, password: string): Promise<{ account: Account; sessionsEnded: number }> {
  await existing(store.accounts, login);
  await checked(store, { login, password });
  const passwordHash = await hasher.hash(password);
  return store.transaction(async (tx) => {
    const account = await tx.accounts.saveAccount({ ...(await existing(tx.accounts, login)), passwordHash });
    return { account, sessionsEnded: await tx.sessions.deleteForAccount(account.id) };
  });
}

/**
 * Disables an account (no login by any method, its sessions ended, its tokens refused while it
 * stays disabled) or enables it again; returns how many sessions ended.
 */
export function setAccountDisabled(store: Store, login: string, disabled: boolean): Promise<{ account: Account; sessionsEnded: number }> {
  return store.transaction(async (tx) => {
    const account = await tx.accounts.saveAccount({ ...(await existing(tx.accounts, login)), disabled });
    return { account, sessionsEnded: disabled ? await tx.sessions.deleteForAccount(account.id) : 0 };
  });
}

/** What removing an account ended, and how many elements it owned (kept, when asked to keep them). */
export interface AccountRemoval {
  readonly account: Account;
  readonly sessionsEnded: number;
  readonly tokensRevoked: number;
  readonly owned: number;
}

/**
 * Removes an account with its sessions and access tokens. By default refused (ACCOUNT0004) while
 * it owns elements, so that no element is left with an owner nobody is; with `keepOwned` (the
 * console's deletion, as the original deletes a user) its elements stay as they are, their owner
 * a removed account (account ids are never given again). Its history lines keep its name.
 */
export function removeUser(store: Store, login: string, options: { readonly keepOwned?: boolean } = {}): Promise<AccountRemoval> {
  return store.transaction(async (tx) => {
    const account = await existing(tx.accounts, login);
    const owned = await tx.elements.countOwnedBy(account.id);
    if (owned > 0 && !options.keepOwned) throw new LineageError("ACCOUNT0004", [login, owned], { data: { owned } });
    const tokens = (await tx.tokens.list()).filter((token) => token.accountId === account.id);
    for (const token of tokens) await tx.tokens.delete(token.id);
    const sessionsEnded = await tx.sessions.deleteForAccount(account.id);
    await tx.accounts.removeAccount(account.id);
    return { account, sessionsEnded, tokensRevoked: tokens.length, owned };
  });
}
