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
 * for `cacheMs`, keyed by a digest of login, password and stored hash, so
 * Basic auth on every request does not pay the KDF each time, and a changed
 * password is never served from the cache.
 */
export function createPasswordAuthenticator(store: Store, hasher: PasswordHasher, clock: Clock, cacheMs = 60_000): PasswordAuthenticator {
  const verified = new Map<string, number>();
  const principal = (account: Account) => principalOf(account, store.accounts.groups());
  return {
    principal,
    async verify(login, password) {
      const account = store.accounts.byLogin(login);
      const hash = account?.passwordHash ?? null;
      const key = createHash("sha256").update(`${login}\0${password}\0${hash ?? ""}`).digest("hex");
      const now = clock.now().getTime();
      if (account && hash && (verified.get(key) ?? 0) > now) return principal(account);
      const ok = await hasher.verify(password, hash ?? DECOY_HASH);
      if (!account || !hash || !ok) return undefined;
      if (verified.size > 10_000) verified.clear();
      verified.set(key, now + cacheMs);
      return principal(account);
    },
  };
}
