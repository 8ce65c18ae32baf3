import { LineageError, type Deadline } from "@lineage/core";
import type { Context, MiddlewareHandler } from "hono";
import { errorEnvelope } from "./envelope.ts";
import type { HttpEnv } from "./http-env.ts";

/** A request's deadline (context `deadline`), aborted once it has been answered 503 for its timeout. */
interface Running extends Deadline {
  aborted: boolean;
  readonly at: number;
  readonly expire: () => void;
  committing(): void;
}

/**
 * Requests in flight under one timeout, oldest first. All share the same
 * duration, so the oldest is always the next to expire: one timer, armed for
 * it, serves them all (a timer and an AbortController per request cost more
 * than many GETs take). Set order is insertion order, and removal is O(1).
 */
function createDeadlines(ms: number) {
  const running = new Set<Running>();
  let timer: NodeJS.Timeout | undefined;

  function arm(): void {
    timer = undefined;
    for (const oldest of running) {
      timer = setTimeout(expireDue, Math.max(0, oldest.at - performance.now()));
      // The requests' sockets keep the process alive, not this timer.
      timer.unref();
      return;
    }
  }

  function expireDue(): void {
    const now = performance.now();
    for (const request of running) {
      if (request.at > now) break;
      running.delete(request);
      request.aborted = true;
      request.expire();
    }
    arm();
  }

  return {
    start(expire: () => void): Running {
      const request: Running = {
        aborted: false, at: performance.now() + ms, expire,
        // Its write is committing: it is answered with its outcome, however long that takes.
        committing: () => running.delete(request),
      };
      running.add(request);
      // A timer armed for a request that has finished since fires early and arms again for the next one.
      if (!timer) arm();
      return request;
    },
    finish(request: Running): void {
      running.delete(request);
    },
  };
}

/**
 * Answers 503 API0101 (with Retry-After) when a request runs longer than `ms`.
 * 503 rather than 504: this server is the origin, not a gateway waiting on one,
 * and the client may retry later. The work cannot be interrupted, but the
 * request's `deadline` is aborted: body readers check it (a PUT whose body
 * took too long to arrive is answered 503 and never written), and writes
 * hand it to their transaction, which then rolls back instead of committing.
 * Ours rather than Hono's hono/timeout, which races the rest against one timer per request: it
 * gives the rest no deadline to check, and cannot stop the clock of a write that has begun to
 * commit, so that write would be answered 503 (limits.e2e.test.ts, "a PUT that committed in time").
 * Its cost against Hono's: docs/benchmarks.md, "HTTP infrastructure".
 */
export function requestTimeout(ms: number): MiddlewareHandler<HttpEnv> {
  const deadlines = createDeadlines(ms);
  return (c, next) => new Promise<void>((answered, failed) => {
    const deadline = deadlines.start(() => {
      const { status, body } = errorEnvelope(new LineageError("API0101", [ms]));
      c.res = Response.json(body, { status, headers: { "Retry-After": "5", Connection: "close" } });
      answered();
    });
    c.set("deadline", deadline);
    let running: Promise<void>;
    try {
      running = next();
    } catch (error) {
      // Thrown before its first await: still the request's end, or its deadline would stay armed.
      running = Promise.reject(error);
    }
    running.then(
      () => {
        deadlines.finish(deadline);
        answered();
      },
      (error: unknown) => {
        deadlines.finish(deadline);
        failed(error);
      },
    );
  });
}

/** Refuses to go on with a request whose time is up: its client has already been answered 503. */
export function throwIfExpired(c: Context): void {
  const deadline = (c as Context<HttpEnv>).get("deadline");
  if (deadline?.aborted) throw new LineageError("API0101", [(c as Context<HttpEnv>).get("limits")?.requestTimeoutMs]);
}
