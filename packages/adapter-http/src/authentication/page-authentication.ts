import { isLineageError } from "@lineage/core";
import type { Context, MiddlewareHandler } from "hono";
import type { HttpEnv } from "../http-env.ts";
import { toAuthRequest } from "./auth-request.ts";
import type { HttpAuth } from "./http-auth.ts";
import { escapeHtml, htmlPage, PAGE_HEADERS } from "./html-page.ts";
import { identifyRequest } from "./identify-request.ts";
import { retryAfterOf } from "./retry-after.ts";

const TITLES = { 401: "Authentication required", 403: "Forbidden", 429: "Too many attempts" } as const;

function refusalPage(c: Context, status: 401 | 403 | 429, message: string, extraHeaders: Record<string, string> = {}): Response {
  const headers: Record<string, string> = { ...PAGE_HEADERS, ...extraHeaders };
  const body = htmlPage(TITLES[status], `<main>
<h1>${TITLES[status]}</h1>
<p role="alert">${escapeHtml(message)}</p>
<p><a href="/login?return=%2F">Log in</a></p>
</main>`);
  return c.body(body, status, headers);
}

/**
 * Authentication of pages outside /api/: the html flow. Without a session
 * the browser goes to the login form and comes back to the page it asked
 * for; other authenticators answer 401 with their challenge. `optional`
 * lets guests through (useIndexAsGuest) with no principal set.
 */
export function pageAuthentication(auth: HttpAuth, options: { optional?: boolean } = {}): MiddlewareHandler<HttpEnv> {
  return async (c, next) => {
    let outcome;
    try {
      outcome = await identifyRequest(auth, toAuthRequest(c, auth.addresses));
    } catch (error) {
      const retryAfter = retryAfterOf(error);
      if (retryAfter) {
        auth.throttled(c);
        return refusalPage(c, 429, (error as Error).message, { "Retry-After": retryAfter });
      }
      if (isLineageError(error)) return refusalPage(c, 401, error.message);
      throw error;
    }
    switch (outcome.kind) {
      case "authenticated":
        c.set("principal", outcome.principal);
        c.set("formToken", outcome.formToken);
        return next();
      case "forbidden":
        return refusalPage(c, 403, "You may not do this here.");
      case "refused": {
        const asked = outcome.authenticator.askAuthentication(toAuthRequest(c, auth.addresses));
        return refusalPage(c, 401, outcome.reason, asked.kind === "challenge" && asked.wwwAuthenticate ? { "WWW-Authenticate": asked.wwwAuthenticate } : {});
      }
      case "ask":
        if (options.optional) return next();
        if (outcome.challenge.kind === "login-form") {
          return c.redirect(`/login?return=${encodeURIComponent(outcome.challenge.returnTo)}`, 302);
        }
        return refusalPage(c, 401, "This page needs credentials.", outcome.challenge.wwwAuthenticate ? { "WWW-Authenticate": outcome.challenge.wwwAuthenticate } : {});
    }
  };
}
