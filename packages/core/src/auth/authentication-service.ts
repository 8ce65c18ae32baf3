import type { Principal } from "../accounts/principal.ts";
import type { ChangeStamp } from "../ports/change-clock.port.ts";
import { isLineageError } from "../errors/lineage-error.ts";
import type { Platform } from "../platform.ts";
import type { CredentialProvider } from "../ports/credential-provider.port.ts";
import { rememberedThroughProviders, validateThroughProviders } from "./credential-chain.ts";
import { createInternalProvider } from "./internal-provider.ts";
import { createLoginThrottle, throttleKeys, type LoginThrottle, type ThrottleOptions } from "./login-throttle.ts";
import { closeSession, openSession, resumeSession } from "./manage-sessions.ts";
import { useAccessToken } from "./manage-tokens.ts";
import { DEFAULT_SESSION_POLICY, type Session, type SessionPolicy } from "./session.ts";

export interface AuthenticationServiceOptions {
  readonly platform: Platform;
  /** Tried in this order; the internal provider alone by default. */
  readonly providers?: readonly CredentialProvider[];
  /** A throttle, or the options of the default in-memory one. */
  readonly throttle?: LoginThrottle | ThrottleOptions;
  readonly sessionPolicy?: Partial<SessionPolicy>;
  /** How to wait before answering a throttled attempt; a timer by default (never blocks the event loop). */
  readonly wait?: (ms: number) => Promise<void>;
  /** Hears about providers that fail (a directory down); never about passwords. */
  readonly onProviderError?: (error: unknown, provider: CredentialProvider) => void;
}

/** The outcome of presenting a token, with the principal it acts as. */
export type TokenCheck =
  | { readonly kind: "granted"; readonly principal: Principal }
  | { readonly kind: "out-of-routes"; readonly principal: Principal }
  | { readonly kind: "refused" };

/**
 * Everything authenticators need from the platform: passwords through the
 * provider chain, tokens and sessions, all slowed down after failures per
 * account and per client address. The principal is read again from the
 * stored account after any write, so a change of roles or rights applies at once.
 */
export interface AuthenticationService {
  readonly platform: Platform;
  readonly providers: readonly CredentialProvider[];
  readonly sessionPolicy: SessionPolicy;
  /**
   * The principal for a login and password, or undefined; the answer does not tell whether the login exists.
   * `stamp`: the change clock as the request saw it, so that its checks share one read.
   */
  verifyPassword(login: string, password: string, clientAddress: string, stamp?: ChangeStamp): Promise<Principal | undefined>;
  verifyToken(secret: string, method: string, path: string, clientAddress: string, stamp?: ChangeStamp): Promise<TokenCheck>;
  openSession(principal: Principal): Promise<{ secret: string; session: Session }>;
  /** The session and its principal for a cookie value, renewed when due. */
  resumeSession(secret: string, stamp?: ChangeStamp): Promise<{ session: Session; principal: Principal } | undefined>;
  closeSession(secret: string): Promise<void>;
}

const timer = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Binds providers, throttle and session policy to a platform. */
export function createAuthenticationService(options: AuthenticationServiceOptions): AuthenticationService {
  const { platform } = options;
  const { store, clock } = platform;
  const providers = options.providers ?? [createInternalProvider(platform)];
  const throttle = options.throttle && "delayMs" in options.throttle ? options.throttle : createLoginThrottle(options.throttle);
  const wait = options.wait ?? timer;
  const sessionPolicy = { ...DEFAULT_SESSION_POLICY, ...options.sessionPolicy };
  const principalOfId = async (id: number, stamp?: ChangeStamp) => {
    const account = await store.accounts.byId(id);
    return account && (await platform.principalOfAccount(account, stamp));
  };

  /** Waits out the delay the keys have earned, runs the attempt, and counts it. */
  async function throttled<T>(keys: string[], attempt: () => Promise<T>, succeeded: (result: T) => boolean, resetKeys: (result: T) => string[]): Promise<T> {
    const delay = throttle.delayMs(keys, clock.now().getTime());
    if (delay > 0) await wait(delay);
    const result = await attempt();
    if (succeeded(result)) throttle.reset(resetKeys(result));
    else throttle.failed(keys, clock.now().getTime());
    return result;
  }

  /** The principal of a confirmed login: its account, created first when a provider described one. */
  async function provision(login: string, account: Parameters<Platform["addUser"]>[0] | undefined, stamp?: ChangeStamp): Promise<Principal | undefined> {
    const existing = await platform.principal(login, stamp);
    return existing || !account ? existing : createAccount(login, account);
  }

  async function createAccount(login: string, account: Parameters<Platform["addUser"]>[0]): Promise<Principal | undefined> {
    try {
      return await platform.principalOfAccount(await platform.addUser(account));
    } catch (error) {
      // Two first logins at once: the other one created the account.
      if (isLineageError(error) && error.code === "ACCOUNT0001") return platform.principal(login);
      throw error;
    }
  }

  return {
    platform,
    providers,
    sessionPolicy,
    // What `throttled` does, written out: Basic auth runs this at every request, and each
    // async step it saves is a turn of the microtask queue saved.
    async verifyPassword(login, password, clientAddress, stamp) {
      const keys = throttleKeys(login, clientAddress);
      const delay = throttle.delayMs(keys, clock.now().getTime());
      if (delay > 0) await wait(delay);
      let principal: Principal | undefined;
      if (login !== "" && password !== "") {
        const confirmed = rememberedThroughProviders(providers, login, password, stamp)
          ?? (await validateThroughProviders(providers, login, password, options.onProviderError, stamp));
        if (confirmed) {
          const { credential } = confirmed;
          principal = await provision(credential.login, credential.account && { ...credential.account, login: credential.login }, stamp);
        }
      }
      // Only the account's count is forgiven: one good password must not wash an address's failures away.
      if (principal) throttle.reset(keys.slice(0, 1));
      else throttle.failed(keys, clock.now().getTime());
      return principal;
    },
    async verifyToken(secret, method, path, clientAddress, stamp) {
      const use = await throttled(
        throttleKeys(undefined, clientAddress),
        () => useAccessToken(store, clock, secret, method, path),
        (result) => result.kind === "granted",
        () => [],
      );
      if (use.kind === "refused") {
        // A known but spent or expired token also counts against its account.
        if (use.account) throttle.failed(throttleKeys(use.account.login, clientAddress).slice(0, 1), clock.now().getTime());
        return { kind: "refused" };
      }
      return { kind: use.kind, principal: await platform.principalOfAccount(use.account, stamp) };
    },
    openSession: (principal) => openSession(store, clock, sessionPolicy, principal.account.id),
    async resumeSession(secret, stamp) {
      const session = await resumeSession(store, clock, sessionPolicy, secret);
      const principal = session && (await principalOfId(session.accountId, stamp));
      return session && principal ? { session, principal } : undefined;
    },
    closeSession: (secret) => closeSession(store, secret),
  };
}
