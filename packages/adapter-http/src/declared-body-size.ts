import type { IncomingMessage, Server } from "node:http";
import type { Socket } from "node:net";

/*
 * The size chunked request bodies declare in their chunk-size lines, before the bytes arrive.
 * Node's parser keeps those lines to itself: a client declaring a chunk of 2^64-1 bytes and then
 * sending nothing leaves the body reader waiting for bytes that never come, until the request
 * timeout. So the server reads the framing of each connection's bytes beside Node's parser
 * (never altering them), and the body limit (body-limit.ts) refuses at once a body declared
 * over it. Neither Hono's bodyLimit nor Node's own timeouts (requestTimeout, headersTimeout) can:
 * without this, such a request is answered 503 when it times out, not 413 at once
 * (limits.e2e.test.ts, "a chunk size declared over the limit").
 */

interface Declared {
  total: number;
  listener: ((total: number) => void) | undefined;
}

const declaredByRequest = new WeakMap<object, Declared>();

function declaredOf(request: object): Declared {
  let declared = declaredByRequest.get(request);
  if (!declared) {
    declared = { total: 0, listener: undefined };
    declaredByRequest.set(request, declared);
  }
  return declared;
}

/**
 * Calls `listener` with the total size a request's chunks have declared so far (now if some
 * have, then at each new chunk). Returns what stops it. A request with no declared chunks (not
 * chunked, or not served by `watchDeclaredBodySizes`) never calls it.
 */
export function onDeclaredBodySize(request: object | undefined, listener: (total: number) => void): () => void {
  if (!request) return () => {};
  const declared = declaredOf(request);
  declared.listener = listener;
  if (declared.total > 0) listener(declared.total);
  return () => {
    if (declared.listener === listener) declared.listener = undefined;
  };
}

function declare(request: IncomingMessage, total: number): void {
  const declared = declaredOf(request);
  declared.total = total;
  declared.listener?.(total);
}

/** Beyond these, Node's parser refuses the request anyway (431, or its chunk-extension limit): stop following. */
const MAX_HEAD_CHARS = 1024 * 1024;
const MAX_LINE_CHARS = 64 * 1024;

/** A chunk size in hex; more than 13 significant digits exceeds any body limit (and Number's precision). */
function chunkSize(line: string): number | undefined {
  const digits = /^[ \t]*([0-9A-Fa-f]+)/.exec(line)?.[1]?.replace(/^0+(?=.)/, "");
  if (digits === undefined) return undefined;
  return digits.length > 13 ? Number.POSITIVE_INFINITY : Number.parseInt(digits, 16);
}

/** The body framing of a request head: chunked (the last transfer coding), a length, or none. */
function framingOf(head: string): { chunked: boolean; length: number; tunnel: boolean } {
  // Most heads (GETs) have neither header: a single scan tells.
  if (!BODY_HEADER.test(head)) return { chunked: false, length: 0, tunnel: /^CONNECT /i.test(head) };
  const lines = head.split("\r\n");
  let codings = "";
  let length = 0;
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(":");
    const name = line.slice(0, colon).trim().toLowerCase();
    if (name === "transfer-encoding") codings += `,${line.slice(colon + 1)}`;
    else if (name === "content-length") length = Number(line.slice(colon + 1).trim()) || 0;
  }
  const chunked = codings.split(",").map((c) => c.trim().toLowerCase()).filter(Boolean).at(-1) === "chunked";
  return { chunked, length, tunnel: /^CONNECT /i.test(lines[0] ?? "") };
}

const BODY_HEADER = /\r\n(?:transfer-encoding|content-length)[ \t]*:/i;

type Phase = "head" | "fixed" | "size" | "data" | "crlf" | "trailer" | "off";

/**
 * Follows the messages of one connection through their framing: request heads, bodies of a
 * declared length, chunk-size lines, chunk data and trailers. `next` gives the request Node
 * emitted for each head (the reader runs after Node's parser on the same bytes); whatever it
 * cannot follow (a message Node refused, a tunnel) ends the following, never the connection.
 */
