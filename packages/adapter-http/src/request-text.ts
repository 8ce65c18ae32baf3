import type { Context } from "hono";
import type { IncomingMessage } from "node:http";
import { nodeBindingsOf } from "./client-abort.ts";

/** WHATWG's UTF-8 decode, as Request.text() does it: a leading byte order mark is dropped, bad bytes become U+FFFD. */
const utf8 = new TextDecoder();

/**
 * Whether a request body can be read straight from Node's stream: it declares its length (so the
 * body limit checked it from the header: body-limit.ts) and nothing has started reading it yet.
 * Otherwise Hono's Request reads it (a chunked body, counted as it arrives; or one already read).
 */
function untouched(incoming: IncomingMessage | undefined): incoming is IncomingMessage {
  return incoming !== undefined && incoming.headers["content-length"] !== undefined && incoming.headers["transfer-encoding"] === undefined &&
    !incoming.readableDidRead && incoming.readableFlowing === null && incoming.listenerCount("data") === 0 && !incoming.readableEnded;
}

function readWhole(incoming: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const settle = () => {
      incoming.off("data", onData).off("end", onEnd).off("error", onError).off("close", onClose);
    };
    const onData = (chunk: Buffer) => chunks.push(chunk);
    const onEnd = () => {
      settle();
      resolve(utf8.decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
    };
    const onError = (error: Error) => {
      settle();
      reject(error);
    };
    // A connection gone before the end: the stream's own error when it has one (client-abort.ts recognises it).
    const onClose = () => {
      settle();
      reject(incoming.errored ?? Object.assign(new Error("aborted"), { code: "ECONNRESET" }));
    };
    incoming.on("data", onData).on("end", onEnd).on("error", onError).on("close", onClose);
  });
}

/**
 * The request body as text, as `c.req.text()` gives it. Under Node, a body of declared length is
 * read from Node's stream itself: Hono would first build a whole fetch Request around it (a web
 * stream, an AbortController), measured at about a tenth of a PUT's CPU. The text is left in Hono's
 * body cache, so that any later read of the body (text, json, parseBody) gets it.
 */
export function requestText(c: Context): Promise<string> {
  // Hono types its cache by the bodies' values, but keeps (and awaits) their promises in it.
  const cache = c.req.bodyCache as Record<string, Promise<unknown> | undefined>;
  const { incoming } = nodeBindingsOf(c);
  if (Object.keys(cache).length > 0 || !untouched(incoming)) return c.req.text();
  const text = readWhole(incoming);
  cache.text = text;
  return text;
}
