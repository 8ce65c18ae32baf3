import { createHash } from "node:crypto";
import type { Clock } from "../ports/clock.port.ts";
import type { PasswordHasher } from "../ports/password-hasher.port.ts";
import type { Store } from "../ports/store.port.ts";
import type { Account } from "./account.ts";
import { principalOf, type Principal } from "./principal.ts";

export interface PasswordAuthenticator {
  /** The principal for a login and password, or undefined; the same answer time whether the login exists or not. */
  verify(login: string, password: string): Promise<Principal | undefined>;
  /** The principal of an account, with its current roles and groups. */
  principal(account: Account): Principal;
}

// A verification made against a stored hash that nobody has: keeps unknown logins as slow as known ones.
const DECOY_HASH = "scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";

/**
 * The internal credential provider. A successful verification is remembered
 * for `cacheMs`, keyed by a digest of login and password, with the stored
 * hash it matched: Basic auth on every request does not pay the KDF each
 * time, and a changed password is never served from the cache. While the
 * store's version stays the same, the principal itself is served again
 * without reading the account.
 */
export function createPasswordAuthenticator(store: Store, hasher: PasswordHasher, clock: Clock, cacheMs = 60_000): PasswordAuthenticator {
  const verified = new Map<string, { hash: string; until: number; version: string | undefined; principal: Principal }>();
  const principal = (account: Account) => principalOf(account, store.accounts.groups());
  return {
    principal,
    async verify(login, password) {
      const key = createHash("sha256").update(`${login}\0${password}`).digest("base64");
      const now = clock.now().getTime();
      const version = store.version();
      const known = verified.get(key);
      if (known && known.until > now && version !== undefined && known.version === version) return known.principal;
      const account = store.accounts.byLogin(login);
      const hash = account?.passwordHash ?? null;
      if (account && hash && known && known.until > now && known.hash === hash) {
        known.version = version;
        known.principal = principal(account);
        return known.principal;
      }
      const ok = await hasher.verify(password, hash ?? DECOY_HASH);
      if (!account || !hash || !ok) return undefined;
      if (verified.size > 10_000) verified.clear();
      const found = principal(account);
      verified.set(key, { hash, until: now + cacheMs, version, principal: found });
      return found;
    },
  };
}