function connectionReader(next: () => IncomingMessage | undefined) {
  let phase: Phase = "head";
  let text = "";
  let remaining = 0;
  let total = 0;
  let current: IncomingMessage | undefined;

  function headDone(head: string): void {
    current = next();
    if (!current) {
      phase = "off";
      return;
    }
    const framing = framingOf(head);
    if (framing.tunnel) phase = "off";
    else if (framing.chunked) {
      phase = "size";
      total = 0;
    } else if (framing.length > 0) {
      phase = "fixed";
      remaining = framing.length;
    }
  }

  /** The text up to `terminator` (kept across reads) and the index in `bytes` past it; undefined to wait for more. */
  function lineUpTo(bytes: Buffer, at: number, terminator: string, limit: number): { line: string; next: number } | undefined {
    const before = text.length;
    text += bytes.toString("latin1", at, Math.min(bytes.length, at + limit - before + terminator.length));
    const end = text.indexOf(terminator, Math.max(0, before - terminator.length + 1));
    if (end < 0) {
      if (text.length > limit) phase = "off";
      return undefined;
    }
    const line = text.slice(0, end);
    const next = at + end + terminator.length - before;
    text = "";
    return { line, next };
  }

  function read(bytes: Buffer): void {
    let at = 0;
    while (at < bytes.length && phase !== "off") {
      switch (phase) {
        case "head": {
          // Node skips empty lines before a request line; so does this.
          if (text === "") while (at < bytes.length && (bytes[at] === 13 || bytes[at] === 10)) at++;
          if (at >= bytes.length) return;
          const found = lineUpTo(bytes, at, "\r\n\r\n", MAX_HEAD_CHARS);
          if (!found) return;
          at = found.next;
          headDone(found.line);
          break;
        }
        case "fixed":
        case "data":
        case "crlf": {
          const taken = Math.min(remaining, bytes.length - at);
          at += taken;
          remaining -= taken;
          if (remaining === 0) {
            if (phase === "data") {
              phase = "crlf";
              remaining = 2;
            } else phase = phase === "crlf" ? "size" : "head";
          }
          break;
        }
        case "size": {
          const found = lineUpTo(bytes, at, "\n", MAX_LINE_CHARS);
          if (!found) return;
          at = found.next;
          const size = chunkSize(found.line);
          if (size === undefined || !current) {
            phase = "off";
            break;
          }
          if (size === 0) {
            phase = "trailer";
            break;
          }
          total += size;
          declare(current, total);
          phase = "data";
          remaining = size;
          break;
        }
        case "trailer": {
          // The last chunk is followed by trailer fields, if any, then an empty line.
          const found = lineUpTo(bytes, at, "\n", MAX_LINE_CHARS);
          if (!found) return;
          at = found.next;
          if (found.line === "" || found.line === "\r") {
            phase = "head";
            current = undefined;
          }
          break;
        }
      }
    }
  }

  return { read, following: () => phase !== "off" };
}

/**
 * Follows the chunk-size lines of every request `server` receives, for `onDeclaredBodySize`.
 * Listening to a socket's data makes Node feed its parser from JavaScript rather than natively
 * (http.Server switches by itself when a `data` listener is added). What that costs a request:
 * docs/benchmarks.md, "HTTP infrastructure" (bench/declared-body-size.ts).
 */
export function watchDeclaredBodySizes(server: Server): void {
  const followed = new WeakMap<Socket, IncomingMessage[]>();
  server.on("request", (request: IncomingMessage) => followed.get(request.socket)?.push(request));
  server.on("connection", (socket: Socket) => {
    const emitted: IncomingMessage[] = [];
    followed.set(socket, emitted);
    const reader = connectionReader(() => emitted.shift());
    const read = (bytes: Buffer) => {
      reader.read(bytes);
      if (reader.following()) return;
      followed.delete(socket);
      socket.off("data", read);
    };
    socket.on("data", read);
  });
}
