import {
  type AuthenticationService, type AuthenticationServiceOptions,
  type Authenticator, type AuthRequest, type CredentialProvider, type Platform,
} from "@lineage/core";
import type { Context } from "hono";
import type { Logger } from "pino";
import { createBasicAuthenticator } from "./basic-authenticator.ts";
import { createClientAddressResolver, type ClientAddressOptions, type RequestAddresses } from "./client-address.ts";
import { createHtmlAuthenticator } from "./html-authenticator.ts";
import { createOpenAuthenticator } from "./open-authenticator.ts";
import { DEFAULT_SESSION_COOKIE, type SessionCookieOptions } from "./session-cookie.ts";
import { untrustedProxyHint } from "./proxy-hint.ts";
import { throttleWarning } from "./throttle-warning.ts";

/** The active authenticator's id, fixed or chosen per request (e.g. by Host header). */
export type AuthentMode = string | ((request: AuthRequest) => string | Promise<string>);

/** Authentication of the HTTP app (bundle.md, Configuration file). Every key has a default. */
export interface HttpAuthOptions extends ClientAddressOptions {
  /** `html` by default. */
  readonly mode?: AuthentMode;
  /** Custom authenticators by id, built with the service (and the platform); they may also replace html, basic or open. */
  readonly authenticators?: Readonly<Record<string, Authenticator | ((service: AuthenticationService, platform: Platform) => Authenticator)>>;
  /** Tried in order; the internal provider alone by default. Built with the platform when given as functions. */
  readonly providers?: ReadonlyArray<CredentialProvider | ((platform: Platform) => CredentialProvider)>;
  readonly sessionCookie?: SessionCookieOptions;
  /** The home page `/` is public (it greets guests). */
  readonly useIndexAsGuest?: boolean;
  /** The brute-force defence's rules and store (ThrottleOptions of @lineage/core), or a LoginThrottle. */
  readonly throttle?: AuthenticationServiceOptions["throttle"];
  /** Hears about every refused or slowed login attempt; by default a warning line in the app's logger (else the console). */
  readonly onThrottled?: AuthenticationServiceOptions["onThrottled"];
  readonly sessionPolicy?: AuthenticationServiceOptions["sessionPolicy"];
  readonly realm?: string;
}

/** The resolved authentication of an app: what its middleware and routes use. */
export interface HttpAuth {
  readonly service: AuthenticationService;
  readonly authenticators: ReadonlyMap<string, Authenticator>;
  readonly sessionCookie: SessionCookieOptions;
  readonly useIndexAsGuest: boolean;
  readonly realm: string | undefined;
  /** The configured mode of this request (authtype and credentials aside). */
  mode(request: AuthRequest): Promise<string>;
  /** The client and connection addresses of a request, trusted proxies considered. */
  addresses(c: Context): RequestAddresses;
  /** Told of each throttled (429) request: warns once when it came through a proxy nobody trusted. */
  throttled(c: Context): void;
}

/**
 * Builds the service and the authenticators (html, basic, open, then the custom ones).
 * `logger` receives the warnings of throttled attempts.
 */
export function createHttpAuth(platform: Platform, options: HttpAuthOptions = {}, logger?: Logger): HttpAuth {
  // Built first: a wrong trustedProxies entry stops the start before anything else is made.
  const addresses = createClientAddressResolver(options);
  const providers = (options.providers ?? [platform.auth.internalProvider()])
    .map((provider) => (typeof provider === "function" ? provider(platform) : provider));
  const service = platform.auth.service({
    providers,
    ...(options.throttle ? { throttle: options.throttle } : {}),
    ...(options.sessionPolicy ? { sessionPolicy: options.sessionPolicy } : {}),
    onThrottled: options.onThrottled ?? throttleWarning(logger),
  });
  const authenticators = new Map<string, Authenticator>([
    ["html", createHtmlAuthenticator(service)],
    ["basic", createBasicAuthenticator(service, options.realm ? { realm: options.realm } : {})],
    ["open", createOpenAuthenticator(service)],
  ]);
  for (const [id, custom] of Object.entries(options.authenticators ?? {})) {
    authenticators.set(id, typeof custom === "function" ? custom(service, platform) : custom);
  }
  const mode = options.mode ?? "html";
  if (typeof mode === "string" && !authenticators.has(mode)) throw new Error(`Unknown authentMode "${mode}"`);
  return {
    service,
    authenticators,
    sessionCookie: { ...DEFAULT_SESSION_COOKIE, ...options.sessionCookie },
    useIndexAsGuest: options.useIndexAsGuest ?? false,
    realm: options.realm,
    mode: async (request) => (typeof mode === "function" ? await mode(request) : mode),
    addresses,
    throttled: untrustedProxyHint(options.trustedProxies, logger),
  };
}
