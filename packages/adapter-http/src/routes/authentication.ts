import { constantTimeEqual, LineageError } from "@lineage/core";
import { Hono, type Context } from "hono";
import { bodyLimit } from "../body-limit.ts";
import { cookieOf } from "../request-cookie.ts";
import { clientAddressOf } from "../authentication/auth-request.ts";
import { retryAfterOf } from "../authentication/retry-after.ts";
import { formFields } from "../authentication/form-fields.ts";
import { homePage } from "../authentication/home-page.ts";
import { PAGE_HEADERS } from "../authentication/html-page.ts";
import type { HttpAuth } from "../authentication/http-auth.ts";
import { issueLoginCsrf, loginCsrfMatches } from "../authentication/login-csrf.ts";
import { loginPage, type LoginPageState } from "../authentication/login-page.ts";
import { pageAuthentication } from "../authentication/page-authentication.ts";
import { sessionFormToken } from "../authentication/session-form-token.ts";
import { afterLoginPath } from "../authentication/return-path.ts";
import { clearSessionCookie, SESSION_COOKIE, setSessionCookie } from "../authentication/session-cookie.ts";
import { successEnvelope } from "../envelope.ts";
import { describedRoute, type RouteDescription } from "../openapi/index.ts";
import * as v from "valibot";
import type { HttpEnv } from "../http-env.ts";

const FORM_LIMIT = 16 * 1024;

/**
 * The pages a person uses: the login form (GET and POST /login), logout
 * (POST /logout) and the home page `/`, which needs a login unless
 * `useIndexAsGuest`.
 */
export function authenticationPageRoutes(auth: HttpAuth): Hono<HttpEnv> {
  const app = new Hono<HttpEnv>();
  const showLogin = (c: Context, state: Omit<LoginPageState, "csrf">, status: 200 | 401 | 403 | 429) =>
    c.body(loginPage({ ...state, csrf: issueLoginCsrf(c, auth.sessionCookie) }), status, PAGE_HEADERS);
  // The same refusal as the API's, 413 API0010 envelope, also when a chunked body declares more.
  const limitForm = bodyLimit(FORM_LIMIT);

  app.get("/login", describedRoute(DESCRIBED.loginForm, (c) => showLogin(c, {
    returnTo: afterLoginPath(c.req.query("return")),
    ...(c.req.query("loggedout") === "1" ? { notice: "You are logged out." } : {}),
  }, 200)));

  app.post("/login", limitForm, describedRoute(DESCRIBED.login, async (c) => {
    const form = await formFields(c);
    const returnTo = afterLoginPath(form.return);
    const login = (form.login ?? "").trim();
    if (!loginCsrfMatches(c, form.csrf)) {
      return showLogin(c, { returnTo, login, error: "The form had expired. Please log in again." }, 403);
    }
    let principal;
    try {
      principal = await auth.service.verifyPassword(login, form.password ?? "", clientAddressOf(c, auth.addresses));
    } catch (error) {
      const retryAfter = retryAfterOf(error);
      if (!retryAfter) throw error;
      auth.throttled(c);
      c.header("Retry-After", retryAfter);
      return showLogin(c, { returnTo, login, error: `Too many failed attempts. Please try again in ${retryAfter} s.` }, 429);
    }
    // One message whether the login exists or not.
    if (!principal) return showLogin(c, { returnTo, login, error: "Username and/or password is incorrect." }, 401);
    const previous = cookieOf(c, SESSION_COOKIE);
    if (previous) await auth.service.closeSession(previous);
    setSessionCookie(c, auth.sessionCookie, (await auth.service.openSession(principal)).secret);
    c.header("Cache-Control", "no-store");
    return c.redirect(returnTo, 303);
  }));

  app.post("/logout", limitForm, describedRoute(DESCRIBED.logout, async (c) => {
    const form = await formFields(c);
    const cookie = cookieOf(c, SESSION_COOKIE);
    const session = cookie ? (await auth.service.resumeSession(cookie))?.session : undefined;
    // A foreign page must not be able to log people out: the session's own form token is needed.
    if (session && !constantTimeEqual(session.csrfToken, form.csrf ?? "")) {
      throw new LineageError("AUTH0403", [c.req.method, c.req.path], { userMessage: "Invalid form token: log out with the form of the home page" });
    }
    if (cookie) await auth.service.closeSession(cookie);
    clearSessionCookie(c, auth.sessionCookie);
    return c.redirect("/login?loggedout=1", 303);
  }));

  app.get("/", pageAuthentication(auth, { optional: auth.useIndexAsGuest }), describedRoute(DESCRIBED.home, async (c) => {
    const principal = c.get("principal") as HttpEnv["Variables"]["principal"] | undefined;
    return c.body(homePage(principal, await sessionFormToken(c, auth, principal)), 200, PAGE_HEADERS);
  }));
  return app;
}

