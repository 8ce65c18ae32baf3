import type { Principal } from "../accounts/principal.ts";
import type { ChangeStamp } from "./change-clock.port.ts";

/** The request as authenticators see it: no HTTP framework, only what they need. */
export interface AuthRequest {
  /** The effective method (after X-HTTP-Method-Override), upper case. */
  readonly method: string;
  /** The URL path as received (percent-encoded). */
  readonly path: string;
  readonly url: URL;
  /**
   * The client's IP address: the connection's, or the one a trusted reverse proxy forwarded
   * (docs/deployment.md); "unknown" when the transport does not say.
   */
  readonly clientAddress: string;
  /** The address of the connection itself: the proxy's, behind a reverse proxy. */
  readonly peerAddress: string;
  /** True for /api/ requests: they never get a login form (bundle.md). */
  readonly isApi: boolean;
  header(name: string): string | undefined;
  cookie(name: string): string | undefined;
  /** A URL query variable, or a urlencoded/multipart form field of a POST. */
  variable(name: string): Promise<string | undefined>;
  /** The change clock as this request saw it, for the checks of its credentials. */
  readonly stamp?: ChangeStamp;
}

/** What checkAuthentication found. */
export type AuthenticationResult =
  /** The request carries a valid identity. */
  | {
    readonly kind: "authenticated"; readonly principal: Principal;
    /** The form token of the session that proved the identity (html): pages read it here rather than resume the session again. */
    readonly formToken?: string;
  }
  /** The request carries no credentials this authenticator reads: ask for them. */
  | { readonly kind: "anonymous" }
  /** The request carries credentials, and they are wrong (401). */
  | { readonly kind: "refused"; readonly reason: string };

/** How to ask for credentials (askAuthentication). */
export type AuthenticationChallenge =
  /** 401 with this WWW-Authenticate header (none when undefined). */
  | { readonly kind: "challenge"; readonly wwwAuthenticate?: string }
  /** Send a page request to a login form that comes back to `returnTo`. */
  | { readonly kind: "login-form"; readonly returnTo: string };

/**
 * Obtains the identity of a request (api-v2.md, Authentication flow): check,
 * ask when there is none, then its own authorization check before the
 * platform's. Built-in: html, basic, open; custom ones are classes named in
 * the configuration (`authentModeConfig`).
 */
export interface Authenticator {
  readonly id: string;
  checkAuthentication(request: AuthRequest): Promise<AuthenticationResult>;
  askAuthentication(request: AuthRequest): AuthenticationChallenge;
  /** False refuses the authenticated request (403), e.g. a token used outside its routes. */
  checkAuthorization(request: AuthRequest, principal: Principal): Promise<boolean> | boolean;
}
