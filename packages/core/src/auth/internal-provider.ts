import type { Platform } from "../platform.ts";
import type { CredentialProvider } from "../ports/credential-provider.port.ts";

/** The `internal` provider: the platform's own accounts and their hashed passwords (same answer time for unknown logins). */
export function createInternalProvider(platform: Pick<Platform, "authenticate" | "rememberedPassword">, id = "internal"): CredentialProvider {
  return {
    id,
    async validateCredential(login, password, stamp) {
      const principal = await platform.authenticate(login, password, stamp);
      return principal && { login: principal.account.login };
    },
    rememberedCredential(login, password, stamp) {
      const principal = platform.rememberedPassword(login, password, stamp);
      return principal && { login: principal.account.login };
    },
  };
}
