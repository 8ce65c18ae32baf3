import type { Principal } from "@lineage/core";
import type { Context } from "hono";
import { cookieOf } from "../request-cookie.ts";
import type { HttpEnv } from "../http-env.ts";
import type { HttpAuth } from "./http-auth.ts";
import { SESSION_COOKIE } from "./session-cookie.ts";

/**
 * The form token of the session the request's cookie carries, when that session is the
 * principal's: what the logout button and the console's forms send back. None without a
 * session (Basic, a token), so such requests get no form that changes anything.
 */
export async function sessionFormToken(c: Context, auth: HttpAuth, principal: Principal | undefined): Promise<string | undefined> {
  // The page's authentication has just resumed this session: its token, without resuming it again.
  const known = (c as Context<HttpEnv>).get("formToken");
  if (known !== undefined && principal !== undefined && (c as Context<HttpEnv>).get("principal") === principal) return known;
  const cookie = cookieOf(c, SESSION_COOKIE);
  const session = principal && cookie ? await auth.service.resumeSession(cookie) : undefined;
  return session && session.principal.account.id === principal?.account.id ? session.session.csrfToken : undefined;
}
