import type { AccountsFacade } from "../accounts/accounts-facade.ts";
import type { CredentialProvider } from "../ports/credential-provider.port.ts";

/** The `internal` provider: the platform's own accounts and their hashed passwords (same answer time for unknown logins). */
export function createInternalProvider(accounts: Pick<AccountsFacade, "authenticate" | "rememberedPassword">, id = "internal"): CredentialProvider {
  return {
    id,
    async validateCredential(login, password, stamp) {
      const principal = await accounts.authenticate(login, password, stamp);
      return principal && { login: principal.account.login };
    },
    rememberedCredential(login, password, stamp) {
      const principal = accounts.rememberedPassword(login, password, stamp);
      return principal && { login: principal.account.login };
    },
  };
}
