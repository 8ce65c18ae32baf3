import { errorCodeDefinition, LineageError, type Platform } from "@lineage/core";
import { Hono, type Context, type MiddlewareHandler } from "hono";
import { apiChain } from "./api-chain.ts";
import { isClientAbort } from "./client-abort.ts";
import { apiAuthentication } from "./authentication/api-authentication.ts";
import { createHttpAuth, type HttpAuthOptions } from "./authentication/http-auth.ts";
import { authenticationPageRoutes, tokenAdminRoutes } from "./routes/authentication.ts";
import { consoleRoutes } from "./console/console-routes.ts";
import { errorEnvelope } from "./envelope.ts";
import type { HttpEnv } from "./http-env.ts";
import { createReadiness, healthRoutes, type Readiness } from "./health.ts";
import { httpLimits, type HttpLimits } from "./http-limits.ts";
import { redactedPath, requestLog, type Logger } from "./request-log.ts";
import { requestId } from "./request-id.ts";
import { overriddenMethod, refusedOverride } from "./method-override.ts";
import { unmetExpectation } from "./request-expectation.ts";
import { answerNotAvailable } from "./not-available.ts";
import { pathnameOf } from "./request-path.ts";
import { elementRoutes } from "./routes/elements.ts";
import { enumerateRoutes } from "./routes/enumerates.ts";
import { lifecycleRoutes } from "./routes/lifecycle.ts";
import { revisionRoutes } from "./routes/revisions.ts";
import { lockRoutes } from "./routes/locks.ts";
import { sessionRoutes } from "./routes/sessions.ts";
import { structureRoutes } from "./routes/structures.ts";
import { fileRoutes } from "./routes/files.ts";
import { trashRoutes } from "./routes/trash.ts";
import { searchesRoutes } from "./routes/searches.ts";
import { folderRoutes } from "./routes/folders.ts";
import { dashboardRoutes } from "./routes/dashboards.ts";
import { eventRoutes } from "./routes/events.ts";
import { fullsearchRoutes } from "./routes/fullsearch.ts";
import { webhookRoutes } from "./routes/webhooks.ts";
import { apiReferenceRoutes } from "./routes/api-reference.ts";
import { imageRoutes, type ImageServices } from "./routes/images.ts";

export interface HttpAppOptions {
  readonly platform: Platform;
  /** Replaces the whole authentication of /api/ requests (the `auth` options are then unused there). */
  readonly authentication?: MiddlewareHandler<HttpEnv>;
  /** Authenticators, providers, session cookie, guest home page (docs/authentication.md); html mode with the internal provider by default. */
  readonly auth?: HttpAuthOptions;
  /** Body size, upload size, JSON depth and time limits (docs/limits.md); each has a default. */
  readonly limits?: Partial<HttpLimits>;
  /** One log line per request (createRequestLogger); none when absent. */
  readonly logger?: Logger;
  /** What GET /health reports; startServer flips it when shutting down. Always ready by default. */
  readonly readiness?: Readiness;
  /** Where unexpected errors are reported (never to the client); the logger, else the console, by default. */
  readonly onUnexpectedError?: (error: unknown, request: UnexpectedErrorContext) => void;
  /** The Images routes' store and resizer (`createJimpImages` of @lineage/adapter-images); without them those routes are not served. */
  readonly images?: ImageServices;
  /** How often a live stream of events (GET /api/v2/events/stream) sends its `: keep-alive` comment; 15 s by default. */
  readonly eventKeepAliveMs?: number;
}

/** The request an unexpected error happened in, for the report. */
export interface UnexpectedErrorContext {
  readonly requestId: string | undefined;
  readonly method: string;
  /** Credentials in the query are redacted. */
  readonly path: string;
}

/**
 * The HTTP API as a Hono app: the envelope on every JSON answer, the spec's
 * errors, 501 for unavailable methods, 404 for unknown paths.
 * @example
 * serve({ fetch: createHttpApp({ platform }).fetch, port: 8080 });
 */
