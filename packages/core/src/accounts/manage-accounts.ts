import { LineageError } from "../errors/lineage-error.ts";
import type { PasswordHasher } from "../ports/password-hasher.port.ts";
import type { Store } from "../ports/store.port.ts";
import { HTTP_RIGHTS, type Account, type HttpRight } from "./account.ts";

export interface AddUserInput {
  readonly login: string;
  readonly password?: string | undefined;
  readonly displayName?: string | undefined;
  readonly roles?: readonly string[] | undefined;
  readonly groups?: readonly string[] | undefined;
  readonly locale?: string | undefined;
  readonly rights?: readonly HttpRight[] | undefined;
}

/** Logins are identifiers: letters, digits and `._@-`, 1 to 64 characters. */
export const LOGIN_PATTERN = /^[A-Za-z0-9._@-]{1,64}$/;

/** Adds an account (`lineage user add`); refuses an existing login. */
export async function addUser(store: Store, hasher: PasswordHasher, input: AddUserInput): Promise<Account> {
  if (!LOGIN_PATTERN.test(input.login)) throw new LineageError("ACCOUNT0002", [`login "${input.login}" must match ${LOGIN_PATTERN.source}`]);
  const unknownRight = input.rights?.find((right) => !HTTP_RIGHTS.includes(right));
  if (unknownRight) throw new LineageError("ACCOUNT0002", [`unknown right "${unknownRight}"`]);
  const passwordHash = input.password ? await hasher.hash(input.password) : null;
  return store.transaction(async (tx) => {
    if (await tx.accounts.byLogin(input.login)) throw new LineageError("ACCOUNT0001", [input.login]);
    const knownGroups = new Set((await tx.accounts.groups()).map((group) => group.id));
    const unknownGroup = input.groups?.find((group) => !knownGroups.has(group));
    if (unknownGroup) throw new LineageError("ACCOUNT0002", [`unknown group "${unknownGroup}"`]);
    return tx.accounts.saveAccount({
      login: input.login,
      displayName: input.displayName ?? input.login,
      passwordHash,
      roles: [...(input.roles ?? [])],
      groups: [...(input.groups ?? [])],
      locale: input.locale ?? "en",
      rights: [...(input.rights ?? HTTP_RIGHTS)],
    });
  });
}
