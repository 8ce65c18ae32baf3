import type { Principal } from "../accounts/principal.ts";
import type { ChangeStamp } from "../ports/change-clock.port.ts";
import { isLineageError, LineageError } from "../errors/lineage-error.ts";
import type { AccountsFacade } from "../accounts/accounts-facade.ts";
import type { AddUserInput } from "../accounts/account.ts";
import type { PlatformContext } from "../scope/platform-context.ts";
import type { CredentialProvider } from "../ports/credential-provider.port.ts";
import { rememberedThroughProviders, validateThroughProviders } from "./credential-chain.ts";
import { createInternalProvider } from "./internal-provider.ts";
import { createLoginThrottle, type LoginThrottle, type ThrottleDecision, type ThrottleOptions, type ThrottleReason } from "./login-throttle.ts";
import { closeSession, openSession, resumeSession } from "./manage-sessions.ts";
import { useAccessToken } from "./manage-tokens.ts";
import { DEFAULT_SESSION_POLICY, type Session, type SessionPolicy } from "./session.ts";

export interface AuthenticationServiceOptions {
  /** Tried in this order; the internal provider alone by default. */
  readonly providers?: readonly CredentialProvider[];
  /** A throttle, or the options of the default one (counting in memory unless they name a store). */
  readonly throttle?: LoginThrottle | ThrottleOptions;
  readonly sessionPolicy?: Partial<SessionPolicy>;
  /** How to wait before answering a slowed failure; a timer by default (never blocks the event loop). */
  readonly wait?: (ms: number) => Promise<void>;
  /** Hears about providers that fail (a directory down); never about passwords. */
  readonly onProviderError?: (error: unknown, provider: CredentialProvider) => void;
  /** Hears about every refused or slowed attempt, to log it; never about passwords. */
  readonly onThrottled?: (event: ThrottleEvent) => void;
}

/** A refused attempt (429 AUTH0429), or a failure whose answer waits. */
export interface ThrottleEvent {
  readonly reason: ThrottleReason | "failure-delayed";
  /** The login tried (at most 100 characters); none for an access token. */
  readonly login: string | undefined;
  readonly clientAddress: string;
  /** How long the client should wait (refused), or how long the answer waited (failure-delayed). */
  readonly waitMs: number;
}

/** The outcome of presenting a token, with the principal it acts as. */
export type TokenCheck =
  | { readonly kind: "granted"; readonly principal: Principal }
  | { readonly kind: "out-of-routes"; readonly principal: Principal }
  | { readonly kind: "refused" };

/**
 * Everything authenticators need from the platform: passwords through the
 * provider chain, tokens and sessions, with the brute-force defence of
 * LoginThrottle: a refused attempt throws 429 AUTH0429, whose `data.retryAfter`
 * says in how many seconds to try again. The principal is read again from the
 * stored account after any write, so a change of roles or rights applies at once.
 */
export interface AuthenticationService {
  /** The accounts the service authenticates: principals of logins, for authenticators of their own. */
  readonly accounts: AccountsFacade;
  readonly providers: readonly CredentialProvider[];
  readonly sessionPolicy: SessionPolicy;
  /**
   * The principal for a login and password, or undefined; the answer does not tell whether the login exists.
   * Throws 429 AUTH0429 when the login is locked or the client blocked (see LoginThrottle).
   * `stamp`: the change clock as the request saw it, so that its checks share one read.
   */
  verifyPassword(login: string, password: string, clientAddress: string, stamp?: ChangeStamp): Promise<Principal | undefined>;
  /** What a token allows; throws 429 AUTH0429 when the client is blocked. */
  verifyToken(secret: string, method: string, path: string, clientAddress: string, stamp?: ChangeStamp): Promise<TokenCheck>;
  openSession(principal: Principal): Promise<{ secret: string; session: Session }>;
  /** The session and its principal for a cookie value, renewed when due. */
  resumeSession(secret: string, stamp?: ChangeStamp): Promise<{ session: Session; principal: Principal } | undefined>;
  closeSession(secret: string): Promise<void>;
}

