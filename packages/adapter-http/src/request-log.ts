import type { MiddlewareHandler } from "hono";
import { pino, type DestinationStream, type LevelWithSilent, type Logger } from "pino";
import { nodeBindingsOf } from "./client-abort.ts";
import type { HttpEnv } from "./http-env.ts";

export type { Logger } from "pino";

/** Query variables whose values are credentials or could be: never written to a log. */
const SECRET_VARIABLE = /authori[sz]ation|auth|token|pass(word|wd)?|secret|session|cookie|privateid|api[-_]?key|^key$|signature/i;

/** Path segments that are credentials themselves: an access token revoked by its secret. */
const SECRET_SEGMENT = /(\/authent\/tokens\/)[^/?#]+/gi;

/** The longest path a log line keeps: a hostile URL must not blow up the logs. */
const MAX_LOGGED_PATH = 2048;

/**
 * The path and query of a URL for a log line, with the value of every
 * credential-like variable (`ank-authorization`, `password`, `token`…) replaced.
 * Names are compared once percent-decoded, so `%61nk-authorization` is caught too.
 */
export function redactedPath(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  const pathAndQuery = start < 0 ? "/" : url.slice(start);
  const hash = pathAndQuery.indexOf("#");
  const [path = "", query] = (hash < 0 ? pathAndQuery : pathAndQuery.slice(0, hash)).split(/\?(.*)/s, 2);
  const decodedName = (name: string) => {
    try {
      return decodeURIComponent(name.replace(/\+/g, " "));
    } catch {
      return name;
    }
  };
  const kept = query === undefined ? "" : `?${query
    .split("&")
    .map((pair) => {
      const equals = pair.indexOf("=");
      const name = equals < 0 ? pair : pair.slice(0, equals);
      return equals >= 0 && SECRET_VARIABLE.test(decodedName(name)) ? `${name}=[redacted]` : pair;
    })
    .join("&")}`;
  const line = `${path.replace(SECRET_SEGMENT, "$1[redacted]")}${kept}`;
  return line.length > MAX_LOGGED_PATH ? `${line.slice(0, MAX_LOGGED_PATH)}…` : line;
}

export interface RequestLoggerOptions {
  /** "info" logs one line per request; "silent" none. */
  readonly level?: LevelWithSilent;
  /** Where lines go; stdout by default. */
  readonly destination?: DestinationStream;
}

/**
 * A pino logger for the server: JSON lines, ISO times, and credentials
 * censored should any object carrying them be logged by mistake.
 * @example
 * createHttpApp({ platform, logger: createRequestLogger({ level: "info" }) });
 */
export function createRequestLogger(options: RequestLoggerOptions = {}): Logger {
  return pino(
    {
      level: options.level ?? "info",
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: {
        paths: ["password", "token", "authorization", "cookie", "*.password", "*.token", "*.authorization", "*.cookie", "headers", "*.headers"],
        censor: "[redacted]",
      },
    },
    options.destination ?? pino.destination({ dest: 1, sync: false }),
  );
}

/**
 * One log line per request, once its answer is sent (or the client has gone): request id, method,
 * path (credentials redacted), the status sent, duration and the login, never a header or a body.
 * A client that closed the connection first gets `aborted: true` at level info, and no status
 * when none was sent (a client's hang-up is not a server failure, and no 500 was sent).
 */
export function requestLog(logger: Logger): MiddlewareHandler<HttpEnv> {
  return async (c, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const { outgoing } = nodeBindingsOf(c);
      const write = () => {
        const aborted = outgoing !== undefined && !outgoing.writableFinished;
        const status = outgoing === undefined ? c.res.status : outgoing.headersSent ? outgoing.statusCode : undefined;
        const line = {
          reqId: c.get("requestId"),
          method: c.req.method,
          path: redactedPath(c.req.url),
          status,
          ms: Math.round((performance.now() - started) * 100) / 100,
          user: c.get("principal")?.account.login,
          ...(aborted ? { aborted } : {}),
        };
        if (status !== undefined && status >= 500) logger.error(line, "request");
        else logger.info(line, "request");
      };
      // Under Node the answer is written after this returns: the line waits for the outcome.
      if (!outgoing || outgoing.closed) write();
      else outgoing.once("close", write);
    }
  };
}
