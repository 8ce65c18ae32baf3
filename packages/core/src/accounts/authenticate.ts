import { toBase64 } from "../crypto/encoding.ts";
import { sha256 } from "../crypto/sha256.ts";
import type { Clock } from "../ports/clock.port.ts";
import type { PasswordHasher } from "../ports/password-hasher.port.ts";
import type { Store } from "../ports/store.port.ts";
import type { ChangeStamp } from "../ports/change-clock.port.ts";
import type { Definitions } from "../scope/definitions.ts";
import type { Account } from "./account.ts";
import { principalOf, type Principal } from "./principal.ts";

export interface PasswordAuthenticator {
  /** The principal for a login and password, or undefined; the same answer time whether the login exists or not. */
  verify(login: string, password: string, stamp?: ChangeStamp): Promise<Principal | undefined>;
  /**
   * The principal when this password was verified for this login's current password less than
   * `cacheMs` ago; undefined when that is not known (verify decides then, paying the KDF).
   */
  remembered(login: string, password: string, stamp?: ChangeStamp): Principal | undefined;
  /** The principal of an account, with its current roles and groups. */
  principal(account: Account, stamp?: ChangeStamp): Promise<Principal>;
  /** The principal of a login, read again from the store only when definitions (accounts among them) changed since the stamp given or read. */
  principalOfLogin(login: string, stamp?: ChangeStamp): Promise<Principal | undefined>;
}

// A verification made against a stored hash that nobody has: keeps unknown logins as slow as known ones.
const DECOY_HASH = "scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";

// Bounds both caches: a flood of made-up logins empties them rather than growing them.
const MAX_ENTRIES = 10_000;

/**
 * The internal credential provider. A successful verification is remembered
 * for `cacheMs`, keyed by a digest of login and password, with the stored
 * hash it matched: Basic auth on every request does not pay the KDF each
 * time, and a changed password is never served from the cache. Requests
 * bringing the same login and password while it is verified wait for that
 * verification rather than each running the KDF (32 MiB and a fraction of a
 * second of a worker thread for scrypt): a burst of clients, or the cache
 * expiring under load, costs one. Principals are kept per login while the
 * definitions stamp (accounts, roles and groups among them) stays the same,
 * so a request that changes none of them reads no account.
 */
export function createPasswordAuthenticator(
  store: Store,
  definitionsAt: (stamp?: ChangeStamp) => Promise<Definitions>,
  hasher: PasswordHasher,
  clock: Clock,
  cacheMs = 60_000,
): PasswordAuthenticator {
  const verified = new Map<string, { readonly hash: string; readonly until: number }>();
  // Keyed by the credentials' digest and the stored hash checked: a password changed meanwhile is verified anew.
  const verifying = new Map<string, Promise<boolean>>();
  const principals = new Map<string, { readonly stamp: string; readonly principal: Principal | undefined }>();
  const principal = async (account: Account, stamp?: ChangeStamp) => principalOf(account, (await definitionsAt(stamp)).groups());

  /** The principal kept for a login at this definitions stamp, if any: no await, for Basic auth at every request. */
  function keptPrincipal(login: string, stamp: ChangeStamp | undefined): { readonly principal: Principal | undefined } | undefined {
    const known = principals.get(login);
    return stamp && known?.stamp === stamp.definitions ? known : undefined;
  }

  async function principalOfLogin(login: string, given?: ChangeStamp): Promise<Principal | undefined> {
    const kept = keptPrincipal(login, given);
    if (kept) return kept.principal;
    const stamp = given ?? (await store.changes.read());
    const account = await store.accounts.byLogin(login);
    // A disabled account is as good as none: no password, provider or proxy login gets its principal.
    const found = account && !account.disabled ? await principal(account, stamp) : undefined;
    if (principals.size >= MAX_ENTRIES) principals.clear();
    // Kept under the stamp read before the account: a change committed meanwhile moves the stamp and is read next time.
    principals.set(login, { stamp: stamp.definitions, principal: found });
    return found;
  }

  const keyOf = (login: string, password: string) => toBase64(sha256(`${login}\0${password}`));
  /** Whether the password of `key` was verified against the principal's current hash, and not too long ago. */
  const isRemembered = (found: Principal | undefined, key: string) => {
    const hash = found?.account.passwordHash;
    const known = verified.get(key);
    return Boolean(hash) && known !== undefined && known.hash === hash && known.until > clock.now().getTime();
  };

  /** Runs the KDF for these credentials against this hash, or joins the run already under way; remembers a success. */
  function verifyOnce(key: string, password: string, hash: string | null): Promise<boolean> {
    const flight = `${key} ${hash ?? ""}`;
    const running = verifying.get(flight);
    if (running) return running;
    const run = hasher.verify(password, hash ?? DECOY_HASH).then((ok) => {
      if (ok && hash) {
        if (verified.size >= MAX_ENTRIES) verified.clear();
        verified.set(key, { hash, until: clock.now().getTime() + cacheMs });
      }
      return ok;
    }).finally(() => verifying.delete(flight));
    verifying.set(flight, run);
    return run;
  }

  return {
    principal,
    principalOfLogin,
    remembered(login, password, stamp) {
      const found = keptPrincipal(login, stamp)?.principal;
      return isRemembered(found, keyOf(login, password)) ? found : undefined;
    },
    async verify(login, password, stamp) {
      const key = keyOf(login, password);
      const found = await principalOfLogin(login, stamp);
      if (isRemembered(found, key)) return found;
      const hash = found?.account.passwordHash ?? null;
      const ok = await verifyOnce(key, password, hash);
      return found && hash && ok ? found : undefined;
    },
  };
}