const timer = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Binds providers, throttle and session policy to a platform's accounts (`platform.auth.service(options)`). */
export function createAuthenticationService(
  context: PlatformContext, accounts: AccountsFacade, options: AuthenticationServiceOptions = {},
): AuthenticationService {
  const { store, clock } = context;
  const providers = options.providers ?? [createInternalProvider(accounts)];
  const throttle = options.throttle && "admit" in options.throttle ? options.throttle : createLoginThrottle(options.throttle);
  const wait = options.wait ?? timer;
  const now = () => clock.now().getTime();
  const sessionPolicy = { ...DEFAULT_SESSION_POLICY, ...options.sessionPolicy };
  const principalOfId = async (id: number, stamp?: ChangeStamp) => {
    const account = await store.accounts.byId(id);
    return account && !account.disabled ? accounts.principalOf(account, stamp) : undefined;
  };

  const tell = (reason: ThrottleEvent["reason"], login: string | undefined, clientAddress: string, waitMs: number) =>
    options.onThrottled?.({ reason, login: login?.slice(0, 100), clientAddress, waitMs });

  /** The throttle's decision, awaited only when its store is not in this process. */
  async function admitted(login: string | undefined, clientAddress: string): Promise<ThrottleDecision> {
    const decision = throttle.admit(login, clientAddress, now());
    return "then" in decision ? await decision : decision;
  }

  function refuse(decision: ThrottleDecision & { refused: true }, login: string | undefined, clientAddress: string): never {
    tell(decision.reason, login, clientAddress, decision.retryAfterMs);
    const retryAfter = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
    throw new LineageError("AUTH0429", [retryAfter], { data: { retryAfter } });
  }

  /** Counts a failure, and waits what the client's failures have earned before it is answered. */
  async function fail(decision: ThrottleDecision, login: string | undefined, clientAddress: string): Promise<void> {
    const delay = await throttle.failed(decision.keys, now());
    if (delay <= 0) return;
    tell("failure-delayed", login, clientAddress, delay);
    await wait(delay);
  }

  /** The principal of a confirmed login: its account, created first when a provider described one. */
  async function provision(login: string, account: AddUserInput | undefined, stamp?: ChangeStamp): Promise<Principal | undefined> {
    const existing = await accounts.principal(login, stamp);
    return existing || !account ? existing : createAccount(login, account);
  }

  async function createAccount(login: string, account: AddUserInput): Promise<Principal | undefined> {
    try {
      return await accounts.principalOf(await accounts.add(account));
    } catch (error) {
      // Two first logins at once: the other one created the account.
      if (isLineageError(error) && error.code === "ACCOUNT0001") return accounts.principal(login);
      throw error;
    }
  }

  return {
    accounts,
    providers,
    sessionPolicy,
    // Basic auth runs this at every request: each await it saves is a turn of the microtask queue saved.
    async verifyPassword(login, password, clientAddress, stamp) {
      let decision = throttle.admit(login, clientAddress, now());
      if ("then" in decision) decision = await decision;
      if (decision.refused) refuse(decision, login, clientAddress);
      let principal: Principal | undefined;
      if (login !== "" && password !== "") {
        let confirmed = rememberedThroughProviders(providers, login, password, stamp);
        if (!confirmed) {
          confirmed = await validateThroughProviders(providers, login, password, options.onProviderError, stamp);
          // Attempts checked side by side were all admitted at once: a lock their failures set
          // meanwhile refuses this one too, so that a burst learns no more than one attempt would.
          const after = await admitted(login, clientAddress);
          if (after.refused) {
            if (!confirmed) await throttle.failed(after.keys, now());
            refuse(after, login, clientAddress);
          }
          decision = after;
        }
        if (confirmed) {
          const { credential } = confirmed;
          principal = await provision(credential.login, credential.account && { ...credential.account, login: credential.login }, stamp);
        }
      }
      if (!principal) {
        await fail(decision, login, clientAddress);
        return undefined;
      }
      // Only the login's failures are forgiven: one good password must not wash a client's failures away.
      const forgetting = throttle.succeeded(decision);
      if (forgetting) await forgetting;
      return principal;
    },
    async verifyToken(secret, method, path, clientAddress, stamp) {
      // Tokens are too long to guess: only the client's failures count (a token scan), never an account's.
      let decision = throttle.admit(undefined, clientAddress, now());
      if ("then" in decision) decision = await decision;
      if (decision.refused) refuse(decision, undefined, clientAddress);
      const use = await useAccessToken(store, clock, secret, method, path);
      if (use.kind === "refused") {
        await fail(decision, undefined, clientAddress);
        return { kind: "refused" };
      }
      return { kind: use.kind, principal: await accounts.principalOf(use.account, stamp) };
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
