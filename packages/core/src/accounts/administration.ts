import { createAccessToken } from "../auth/manage-tokens.ts";
import { requireAccess } from "../access/authorization-guard.ts";
import type { TokenExpiration } from "../auth/access-token.ts";
import type { TokenRouteInput } from "../auth/token-route.ts";
import type { Clock } from "../ports/clock.port.ts";
import type { Store } from "../ports/store.port.ts";
import { ADMIN_ROLE, type Account } from "./account.ts";
import type { Principal } from "./principal.ts";
import { listUsers } from "./manage-accounts.ts";

/*
 * What a person administers from a page (the console's administration): the same operations the
 * command line runs as the system, here refused (403 ROUTES0131) to anyone but an administrator.
 */

/** What an administrator asks of a new access token. */
export interface TokenRequest {
  readonly login: string;
  readonly routes: readonly TokenRouteInput[];
  readonly expiration?: TokenExpiration;
  readonly oneshot?: boolean;
  readonly description?: string;
}

/** Every account with its roles and groups, for an administrator (403 ROUTES0131 for others). */
export async function listAccountsAs(store: Store, principal: Principal): Promise<Account[]> {
  requireAccess(principal, { route: "admin::accounts", anyRole: [ADMIN_ROLE] });
  return listUsers(store);
}

/** A new access token made by an administrator (403 ROUTES0131 for others): its secret, shown once. */
export async function issueAccessToken(store: Store, clock: Clock, principal: Principal, request: TokenRequest): Promise<string> {
  requireAccess(principal, { route: "authent::tokens", anyRole: [ADMIN_ROLE] });
  return createAccessToken(store, clock, request.login, request.routes, request.expiration, request.oneshot, request.description);
}
