import type { Context } from "hono";
import { deleteCookie, setCookie } from "hono/cookie";

/** The CORE_SESSION_COOKIE options (api-v2.md, Session cookie). */
export interface SessionCookieOptions {
  readonly samesite?: "strict" | "lax" | "none";
  readonly httponly?: boolean;
  /** False sends the cookie to sub-domains too (Domain= the request's host name). */
  readonly hostonly?: boolean;
  readonly secure?: boolean;
  readonly path?: string;
}

export const SESSION_COOKIE = "lineage-session";
export const DEFAULT_SESSION_COOKIE: SessionCookieOptions = { samesite: "strict", httponly: true };

type CookieFlags = Parameters<typeof setCookie>[3];

/** Set-Cookie attributes from the options; defaults: samesite strict, httponly, host-only, not secure, path /. */
export function cookieFlags(c: Context, options: SessionCookieOptions): NonNullable<CookieFlags> {
  const samesite = options.samesite ?? "strict";
  const flags: NonNullable<CookieFlags> = {
    path: options.path ?? "/",
    httpOnly: options.httponly ?? true,
    sameSite: (samesite[0]!.toUpperCase() + samesite.slice(1)) as "Strict" | "Lax" | "None",
    // Browsers drop SameSite=None cookies that are not Secure.
    secure: options.secure ?? samesite === "none",
  };
  if (options.hostonly === false) flags.domain = new URL(c.req.url).hostname;
  return flags;
}

/** Sets the session cookie: a browser-session cookie, the server decides when the session ends. */
export function setSessionCookie(c: Context, options: SessionCookieOptions, value: string): void {
  setCookie(c, SESSION_COOKIE, value, cookieFlags(c, options));
}

export function clearSessionCookie(c: Context, options: SessionCookieOptions): void {
  deleteCookie(c, SESSION_COOKIE, cookieFlags(c, options));
}
