import type { AddUserInput } from "../accounts/account.ts";
import type { ChangeStamp } from "./change-clock.port.ts";

/**
 * What a provider confirms: the login of a platform account. `account`
 * describes the account to create when the login has none yet (a provider
 * backed by an outside directory); without it, an unknown login fails.
 */
export interface ConfirmedCredential {
  readonly login: string;
  readonly account?: Omit<AddUserInput, "login" | "password">;
}

/**
 * Validates a login and password (api-v2.md, Authentication: validateCredential).
 * Providers are tried in their declared order; the first that confirms wins.
 * @example
 * const provider: CredentialProvider = { id: "env", validateCredential: async (l, p) => (p === process.env.PW ? { login: l } : undefined) };
 */
export interface CredentialProvider {
  readonly id: string;
  /**
   * The confirmed credential, or undefined when this provider does not know the pair. Must not reveal why.
   * `stamp` is the change clock as the request saw it: the internal provider checks its caches against it.
   */
  validateCredential(login: string, password: string, stamp?: ChangeStamp): Promise<ConfirmedCredential | undefined>;
  /**
   * The confirmed credential when the provider knows it without waiting (a verification it
   * remembers), else undefined: validateCredential decides then. Basic auth sends the password
   * with every request; this spares it the awaits. Optional.
   */
  rememberedCredential?(login: string, password: string, stamp?: ChangeStamp): ConfirmedCredential | undefined;
}
