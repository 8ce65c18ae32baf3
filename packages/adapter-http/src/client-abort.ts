import type { Context } from "hono";
import type { IncomingMessage, ServerResponse } from "node:http";

interface NodeBindings {
  readonly incoming?: IncomingMessage;
  readonly outgoing?: ServerResponse;
}

/** The Node objects of a request served by @hono/node-server (none under `app.request()` or another runtime). */
export function nodeBindingsOf(c: Context): NodeBindings {
  return (c.env as NodeBindings | undefined) ?? {};
}

/** Errors a stream gives when its connection went away: Node's "aborted" request, a premature close, an abort. */
const ABORT_CODES = new Set(["ECONNRESET", "ERR_STREAM_PREMATURE_CLOSE", "ABORT_ERR", "UND_ERR_ABORTED"]);

/**
 * True when `error` is the request's client hanging up before its answer was sent (it closed the
 * connection in the middle of sending its body, say): the client's doing, not the server's
 * failure, so it is no unexpected error. An error of the server's own while the client is gone
 * stays one.
 */
export function isClientAbort(c: Context, error: unknown): boolean {
  const { incoming, outgoing } = nodeBindingsOf(c);
  if (!outgoing || !outgoing.destroyed || outgoing.writableFinished) return false;
  if (incoming?.errored && (error === incoming.errored || (error as { cause?: unknown } | null)?.cause === incoming.errored)) return true;
  const { code, name } = (error ?? {}) as { code?: unknown; name?: unknown };
  return (typeof code === "string" && ABORT_CODES.has(code)) || name === "AbortError";
}
