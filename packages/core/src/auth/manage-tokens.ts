import type { Account } from "../accounts/account.ts";
import type { Principal } from "../accounts/principal.ts";
import { LineageError } from "../errors/lineage-error.ts";
import type { Clock } from "../ports/clock.port.ts";
import type { Store } from "../ports/store.port.ts";
import { expiryDate, isTokenExpired, newTokenId, newTokenSecret, secretHash, type AccessToken, type TokenExpiration } from "./access-token.ts";
import { requireAccess } from "../access/authorization-guard.ts";
import { constantTimeEqual } from "./constant-time.ts";
import { normaliseTokenRoutes, routesAllow, type TokenRoute, type TokenRouteInput } from "./token-route.ts";

/** A token as lists show it: never its secret nor its hash. */
export interface TokenSummary {
  readonly id: string;
  readonly login: string;
  readonly routes: readonly TokenRoute[];
  readonly expiresAt: string | null;
  readonly expired: boolean;
  readonly oneshot: boolean;
  readonly description: string;
  readonly createdAt: string;
}

/** The outcome of presenting a token. */
export type TokenUse =
  | { readonly kind: "granted"; readonly account: Account }
  /** Valid, but not for this method and path: authenticated yet not authorized (403). */
  | { readonly kind: "out-of-routes"; readonly account: Account }
  /** Unknown, expired, consumed, or its account is gone (401). */
  | { readonly kind: "refused"; readonly account?: Account };

const MAX_DESCRIPTION = 1000;

/**
 * Creates an access token for an account (api-v2.md, getAuthorizationToken)
 * and returns its secret: shown once, stored only hashed.
 */
export async function createAccessToken(
  store: Store,
  clock: Clock,
  userAccount: Account | string,
  routes: readonly TokenRouteInput[],
  expiration: TokenExpiration = -1,
  oneshot = false,
  description = "",
): Promise<string> {
  const login = typeof userAccount === "string" ? userAccount : userAccount.login;
  const account = await store.accounts.byLogin(login);
  if (!account) throw new LineageError("AUTH0410", [`no account "${login}"`]);
  if (account.disabled) throw new LineageError("AUTH0410", [`account "${login}" is disabled`]);
  if (typeof description !== "string" || description.length > MAX_DESCRIPTION) {
    throw new LineageError("AUTH0410", [`the description must be a text of at most ${MAX_DESCRIPTION} characters`]);
  }
  const now = clock.now();
  const token: AccessToken = {
    id: newTokenId(),
    hash: "",
    accountId: account.id,
    routes: normaliseTokenRoutes(routes),
    expiresAt: expiryDate(expiration, now),
    oneshot: oneshot === true,
    description,
    createdAt: now.toISOString(),
  };
  const secret = newTokenSecret();
  await store.tokens.deleteExpired(now.toISOString());
  await store.tokens.create({ ...token, hash: secretHash(secret) });
  return secret;
}

/**
 * Checks a presented token for a method and path: known, not expired, its
 * account still there, the route allowed; a oneshot token is consumed
 * atomically, so of concurrent uses exactly one is granted.
 */
export async function useAccessToken(store: Store, clock: Clock, secret: string, method: string, path: string): Promise<TokenUse> {
  if (!/^[0-9a-f]{40}$/i.test(secret)) return { kind: "refused" };
  const hash = secretHash(secret.toLowerCase());
  const token = await store.tokens.byHash(hash);
  // The look-up is by hash; this compare keeps the final check free of early exits all the same.
  if (!token || !constantTimeEqual(token.hash, hash)) return { kind: "refused" };
  const account = await store.accounts.byId(token.accountId);
  const now = clock.now();
  if (isTokenExpired(token, now)) {
    await store.tokens.delete(token.id);
    return account ? { kind: "refused", account } : { kind: "refused" };
  }
  if (!account || account.disabled) return { kind: "refused" };
  if (!routesAllow(token.routes, method, path)) return { kind: "out-of-routes", account };
  if (token.oneshot && !(await store.tokens.consume(hash))) return { kind: "refused", account };
  return { kind: "granted", account };
}

/** Every token, for administrators (403 ROUTES0131 for others). */
export async function listAccessTokens(store: Store, clock: Clock, principal: Principal): Promise<TokenSummary[]> {
  requireAccess(principal, { route: "authent::tokens", anyRole: ["admin"] });
  return summaries(store, clock, await store.tokens.list());
}

/** The token a secret names, without its secret (the command line shows what it just made); undefined when there is none. */
export async function findAccessToken(store: Store, clock: Clock, secret: string): Promise<TokenSummary | undefined> {
  const token = await store.tokens.byHash(secretHash(secret));
  return token && (await summaries(store, clock, [token]))[0];
}

/** Tokens as administrators see them: their account's login, never their hash. */
async function summaries(store: Store, clock: Clock, tokens: readonly AccessToken[]): Promise<TokenSummary[]> {
  const now = clock.now();
  const accounts = await store.accounts.byIds([...new Set(tokens.map((token) => token.accountId))]);
  const logins = new Map(accounts.map((account) => [account.id, account.login]));
  return tokens.map((token) => ({
    id: token.id,
    login: logins.get(token.accountId) ?? `#${token.accountId}`,
    routes: token.routes,
    expiresAt: token.expiresAt,
    expired: isTokenExpired(token, now),
    oneshot: token.oneshot,
    description: token.description,
    createdAt: token.createdAt,
  }));
}

/** Revokes a token by its public id, or by the token itself; administrators only; 404 AUTH0404 when there is none. */
export async function revokeAccessToken(store: Store, principal: Principal, idOrSecret: string): Promise<void> {
  requireAccess(principal, { route: "authent::tokens", anyRole: ["admin"] });
  const byId = await store.tokens.byId(idOrSecret);
  const token = byId ?? (/^[0-9a-f]{40}$/i.test(idOrSecret) ? await store.tokens.byHash(secretHash(idOrSecret.toLowerCase())) : undefined);
  if (!token || !(await store.tokens.delete(token.id))) throw new LineageError("AUTH0404", [idOrSecret.length === 40 ? `${idOrSecret.slice(0, 4)}…` : idOrSecret]);
}
