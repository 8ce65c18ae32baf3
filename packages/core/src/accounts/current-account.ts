import type { Principal } from "./principal.ts";

/** What a client needs of its own account to start: who it is, its language, and its effective roles and groups. */
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

/** The principal's own account as GET /api/v2/ui/users/current answers it. */
export function currentAccount(principal: Principal): CurrentAccount {
  const { account } = principal;
  return {
    id: account.id,
    login: account.login,
    displayName: account.displayName,
    locale: account.locale,
    roles: [...principal.roles].sort(),
    groups: [...principal.groups].sort(),
    rights: [...account.rights],
    isAdmin: principal.isAdmin,
  };
}
