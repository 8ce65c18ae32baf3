import { LineageError, turnVersion, type Platform } from "@lineage/core";
import type { Context, MiddlewareHandler, Next } from "hono";
import { bodyLimit } from "./body-limit.ts";
import { wrapJsonInHtml } from "./html-wrap.ts";
import type { HttpEnv } from "./http-env.ts";
import type { HttpLimits } from "./http-limits.ts";
import { headerOf } from "./request-header.ts";
import { pathnameOf } from "./request-path.ts";
import { requestTimeout } from "./request-timeout.ts";
import { acceptsEventStream, acceptsJson } from "./resource-name.ts";
import { OPEN_SESSION_PATH } from "./routes/sessions.ts";

export interface ApiChainOptions {
  readonly platform: Platform;
  readonly limits: HttpLimits;
  /** Authenticates the request and calls `next` (apiAuthentication, or the app's replacement). */
  readonly authentication: MiddlewareHandler<HttpEnv>;
  /** What the app answers for an error (its onError). */
  readonly answerError: (error: Error, c: Context<HttpEnv>) => Response | Promise<Response>;
  /** The refusal of the request's method override, if it has one to refuse (method-override.ts). */
  readonly refusedOverride: (c: Context<HttpEnv>) => LineageError | undefined;
}

/** The last path segment carries a format suffix (`12.json`): then Accept does not matter. */
const hasSuffix = (path: string) => /\.[A-Za-z0-9]+$/.test(path.slice(path.lastIndexOf("/") + 1));

/** Routes that answer stored bytes of any type (images, the files of file fields): the Accept of a JSON API does not apply. */
const servesFiles = (path: string) => path.startsWith("/api/v2/images/") || /^\/api\/v2\/(?:smart-structures\/[^/]+\/)?smart-elements\/[^/]+(?:\/revisions\/[^/]+)?\/files\//.test(path);

/** The live stream of events (routes/events.ts): answered as text/event-stream, which a browser's EventSource asks for. */
const streamsEvents = (path: string) => path === "/api/v2/events/stream" || path === "/api/v2/events/stream/";

/**
 * What every /api/ request goes through before its route, in this order: a refused method
 * override; the context (limits, platform) and the default Cache-Control; the request timeout
 * around the rest; the Accept check; the change clock as the request sees it (one read for
 * the requests of a turn of the event loop: turnVersion); the body limit (writes only);
 * authentication (but for the opening of a session: routes/sessions.ts). Then, on the way out, `alt=html` wraps the JSON.
 *
 * The chain calls these middlewares itself rather than through Hono: each layer Hono composes
 * costs every request an async dispatch of its own, measured at about 5 % of a cached GET each.
 * So it answers its errors itself, as Hono would (so that alt=html wraps them, and the request
 * log sees their status), and never throws an Error.
 */
export function apiChain(options: ApiChainOptions): (c: Context<HttpEnv>, next: Next) => Promise<void> {
  const { platform, limits, authentication, answerError, refusedOverride } = options;
  const limitBody = bodyLimit(limits.maxBodyBytes);
  const timeout = requestTimeout(limits.requestTimeoutMs);
  const stampOfTurn = turnVersion(platform.changes, setImmediate);

  /** As Hono's compose takes a middleware's answer: only one given before any other. */
  function take(c: Context<HttpEnv>, answer: Response | void): void {
    if (answer && !c.finalized) c.res = answer;
  }
  async function authenticated(c: Context<HttpEnv>, next: Next): Promise<void> {
    take(c, await authentication(c, next));
  }
  async function checked(c: Context<HttpEnv>, next: Next): Promise<void> {
    const path = pathnameOf(c.req.url);
    const accept = headerOf(c, "accept");
    const acceptable = acceptsJson(accept) || (streamsEvents(path) && acceptsEventStream(accept));
    if (!acceptable && !hasSuffix(path) && !servesFiles(path)) throw new LineageError("API0006", [accept ?? ""]);
    c.set("stamp", await stampOfTurn());
    // Reading methods carry no body: checking theirs would make Hono build the whole request stream for nothing.
    if (c.req.method === "GET" || c.req.method === "HEAD") return authenticated(c, next);
    // Opening a session is how a client authenticates: it needs no credentials of its own.
    const then = c.req.method === "POST" && OPEN_SESSION_PATH.test(path) ? next : () => authenticated(c, next);
    return limitBody(c, then).then((answer) => take(c, answer));
  }

  return async (c, next) => {
    const refused = refusedOverride(c);
    if (refused) {
      c.error = refused;
      c.res = await answerError(refused, c);
      return;
    }
    c.set("limits", limits);
    c.set("platform", platform);
    // Set before the handler runs, so a route may set its own (images: long-lived for vault content).
    c.header("Cache-Control", "private, no-cache, must-revalidate");
    try {
      await timeout(c, () => checked(c, next));
    } catch (error) {
      if (!(error instanceof Error)) throw error;
      c.error = error;
      c.res = await answerError(error, c);
    }
    if (c.req.query("alt") === "html" && c.res.headers.get("content-type")?.startsWith("application/json")) {
      const json = await c.res.text();
      c.res = new Response(wrapJsonInHtml(json), { status: c.res.status, headers: c.res.headers });
      c.res.headers.set("Content-Type", "text/html; charset=utf-8");
    }
  };
}
