import { ADMIN_ROLE, HTTP_RIGHTS, type Account } from "../accounts/account.ts";
import type { Principal } from "../accounts/principal.ts";

/** The account bundle imports act as: id 0 (no stored account has it), login "system", role admin. */
export const SYSTEM_ACCOUNT: Account = Object.freeze({
  id: 0,
  login: "system",
  displayName: "System",
  passwordHash: null,
  roles: Object.freeze([ADMIN_ROLE]),
  groups: Object.freeze([]),
  locale: "en",
  rights: Object.freeze([...HTTP_RIGHTS]),
  disabled: false,
});

/**
 * The principal of imports and other work the platform does on its own: admin,
 * so every permission check passes.
 * @example
 * const tokens = await platform.tokens.list(systemPrincipal());
 */
export function systemPrincipal(): Principal {
  return { account: SYSTEM_ACCOUNT, roles: new Set([ADMIN_ROLE]), groups: new Set(), isAdmin: true };
}
