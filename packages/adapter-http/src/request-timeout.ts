import { LineageError } from "@lineage/core";
import type { Context, MiddlewareHandler } from "hono";
import { errorEnvelope } from "./envelope.ts";
import type { HttpEnv } from "./http-env.ts";

/**
 * Answers 503 API0101 (with Retry-After) when a request runs longer than `ms`.
 * 503 rather than 504: this server is the origin, not a gateway waiting on one,
 * and the client may retry later. The work cannot be interrupted, but the
 * request's `deadline` signal aborts, and body readers check it: a PUT whose
 * body took too long to arrive is answered 503 and never written.
 */
export function requestTimeout(ms: number): MiddlewareHandler<HttpEnv> {
  return async (c, next) => {
    const deadline = new AbortController();
    c.set("deadline", deadline.signal);
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<"expired">((resolve) => {
      timer = setTimeout(() => {
        deadline.abort();
        resolve("expired");
      }, ms);
    });
    try {
      if ((await Promise.race([next().then(() => "done" as const), expired])) === "done") return;
    } finally {
      clearTimeout(timer);
    }
    const { status, body } = errorEnvelope(new LineageError("API0101", [ms]));
    c.res = Response.json(body, { status, headers: { "Retry-After": "5", Connection: "close" } });
  };
}

/** Refuses to go on with a request whose time is up: its client has already been answered 503. */
export function throwIfExpired(c: Context): void {
  const deadline = (c as Context<HttpEnv>).get("deadline");
  if (deadline?.aborted) throw new LineageError("API0101", [(c as Context<HttpEnv>).get("limits")?.requestTimeoutMs]);
}
