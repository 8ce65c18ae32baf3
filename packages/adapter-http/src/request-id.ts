import { randomUUID } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import type { HttpEnv } from "./http-env.ts";
import { headerOf } from "./request-header.ts";

export const REQUEST_ID_HEADER = "X-Request-Id";

/** What a client or proxy may choose as request id: short, and nothing that could forge a log line. */
const ACCEPTED_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/** The request id: the incoming `X-Request-Id` when it is sane, else a new UUID. */
export function requestIdOf(incoming: string | undefined): string {
  return incoming !== undefined && ACCEPTED_ID.test(incoming) ? incoming : randomUUID();
}

/** Sets a header on an answer whose headers may be immutable (a Response made elsewhere). */
export function withHeader(response: Response, name: string, value: string): Response {
  try {
    response.headers.set(name, value);
    return response;
  } catch {
    const copy = new Response(response.body, response);
    copy.headers.set(name, value);
    return copy;
  }
}

/** Gives every request an id (context `requestId`) and echoes it in `X-Request-Id`. */
export function requestId(): MiddlewareHandler<HttpEnv> {
  return async (c, next) => {
    const id = requestIdOf(headerOf(c, REQUEST_ID_HEADER));
    c.set("requestId", id);
    await next();
    // Setting c.res again would make Hono copy the answer, turning a plain string body into a stream.
    const answered = withHeader(c.res, REQUEST_ID_HEADER, id);
    if (answered !== c.res) c.res = answered;
  };
}
