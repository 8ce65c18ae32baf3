import { HTTP_RIGHTS, LineageError, type HttpRight } from "@lineage/core";
import type { Context, MiddlewareHandler } from "hono";
import type { HttpEnv } from "../http-env.ts";
import { toAuthRequest } from "./auth-request.ts";
import { basicChallenge } from "./basic-authenticator.ts";
import type { HttpAuth } from "./http-auth.ts";
import { identifyRequest } from "./identify-request.ts";
import { retryAfterOf } from "./retry-after.ts";

/** The global right a method needs (HEAD and OPTIONS read, PATCH writes). */
export function rightForMethod(method: string): HttpRight {
  const upper = method.toUpperCase();
  if (upper === "HEAD" || upper === "OPTIONS") return "GET";
  if (upper === "PATCH") return "PUT";
  return (HTTP_RIGHTS as readonly string[]).includes(upper) ? (upper as HttpRight) : "GET";
}

/**
 * Authentication of /api/ requests (bundle.md): never the login form. No
 * credentials, or wrong ones, give 401 with the envelope and a Basic
 * challenge (Basic is always honoured on /api/); an authenticator's refusal
 * gives 403 AUTH0403; then the platform's own check, the account's global
 * right for the method (403 CRUD0105). A throttled attempt gives 429
 * AUTH0429 with Retry-After.
 */
export function apiAuthentication(auth: HttpAuth): MiddlewareHandler<HttpEnv> {
  const basic = basicChallenge(auth.realm);
  const challenge = (c: Context) => c.header("WWW-Authenticate", basic);
  return async (c, next) => {
    const request = toAuthRequest(c, auth.addresses);
    let outcome;
    try {
      outcome = await identifyRequest(auth, request);
    } catch (error) {
      if (error instanceof LineageError && error.code === "AUTH0402") challenge(c);
      const retryAfter = retryAfterOf(error);
      if (retryAfter) {
        c.header("Retry-After", retryAfter);
        auth.throttled(c);
      }
      throw error;
    }
    switch (outcome.kind) {
      case "ask": {
        const asked = outcome.challenge.kind === "challenge" ? outcome.challenge.wwwAuthenticate : undefined;
        if (asked) c.header("WWW-Authenticate", asked);
        else challenge(c);
        throw new LineageError("AUTH0401", [], { userMessage: "Access not granted" });
      }
      case "refused":
        challenge(c);
        throw new LineageError("AUTH0401", [], { userMessage: outcome.reason });
      case "forbidden":
        throw new LineageError("AUTH0403", [request.method, request.path]);
      case "authenticated": {
        const right = rightForMethod(request.method);
        if (!outcome.principal.account.rights.includes(right)) throw new LineageError("CRUD0105", [right]);
        c.set("principal", outcome.principal);
        await next();
      }
    }
  };
}