export function createHttpApp(options: HttpAppOptions): Hono<HttpEnv> {
  const { platform } = options;
  const { logger } = options;
  const limits = httpLimits(options.limits);
  const report = options.onUnexpectedError ?? ((error: unknown, request: UnexpectedErrorContext) => {
    if (logger) logger.error({ err: error, reqId: request.requestId, method: request.method, path: request.path }, "unexpected error");
    else console.error(`Unexpected error in ${request.method} ${request.path} (request ${request.requestId})`, error);
  });
  const api = new Hono<HttpEnv>({ strict: false });
  const httpAuth = createHttpAuth(platform, options.auth, logger);

  const answerError = (error: Error, c: Context<HttpEnv>) => {
    const isDomain = error instanceof LineageError || error.name === "LineageError";
    // Nothing will be sent: the request log records the abort (request-log.ts).
    if (!isDomain && !isClientAbort(c, error)) report(error, { requestId: c.get("requestId"), method: c.req.method, path: redactedPath(c.req.url) });
    const { status, body } = errorEnvelope(isDomain ? error : undefined);
    const retryAfter = isDomain ? errorCodeDefinition((error as LineageError).code).retryAfter : undefined;
    if (retryAfter !== undefined) c.header("Retry-After", String(retryAfter));
    return c.json(body, status as 400);
  };
  api.onError(answerError);
  api.notFound((c) => {
    const { status, body } = errorEnvelope(new LineageError("API0004", [pathnameOf(c.req.url)]));
    return c.json(body, status as 404);
  });

  const chain = apiChain({
    platform, limits, answerError,
    authentication: options.authentication ?? apiAuthentication(httpAuth),
    refusedOverride,
  });
  const refuseBeforeRouting = (error: LineageError, c: Context<HttpEnv>) => {
    c.res = answerError(error, c);
    return Promise.resolve();
  };
  const withRequestId = requestId();
  const withLog = logger ? requestLog(logger) : undefined;
  const override = overriddenMethod(api);
  // One layer for every request: a POST handled as another method is sent through the app again
  // before anything else; then its id, its log line, then the /api/ chain (the paths Hono's "/api/*" matches).
  api.use("*", (c, next) => {
    const overridden = override(c, next);
    if (overridden) return overridden;
    const path = c.req.path;
    const unmet = unmetExpectation(c);
    const inner = unmet ? () => refuseBeforeRouting(unmet, c) : path === "/api" || path.startsWith("/api/") ? () => chain(c, next) : next;
    return withRequestId(c, withLog ? () => withLog(c, inner) as Promise<void> : inner) as Promise<void>;
  });
  api.route("/", healthRoutes(options.readiness ?? createReadiness(), () => platform.fullsearch.engine.building()));

  api.route("/", authenticationPageRoutes(httpAuth));
  api.route("/", consoleRoutes(httpAuth, platform));
  api.route("/api/v2", tokenAdminRoutes());
  api.route("/api/v2", sessionRoutes(httpAuth));
  api.route("/api/v2", elementRoutes());
  api.route("/api/v2", trashRoutes());
  api.route("/api/v2", searchesRoutes());
  api.route("/api/v2", folderRoutes());
  api.route("/api/v2", revisionRoutes());
  api.route("/api/v2", lockRoutes());
  api.route("/api/v2", structureRoutes());
  api.route("/api/v2", fileRoutes());
  api.route("/api/v2", enumerateRoutes());
  api.route("/api/v2", lifecycleRoutes());
  api.route("/api/v2", dashboardRoutes());
  api.route("/api/v2", eventRoutes({ readiness: options.readiness, keepAliveMs: options.eventKeepAliveMs }));
  api.route("/api/v2", apiReferenceRoutes(api));
  if (options.images) api.route("/api/v2", imageRoutes(options.images));
  api.route("/", fullsearchRoutes());
  api.route("/", webhookRoutes());
  answerNotAvailable(api, "/api/v2");

  return api;
}
