import { constantTimeEqual, newSessionSecret } from "@lineage/core";
import type { Context } from "hono";
import { setCookie } from "hono/cookie";
import { cookieOf } from "../request-cookie.ts";
import { cookieFlags, type SessionCookieOptions } from "./session-cookie.ts";

const LOGIN_CSRF_COOKIE = "lineage-login-csrf";

/**
 * The login form's CSRF token, double-submitted: a cookie only this site can
 * set, and the same value in a hidden field. With SameSite it stops a
 * foreign page from logging the browser in to an account of the attacker.
 */
export function issueLoginCsrf(c: Context, options: SessionCookieOptions): string {
  const existing = cookieOf(c, LOGIN_CSRF_COOKIE);
  const token = existing && /^[A-Za-z0-9_-]{43}$/.test(existing) ? existing : newSessionSecret();
  setCookie(c, LOGIN_CSRF_COOKIE, token, { ...cookieFlags(c, options), path: "/login", sameSite: "Strict", httpOnly: true });
  return token;
}

/** True when the posted field matches the cookie (compared in constant time). */
export function loginCsrfMatches(c: Context, field: string | undefined): boolean {
  const cookie = cookieOf(c, LOGIN_CSRF_COOKIE);
  return Boolean(cookie && field && constantTimeEqual(cookie, field));
}
