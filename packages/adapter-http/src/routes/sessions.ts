import { LineageError } from "@lineage/core";
import { Hono, type Context } from "hono";
import * as v from "valibot";
import { clientAddressOf } from "../authentication/auth-request.ts";
import { formFields } from "../authentication/form-fields.ts";
import type { HttpAuth } from "../authentication/http-auth.ts";
import { retryAfterOf } from "../authentication/retry-after.ts";
import { clearSessionCookie, SESSION_COOKIE, setSessionCookie } from "../authentication/session-cookie.ts";
import { successEnvelope } from "../envelope.ts";
import type { HttpEnv } from "../http-env.ts";
import { describedRoute, type RouteDescription } from "../openapi/index.ts";
import { cookieOf } from "../request-cookie.ts";
import { headerOf } from "../request-header.ts";
import { readJsonBody } from "../request-body.ts";

/** The body of a session's opening: JSON, or a form with the same fields. */
const SessionBodySchema = v.looseObject({
  password: v.optional(v.pipe(v.string(), v.description("The account's password; empty or missing gives 403 AUTH0001"))),
  language: v.optional(v.pipe(v.string(), v.description("Accepted and ignored: the account's locale is its own"))),
});

/** The path of the route that opens a session: the API chain lets it through without credentials (api-chain.ts). */
export const OPEN_SESSION_PATH = /^\/api\/v2\/authent\/sessions\/[^/]+\/?$/;

const INCORRECT = "Username and/or password is incorrect";

/** The password of the request: a JSON body's, or a form's. */
async function passwordOf(c: Context<HttpEnv>): Promise<string | undefined> {
  const type = headerOf(c, "content-type")?.toLowerCase() ?? "";
  if (!type.startsWith("application/json")) return (await formFields(c)).password;
  const body = v.safeParse(SessionBodySchema, await readJsonBody(c));
  if (!body.success) throw new LineageError("API0009", [`a JSON object with a string "password" is expected: ${body.issues[0].message}`]);
  return body.output.password;
}

/**
 * A request that comes from another site (its Origin names another host, or Sec-Fetch-Site says
 * cross-site): a foreign page must not log a browser into an account of its choosing.
 */
function crossSite(c: Context<HttpEnv>): boolean {
  if (headerOf(c, "sec-fetch-site") === "cross-site") return true;
  const origin = headerOf(c, "origin");
  if (!origin) return false;
  try {
    return new URL(origin).host !== new URL(c.req.url).host;
  } catch {
    return true;
  }
}

/**
 * Sessions over JSON, as the original's Session and Logout routes: POST /authent/sessions/{login}
 * opens one (the session cookie the login form sets), DELETE /authent/sessions/current closes the
 * caller's. Failed logins count against the same throttle as the form's. And the caller's own
 * account, at the original's GET /ui/users/current.
 */
export function sessionRoutes(auth: HttpAuth): Hono<HttpEnv> {
  const app = new Hono<HttpEnv>({ strict: false });
  app.post("/authent/sessions/:login", describedRoute(DESCRIBED.open, async (c) => {
    if (crossSite(c)) throw new LineageError("AUTH0403", [c.req.method, c.req.path], { userMessage: "A session cannot be opened from another site" });
    const login = c.req.param("login") ?? "";
    const password = await passwordOf(c);
    if (!password) throw new LineageError("AUTH0001", [], { userMessage: "Error, access forbidden: a password is needed" });
    let principal;
    try {
      principal = await auth.service.verifyPassword(login, password, clientAddressOf(c, auth.addresses));
    } catch (error) {
      const retryAfter = retryAfterOf(error);
      if (retryAfter) {
        auth.throttled(c);
        c.header("Retry-After", retryAfter);
      }
      throw error;
    }
    // One message whether the login exists or not.
    if (!principal) throw new LineageError("AUTH0002", [INCORRECT], { userMessage: INCORRECT });
    const previous = cookieOf(c, SESSION_COOKIE);
    if (previous) await auth.service.closeSession(previous);
    setSessionCookie(c, auth.sessionCookie, (await auth.service.openSession(principal)).secret);
    c.header("Cache-Control", "no-store");
    return c.json(successEnvelope({ login: principal.account.login }));
  }));
  app.get("/ui/users/current", describedRoute(DESCRIBED.current, (c) => c.json(successEnvelope(c.var.platform.accounts.current(c.var.principal)))));
  app.delete("/authent/sessions/current", describedRoute(DESCRIBED.close, async (c) => {
    const cookie = cookieOf(c, SESSION_COOKIE);
    if (cookie) await auth.service.closeSession(cookie);
    clearSessionCookie(c, auth.sessionCookie);
    const basicAuthent = /^basic\s/i.test(headerOf(c, "authorization") ?? "");
    return c.json(successEnvelope({ basicAuthent }));
  }));
  return app;
}

const DESCRIBED: Record<"open" | "close" | "current", RouteDescription> = {
  current: {
    tag: "Authentication", summary: "The caller's own account",
    description: "What a client needs to start: the account's id, login, display name, locale, effective roles (its own and its groups'), " +
      "groups and global rights, at the original's path of the current user.",
    response: {
      data: v.object({
        id: v.number(), login: v.string(), displayName: v.string(), locale: v.string(),
        roles: v.array(v.string()), groups: v.array(v.string()), rights: v.array(v.string()), isAdmin: v.boolean(),
      }),
    },
  },
  open: {
    tag: "Authentication", summary: "Open a session with a password (JSON): sets the session cookie", authenticated: false,
    params: { login: v.pipe(v.string(), v.description("Login of the account")) },
    description: "The login form's session, for scripts and single-page apps: the same cookie, the same throttle of failed attempts (429 AUTH0429 " +
      "with Retry-After). A request from another site (Origin or Sec-Fetch-Site) is refused with 403 AUTH0403.",
    body: { content: { "application/json": SessionBodySchema, "application/x-www-form-urlencoded": SessionBodySchema } },
    response: { data: v.object({ login: v.string() }), description: "Logged in: Set-Cookie with the session" },
    errors: ["API0009", "API0010", "AUTH0001", "AUTH0002", "AUTH0403", "AUTH0429"],
  },
  close: {
    tag: "Authentication", summary: "Close the caller's session",
    description: "Ends the session of the request's cookie and clears the cookie. `basicAuthent` says whether the request came with Basic " +
      "credentials, which a browser keeps sending until it is closed.",
    response: { data: v.object({ basicAuthent: v.boolean() }) },
  },
};
