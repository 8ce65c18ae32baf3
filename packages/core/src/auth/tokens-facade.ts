import type { Account } from "../accounts/account.ts";
import { issueAccessToken, type TokenRequest } from "../accounts/administration.ts";
import type { Principal } from "../accounts/principal.ts";
import type { PlatformContext } from "../scope/platform-context.ts";
import { createAccessToken, findAccessToken, listAccessTokens, revokeAccessToken, type TokenSummary } from "./manage-tokens.ts";
import type { TokenExpiration } from "./access-token.ts";
import type { TokenRouteInput } from "./token-route.ts";

/** What a new token is given beyond its account and routes. */
export interface TokenOptions {
  /** When it expires: a date, a number of seconds, or -1 (the default) for never. */
  readonly expiration?: TokenExpiration;
  /** Accepted once only. */
  readonly oneshot?: boolean;
  readonly description?: string;
}

/** Access tokens (api-v2.md, Token): scoped to routes, shown once, stored hashed. */
export interface TokensFacade {
  /** A new token for an account (as the system: no rights checked); its secret, shown once. Routes are `{pattern, methods}` or `"METHODS PATTERN"`. */
  create(account: Account | string, routes: readonly TokenRouteInput[], options?: TokenOptions): Promise<string>;
  /** A new token made by an administrator (403 ROUTES0131 for others): its secret, shown once. */
  issue(principal: Principal, request: TokenRequest): Promise<string>;
  /** The token a secret names, without its secret; undefined when there is none. */
  find(secret: string): Promise<TokenSummary | undefined>;
  /** Every token, without secrets (administrators only). */
  list(principal: Principal): Promise<TokenSummary[]>;
  /** Revokes a token by id or secret (administrators only). */
  revoke(principal: Principal, idOrSecret: string): Promise<void>;
}

/** The tokens façade over a platform's context. */
export function createTokensFacade(context: PlatformContext): TokensFacade {
  const { store, clock } = context;
  return {
    create: (account, routes, options = {}) => createAccessToken(store, clock, account, routes, options.expiration, options.oneshot, options.description),
    issue: (principal, request) => issueAccessToken(store, clock, principal, request),
    find: (secret) => findAccessToken(store, clock, secret),
    list: (principal) => listAccessTokens(store, clock, principal),
    revoke: (principal, idOrSecret) => revokeAccessToken(store, principal, idOrSecret),
  };
}
