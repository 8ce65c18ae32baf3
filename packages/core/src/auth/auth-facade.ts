import type { AccountsFacade } from "../accounts/accounts-facade.ts";
import type { CredentialProvider } from "../ports/credential-provider.port.ts";
import type { PlatformContext } from "../scope/platform-context.ts";
import { createAuthenticationService, type AuthenticationService, type AuthenticationServiceOptions } from "./authentication-service.ts";
import { createInternalProvider } from "./internal-provider.ts";

/** Authentication: the services authenticators use (passwords through providers, tokens, sessions, the throttle). */
export interface AuthFacade {
  /** An authentication service with these providers, throttle and session policy (the internal provider alone by default). */
  service(options?: AuthenticationServiceOptions): AuthenticationService;
  /** The `internal` credential provider: the platform's own accounts and their hashed passwords, under the id given. */
  internalProvider(id?: string): CredentialProvider;
}

/** The authentication façade over a platform's context and accounts. */
export function createAuthFacade(context: PlatformContext, accounts: AccountsFacade): AuthFacade {
  return {
    service: (options) => createAuthenticationService(context, accounts, options),
    internalProvider: (id) => createInternalProvider(accounts, id),
  };
}
