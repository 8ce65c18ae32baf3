import { LineageError, type Platform } from "@lineage/core";
import { Hono, type MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { basicAuthentication } from "./basic-authentication.ts";
import { errorEnvelope } from "./envelope.ts";
import { wrapJsonInHtml } from "./html-wrap.ts";
import type { HttpEnv } from "./http-env.ts";
import { answerNotAvailable } from "./not-available.ts";
import { acceptsJson } from "./resource-name.ts";
import { elementRoutes } from "./routes/elements.ts";
import { enumerateRoutes } from "./routes/enumerates.ts";
import { lifecycleRoutes } from "./routes/lifecycle.ts";
import { revisionRoutes } from "./routes/revisions.ts";
import { trashRoutes } from "./routes/trash.ts";

export interface HttpAppOptions {
  readonly platform: Platform;
  /** Authentication of /api/ requests; HTTP Basic against the platform's accounts by default. */
  readonly authentication?: MiddlewareHandler<HttpEnv>;
  /** The largest request body accepted (bytes); 20 MiB by default. */
  readonly maxBodyBytes?: number;
  /** Where unexpected errors are reported (never to the client). */
  readonly onUnexpectedError?: (error: unknown) => void;
}

const OVERRIDABLE = new Set(["PUT", "DELETE"]);

/**
 * `X-HTTP-Method-Override` on a POST is honoured for PUT and DELETE only;
 * any other value is refused. The request is rewritten before routing.
 */
function overrideMethod(request: Request): Request | LineageError {
  const override = request.headers.get("x-http-method-override")?.trim().toUpperCase();
  if (!override || request.method !== "POST") return request;
  if (!OVERRIDABLE.has(override)) return new LineageError("API0008", [override, request.method]);
  return new Request(request, { method: override });
}

/** The last path segment carries a format suffix (`12.json`): then Accept does not matter. */
const hasSuffix = (path: string) => /\.[A-Za-z0-9]+$/.test(path.split("/").pop() ?? "");

/**
 * The HTTP API as a Hono app: the envelope on every JSON answer, the spec's
 * errors, 501 for unavailable methods, 404 for unknown paths.
 * @example
 * serve({ fetch: createHttpApp({ platform }).fetch, port: 8080 });
 */
export function createHttpApp(options: HttpAppOptions): Hono<HttpEnv> {
  const { platform } = options;
  const report = options.onUnexpectedError ?? ((error: unknown) => console.error(error));
  const api = new Hono<HttpEnv>({ strict: false });

  api.onError((error, c) => {
    const isDomain = error instanceof LineageError || error.name === "LineageError";
    if (!isDomain) report(error);
    const { status, body } = errorEnvelope(isDomain ? error : undefined);
    return c.json(body, status as 400);
  });
  api.notFound((c) => {
    const { status, body } = errorEnvelope(new LineageError("API0004", [new URL(c.req.url).pathname]));
    return c.json(body, status as 404);
  });

  api.use("/api/*", async (c, next) => {
    c.set("platform", platform);
    await next();
    c.res.headers.set("Cache-Control", "private, no-cache, must-revalidate");
    if (c.req.query("alt") === "html" && c.res.headers.get("content-type")?.startsWith("application/json")) {
      const json = await c.res.text();
      c.res = new Response(wrapJsonInHtml(json), { status: c.res.status, headers: c.res.headers });
      c.res.headers.set("Content-Type", "text/html; charset=utf-8");
    }
  });
  api.use("/api/*", async (c, next) => {
    const path = new URL(c.req.url).pathname;
    if (!hasSuffix(path) && !acceptsJson(c.req.header("accept"))) throw new LineageError("API0006", [c.req.header("accept") ?? ""]);
    await next();
  });
  const limit = options.maxBodyBytes ?? 20 * 1024 * 1024;
  const limitBody = bodyLimit({ maxSize: limit, onError: () => { throw new LineageError("API0010", [limit]); } });
  // Reading methods carry no body: checking theirs would make Hono build the whole request stream for nothing.
  api.use("/api/*", (c, next) => (c.req.method === "GET" || c.req.method === "HEAD" ? next() : limitBody(c, next)));
  api.use("/api/*", options.authentication ?? basicAuthentication({ platform }));

  api.route("/api/v2", elementRoutes());
  api.route("/api/v2", trashRoutes());
  api.route("/api/v2", revisionRoutes());
  api.route("/api/v2", enumerateRoutes());
  api.route("/api/v2", lifecycleRoutes());
  answerNotAvailable(api, "/api/v2");

  // The override must happen before routing, which Hono does before any middleware runs.
  const dispatch = api.fetch;
  api.fetch = (request, env, executionContext) => {
    const overridden = overrideMethod(request);
    if (overridden instanceof LineageError) {
      const { status, body } = errorEnvelope(overridden);
      return Response.json(body, { status });
    }
    return dispatch(overridden, env, executionContext);
  };
  return api;
}
