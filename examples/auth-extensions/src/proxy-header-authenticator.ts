import {
  constantTimeEqual, type AuthenticationChallenge, type AuthenticationResult, type AuthenticationService, type Authenticator,
  type AuthRequest, type Principal,
} from "@lineage/core";

interface ProxyHeaderOptions {
  /** The header the SSO proxy fills with the authenticated login. */
  readonly header?: string;
  /** The secret the proxy sends in X-Proxy-Secret, proving the request went through it. */
  readonly secret?: string;
  /** Addresses the proxy connects from. */
  readonly trustedAddresses?: readonly string[];
  /** Only these roles may use the platform through the proxy (none: everyone). */
  readonly allowedRoles?: readonly string[];
}

/**
 * A custom authenticator for a single sign-on reverse proxy: the proxy
 * authenticates people and passes the login in a header. The header is
 * believed only from the proxy's addresses and with the shared secret.
 *
 * Configuration:
 * "authentMode": "sso",
 * "authentModeConfig": { "sso": { "class": "./src/proxy-header-authenticator.ts", "config": { "secret": "…" } } }
 */
export default class ProxyHeaderAuthenticator implements Authenticator {
  readonly id: string;
  readonly #service: AuthenticationService;
  readonly #header: string;
  readonly #secret: string;
  readonly #trusted: ReadonlySet<string>;
  readonly #allowedRoles: readonly string[];

  constructor(options: ProxyHeaderOptions, context: { id: string; service: AuthenticationService }) {
    if (typeof options.secret !== "string" || options.secret.length < 16) {
      throw new Error(`authentModeConfig.${context.id}.config.secret must be a text of 16 characters or more`);
    }
    this.id = context.id;
    this.#service = context.service;
    this.#header = (options.header ?? "x-remote-user").toLowerCase();
    this.#secret = options.secret;
    this.#trusted = new Set(options.trustedAddresses ?? ["127.0.0.1", "::1", "::ffff:127.0.0.1"]);
    this.#allowedRoles = options.allowedRoles ?? [];
  }

  async checkAuthentication(request: AuthRequest): Promise<AuthenticationResult> {
    const login = request.header(this.#header);
    if (!login) return { kind: "anonymous" };
    // The connection's own address: behind trusted proxies, clientAddress is the person's, not the proxy's.
    const fromProxy = this.#trusted.has(request.peerAddress) && constantTimeEqual(request.header("x-proxy-secret") ?? "", this.#secret);
    if (!fromProxy) return { kind: "refused", reason: "Untrusted identity header" };
    const principal = await this.#service.accounts.principal(login, request.stamp);
    return principal ? { kind: "authenticated", principal } : { kind: "refused", reason: "Unknown user" };
  }

  askAuthentication(): AuthenticationChallenge {
    // The proxy asks people to log in; a request that reaches us without it gets a plain 401.
    return { kind: "challenge" };
  }

  checkAuthorization(_request: AuthRequest, principal: Principal): boolean {
    return this.#allowedRoles.length === 0 || principal.isAdmin || this.#allowedRoles.some((role) => principal.roles.has(role));
  }
}
