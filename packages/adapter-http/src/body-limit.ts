import { LineageError } from "@lineage/core";
import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit as honoBodyLimit } from "hono/body-limit";
import { onDeclaredBodySize } from "./declared-body-size.ts";

interface NodeBindings {
  readonly incoming?: { readonly headers?: Readonly<Record<string, string | string[] | undefined>> };
}

/**
 * Refuses a request body over `maxSize` bytes with 413 API0010, closing the connection (the rest of
 * the body is not read). Hono's bodyLimit refuses at once a Content-Length over it, and a chunked
 * body as its bytes arrive (a body within the limit is read whole before the route runs). Beside it,
 * a chunked body whose chunk-size lines declare more (as served by startServer:
 * declared-body-size.ts) is refused at once too: neither Hono's bodyLimit nor Node's timeouts can,
 * and a client declaring 2^64-1 bytes and sending none would hold the request until it times out
 * (503, not 413: packages/adapter-http/test/limits.e2e.test.ts, "a chunk size declared over the limit").
 */
export function bodyLimit(maxSize: number): MiddlewareHandler {
  const tooLarge = (c: Context): never => {
    c.header("Connection", "close");
    throw new LineageError("API0010", [maxSize]);
  };
  const limit = honoBodyLimit({ maxSize, onError: tooLarge });
  return async (c, next) => {
    // A body of declared length, under Node: its header is checked as Hono's bodyLimit would, without
    // Hono's building a whole fetch Request to ask whether there is a body (request-text.ts reads it).
    const headers = (c.env as NodeBindings | undefined)?.incoming?.headers;
    const declared = headers?.["transfer-encoding"] === undefined ? headers?.["content-length"] : undefined;
    if (typeof declared === "string" && c.req.method !== "GET" && c.req.method !== "HEAD" && c.req.method !== "TRACE") {
      return Number.parseInt(declared, 10) > maxSize ? tooLarge(c) : next();
    }
    if (!c.req.raw.body || !c.req.raw.headers.has("transfer-encoding")) return limit(c, next);
    let stop = () => {};
    let declaredOver = false;
    const declaredTooMuch = new Promise<never>((_, refuse) => {
      stop = onDeclaredBodySize((c.env as NodeBindings | undefined)?.incoming, (total) => {
        if (total <= maxSize) return;
        declaredOver = true;
        try {
          tooLarge(c);
        } catch (error) {
          refuse(error);
        }
      });
    });
    try {
      // Refused on a declaration, Hono's read of the body is left pending, not cancelled: cancelling
      // would destroy the socket before the 413 is sent; should that read ever finish, the route
      // still never runs. The body read whole, declarations are over.
      return await Promise.race([limit(c, () => {
        stop();
        return declaredOver ? tooLarge(c) : next();
      }), declaredTooMuch]);
    } finally {
      stop();
    }
  };
}
