import { LineageError } from "@lineage/core";
import type { Context, MiddlewareHandler } from "hono";
import { onDeclaredBodySize } from "./declared-body-size.ts";

interface NodeBindings {
  readonly incoming?: object;
}

/**
 * Refuses a request body over `maxSize` bytes with 413 API0010: at once when its Content-Length
 * says so, while reading a chunked body as its bytes arrive, and at once when its chunk-size lines
 * declare more (as served by startServer: declared-body-size.ts), without waiting for bytes a
 * client may never send. The refusal closes the connection: the rest of the body is not read.
 * A chunked body within the limit is read whole before the route runs, as Hono's bodyLimit does.
 */
export function bodyLimit(maxSize: number): MiddlewareHandler {
  const tooLarge = (c: Context): LineageError => {
    c.header("Connection", "close");
    return new LineageError("API0010", [maxSize]);
  };
  return async (c, next) => {
    const raw = c.req.raw;
    if (!raw.body) return next();
    const chunked = raw.headers.has("transfer-encoding");
    if (!chunked && raw.headers.has("content-length")) {
      if (Number.parseInt(raw.headers.get("content-length") ?? "0", 10) > maxSize) throw tooLarge(c);
      return next();
    }
    let refuse!: (error: LineageError) => void;
    const declaredTooMuch = new Promise<never>((_, reject) => {
      refuse = reject;
    });
    // Once the body is read, nothing looks at it any more.
    declaredTooMuch.catch(() => {});
    const stop = onDeclaredBodySize((c.env as NodeBindings | undefined)?.incoming, (total) => {
      if (total > maxSize) refuse(tooLarge(c));
    });
    let size = 0;
    let buffer = new Uint8Array(0);
    const reader = raw.body.getReader();
    try {
      for (;;) {
        // A read left pending is not cancelled: that would destroy the socket before the 413 is sent.
        const read = await Promise.race([reader.read(), declaredTooMuch]);
        if (read.done) break;
        const offset = size;
        size += read.value.length;
        if (size > maxSize) throw tooLarge(c);
        if (size > buffer.length) {
          const grown = new Uint8Array(Math.min(maxSize, Math.max(size, buffer.length * 2)));
          grown.set(buffer.subarray(0, offset));
          buffer = grown;
        }
        buffer.set(read.value, offset);
      }
    } finally {
      stop();
    }
    c.req.raw = new Request(raw, { body: buffer.subarray(0, size) });
    return next();
  };
}
