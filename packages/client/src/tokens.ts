import { segment } from "./path-segment.ts";
import type { Transport } from "./transport.ts";

/** An access token as its administration lists it: never the token itself (docs/authentication.md). */
export interface AccessToken {
  readonly id: string;
  readonly login: string;
  readonly routes: readonly { readonly pattern: string; readonly methods: readonly string[] }[];
  readonly expiresAt: string | null;
  readonly expired: boolean;
  readonly oneshot: boolean;
  readonly description: string;
  readonly createdAt: string;
}

/** Access tokens (administrators): list and revoke. Tokens are created by `lineage token create` or the console. */
export interface TokensApi {
  /** GET /api/v2/authent/tokens. */
  list(options?: { readonly signal?: AbortSignal }): Promise<AccessToken[]>;
  /** DELETE /api/v2/authent/tokens/<id or token>. */
  revoke(token: string, options?: { readonly signal?: AbortSignal }): Promise<void>;
}

/** The tokens area over a transport. */
export function tokensApi(transport: Transport): TokensApi {
  return {
    async list(options = {}) {
      const { data } = await transport.json<{ tokens: AccessToken[] }>({ method: "GET", path: "/api/v2/authent/tokens", signal: options.signal });
      return data.tokens;
    },
    async revoke(token, options = {}) {
      await transport.json<unknown>({ method: "DELETE", path: `/api/v2/authent/tokens/${segment(token)}`, signal: options.signal });
    },
  };
}
