import type { AuthenticationService, Authenticator } from "@lineage/core";
import { SESSION_COOKIE } from "./session-cookie.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * The `html` authenticator: a session opened by the login form, carried by
 * the session cookie. No session sends pages to the login form; a changing
 * request from another site (Origin or Sec-Fetch-Site say so) is refused
 * even when its cookie came along, whatever the SameSite setting.
 */
export function createHtmlAuthenticator(service: AuthenticationService): Authenticator {
  return {
    id: "html",
    async checkAuthentication(request) {
      const cookie = request.cookie(SESSION_COOKIE);
      const resumed = cookie ? await service.resumeSession(cookie, request.stamp) : undefined;
      return resumed ? { kind: "authenticated", principal: resumed.principal, formToken: resumed.session.csrfToken } : { kind: "anonymous" };
    },
    askAuthentication: (request) => ({ kind: "login-form", returnTo: `${request.url.pathname}${request.url.search}` }),
    checkAuthorization(request) {
      if (SAFE_METHODS.has(request.method)) return true;
      if (request.header("sec-fetch-site") === "cross-site") return false;
      const origin = request.header("origin");
      if (!origin) return true;
      // Hosts, not origins: a TLS-terminating proxy makes our own URL http while the browser's Origin says https.
      try {
        return new URL(origin).host === request.url.host;
      } catch {
        return false;
      }
    },
  };
}
