import type { Transport } from "./transport.ts";

/** The caller's own account, as GET /api/v2/ui/users/current answers it. */
export interface CurrentAccount {
  readonly id: number;
  readonly login: string;
  readonly displayName: string;
  readonly locale: string;
  /** Its roles, its own and its groups', sorted. */
  readonly roles: readonly string[];
  readonly groups: readonly string[];
  /** The global rights of the HTTP API it holds (GET, PUT, POST, DELETE). */
  readonly rights: readonly string[];
  readonly isAdmin: boolean;
}

/** The caller's account (docs/api.md, Authentication). */
export interface AccountApi {
  /** GET /api/v2/ui/users/current: who the client is logged in as. */
  current(options?: { readonly signal?: AbortSignal }): Promise<CurrentAccount>;
}

/** The account area over a transport. */
export function accountApi(transport: Transport): AccountApi {
  return {
    async current(options = {}) {
      return (await transport.json<CurrentAccount>({ method: "GET", path: "/api/v2/ui/users/current", signal: options.signal })).data;
    },
  };
}