/**
 * Token administration (administrators only, 403 ROUTES0131 otherwise):
 * GET /api/v2/authent/tokens/ lists tokens without their secrets,
 * DELETE /api/v2/authent/tokens/<id> revokes one.
 */
export function tokenAdminRoutes(): Hono<HttpEnv> {
  const app = new Hono<HttpEnv>({ strict: false });
  app.get("/authent/tokens", describedRoute(DESCRIBED.tokens, async (c) => {
    const tokens = await c.get("platform").tokens.list(c.get("principal"));
    return c.json(successEnvelope({ uri: "/api/v2/authent/tokens/", tokens }));
  }));
  app.delete("/authent/tokens/:token", describedRoute(DESCRIBED.revokeToken, async (c) => {
    const id = c.req.param("token");
    if (!id) throw new LineageError("AUTH0404", [""]);
    await c.get("platform").tokens.revoke(c.get("principal"), id);
    return c.json(successEnvelope({ id, revoked: true }));
  }));
  return app;
}

const LoginFormSchema = v.object({
  login: v.pipe(v.string(), v.description("Login of the account")),
  password: v.pipe(v.string(), v.description("Its password")),
  csrf: v.pipe(v.string(), v.description("The form token of the login page (its cookie must match)")),
  return: v.optional(v.pipe(v.string(), v.description("Local path to go to after login; anything else goes to /"))),
});
const LogoutFormSchema = v.object({ csrf: v.pipe(v.string(), v.description("The session's form token, from the home page")) });
const TokenRouteSchema = v.object({ pattern: v.string(), methods: v.array(v.string()) });
const TokenSummarySchema = v.object({
  id: v.string(), login: v.string(), routes: v.array(TokenRouteSchema), expiresAt: v.nullable(v.string()),
  expired: v.boolean(), oneshot: v.boolean(), description: v.string(), createdAt: v.string(),
});
const page = (description: string) => ({ contentType: "text/html", description });
/** A page outside /api/ answering with a status of its own. */
const pageWith = (status: number, description: string) => ({ status, ...page(description) });

/** The descriptions of the login pages and of token administration, for the OpenAPI document. */
const DESCRIBED: Record<"loginForm" | "login" | "logout" | "home" | "tokens" | "revokeToken", RouteDescription> = {
  loginForm: { tag: "Authentication", summary: "The login form", authenticated: false,
    query: v.object({ return: v.optional(v.pipe(v.string(), v.description("Local path to go to after login"))) }), response: page("The form, with a form token") },
  login: { tag: "Authentication", summary: "Log in with the form: opens a session cookie", authenticated: false,
    body: { content: { "application/x-www-form-urlencoded": LoginFormSchema } },
    response: { status: 303, contentType: null, description: "Logged in: Set-Cookie with the session, redirect to `return`." },
    otherResponses: [
      pageWith(401, "Wrong login or password (one message for both): the form again."),
      pageWith(403, "The form had expired (its form token does not match its cookie): the form again."),
      pageWith(429, "Too many failed attempts on this login or from this client: the form again, with Retry-After (seconds)."),
    ],
    errors: ["API0010"] },
  logout: { tag: "Authentication", summary: "Log out: closes the session", authenticated: false,
    body: { content: { "application/x-www-form-urlencoded": LogoutFormSchema } },
    response: { status: 303, contentType: null, description: "Redirect to /login?loggedout=1" },
    errors: ["API0010", "AUTH0403"] },
  home: { tag: "Authentication", summary: "Home page (login needed unless useIndexAsGuest)", authenticated: false, response: page("The home page"),
    otherResponses: [
      { status: 302, contentType: null, description: "No session, html mode: redirect to /login?return=/" },
      pageWith(401, "Credentials refused, or asked for by another authenticator (with its WWW-Authenticate)."),
      pageWith(403, "The authenticator does not authorize this account here."),
      pageWith(429, "Too many failed attempts on this login or from this client, with Retry-After (seconds)."),
    ] },
  tokens: { tag: "Authentication", summary: "List access tokens (administrators)",
    response: { data: v.object({ uri: v.string(), tokens: v.array(TokenSummarySchema) }) }, errors: ["ROUTES0131"] },
  revokeToken: { tag: "Authentication", summary: "Revoke an access token (administrators)",
    params: { token: v.pipe(v.string(), v.description("Token id (or the token itself)")) },
    response: { data: v.object({ id: v.string(), revoked: v.literal(true) }) }, errors: ["ROUTES0131", "AUTH0404"] },
};
