import { EventQuerySchema, isLineageError, parseEventQuery, type ElementEvent, type EventPage, type EventQuery, type EventWait, type Platform, type Principal } from "@lineage/core";
import { Hono, type Context } from "hono";
import * as v from "valibot";
import { ElementEventSchema, describedRoute, type RouteDescription } from "../openapi/index.ts";
import { successEnvelope } from "../envelope.ts";
import { eventStreamResponse, type EventStreamBody } from "../event-stream-body.ts";
import type { Readiness } from "../health.ts";
import type { HttpEnv } from "../http-env.ts";
import { headerOf } from "../request-header.ts";

const QUERY_ERRORS = ["EVENT0400", "EVENT0410"] as const;
/** What 410 EVENT0410 gives in the envelope's `data`. */
const GONE_DATA = {
  EVENT0410: v.pipe(
    v.object({ oldest: v.pipe(v.number(), v.description("The first seq still kept: pass it less one as `after`")) }),
    v.description("EVENT0410: where the kept events start"),
    v.examples([{ oldest: 1043 }]),
  ),
};

const LIST: RouteDescription = {
  tag: "Events", summary: "Read the events after a position", query: EventQuerySchema,
  description: "The next events after `after` that the caller may see now (an event shows while the caller may view its element; " +
    "fields they may not see are absent from `changes`, passwords always), in seq order, at most `slice`. " +
    "`data.last` is the seq to pass as `after` next: it goes past events the caller may not see. An `after` older than the " +
    "oldest kept event: 410 EVENT0410, `data.oldest` being the first seq still kept.",
  response: { data: v.object({ events: v.array(ElementEventSchema), last: v.pipe(v.number(), v.description("The seq to pass as `after` next")) }) },
  errors: [...QUERY_ERRORS],
  errorData: GONE_DATA,
};

const STREAM: RouteDescription = {
  tag: "Events", summary: "Follow the events live (Server-Sent Events)", query: EventQuerySchema,
  description: "A `text/event-stream` of the events the caller may see, as GET /api/v2/events/ gives them: each one a message with `id:` " +
    "its seq, `event:` its type and `data:` the event as JSON; a `: keep-alive` comment every 15 s. It starts after `after`, " +
    "or after the `Last-Event-ID` header when there is one (which wins: EventSource sends it when it reconnects). An event committed " +
    "on any node reaches every node's streams within 1 s. Refusals (a bad query, 410 EVENT0410) come as the JSON envelope, before the stream starts.",
  response: {
    contentType: "text/event-stream",
    data: v.pipe(v.string(), v.description("`id: <seq>`, `event: <type>`, `data: <the event as JSON>` per event; `: keep-alive` comments")),
  },
  errors: [...QUERY_ERRORS],
  errorData: GONE_DATA,
};

/** How often a stream sends a comment by default, so that proxies and clients see it alive. */
export const KEEP_ALIVE_MS = 15_000;

export interface EventRoutesOptions {
  /** False once the server shuts down (startServer stops it): open streams then end, and their clients reconnect elsewhere. */
  readonly readiness?: Readiness | undefined;
  /** How often a stream sends its `: keep-alive` comment; KEEP_ALIVE_MS by default. */
  readonly keepAliveMs?: number | undefined;
}
/** How long a stream waits at most between two looks at the log and at the server's readiness. */
const WAIT_MS = 1000;
/** How long a stream waits before it reads again after a failed read (the database away for a moment). */
const RETRY_MS = 1000;

/** The query variables and the Last-Event-ID header of a request, parsed (400 EVENT0400). */
function eventQueryOf(c: Context<HttpEnv>, withLastEventId: boolean): EventQuery {
  const q = c.req.query();
  return parseEventQuery({ after: q.after, slice: q.slice, types: q.types, structure: q.structure, lastEventId: withLastEventId ? headerOf(c, "last-event-id") : undefined });
}

/**
 * The event log over HTTP: a page after a position, and the live stream. The stream holds no
 * database connection while it waits (platform.events.wait), ends when the server starts shutting
 * down (`readiness`), and releases everything when its client leaves.
 */
export function eventRoutes({ readiness, keepAliveMs = KEEP_ALIVE_MS }: EventRoutesOptions = {}): Hono<HttpEnv> {
  const app = new Hono<HttpEnv>({ strict: false });
  app.get("/events", describedRoute(LIST, async (c) => {
    const page = await c.var.platform.events.read(c.var.principal, eventQueryOf(c, false), c.var.stamp);
    return c.json(successEnvelope({ events: page.events, last: page.last }));
  }));
  app.get("/events/stream", describedRoute(STREAM, async (c) => {
    const { platform, principal } = c.var;
    const query = eventQueryOf(c, true);
    // Read before the answer starts: a refusal (an unknown structure, 410) is answered as an error.
    const first = await platform.events.read(principal, query);
    c.header("X-Accel-Buffering", "no");
    return eventStreamResponse(c, (stream) => followEvents(stream, { platform, principal, query, first, keepAliveMs, running: () => readiness?.ready ?? true }));
  }));
  return app;
}

interface Follow {
  readonly platform: Platform;
  readonly principal: Principal;
  readonly query: EventQuery;
  /** The page read before the stream started. */
  readonly first: EventPage;
  readonly keepAliveMs: number;
  /** False once the server shuts down: the stream then ends, and its client reconnects elsewhere. */
  running(): boolean;
}

// Streams woken by one commit, of readers with the same rights, share one page (platform.events.follow),
// and the pages of readers with other rights share the event objects of the events they see alike
// (a reader's own copy only when fields are hidden from it): a page's chunk is built once, however
// many streams send it, and each event's message once per distinct form in which readers see it.
const messages = new WeakMap<ElementEvent, Uint8Array>();
const chunks = new WeakMap<EventPage, Uint8Array>();
const encoder = new TextEncoder();
const KEEP_ALIVE = encoder.encode(": keep-alive\n\n");

/** The event as one SSE message (`event:`, `data:`, `id:`, as hono's writeSSE writes them): its JSON holds no line break. */
function eventMessage(event: ElementEvent): Uint8Array {
  let message = messages.get(event);
  if (message === undefined) {
    message = encoder.encode(`event: ${event.type}\ndata: ${JSON.stringify(event)}\nid: ${event.seq}\n\n`);
    messages.set(event, message);
  }
  return message;
}

/** A page's messages as one chunk: one write to the client's connection per page, not one per event. */
function pageChunk(page: EventPage): Uint8Array {
  let chunk = chunks.get(page);
  if (chunk !== undefined) return chunk;
  const parts = page.events.map(eventMessage);
  if (parts.length === 1) chunk = parts[0]!;
  else {
    chunk = new Uint8Array(parts.reduce((size, part) => size + part.length, 0));
    let at = 0;
    for (const part of parts) {
      chunk.set(part, at);
      at += part.length;
    }
  }
  chunks.set(page, chunk);
  return chunk;
}

/** Writes the events as they come until the client leaves or the server stops. */
async function followEvents(stream: EventStreamBody, { platform, principal, query, first, keepAliveMs, running }: Follow): Promise<void> {
  let waiting: EventWait | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let wakeRetry: (() => void) | undefined;
  stream.onAbort(() => {
    waiting?.cancel();
    clearTimeout(retry);
    wakeRetry?.();
  });
  const open = () => !stream.aborted && !stream.closed && running();
  // A first comment at once: it sends the headers, so the client knows the stream is open.
  await stream.write(KEEP_ALIVE);
  let keepAliveAt = Date.now() + keepAliveMs;
  let page: EventPage | undefined = first;
  let position = first.last;
  while (open()) {
    // A turn of the event loop at each round: reads that answer at once (SQLite, in memory) never starve the rest.
    await new Promise((resolve) => setImmediate(resolve));
    if (page) {
      // A write waits only for a client slower than the stream (event-stream-body.ts).
      const slow = page.events.length > 0 ? stream.write(pageChunk(page)) : undefined;
      if (slow) await slow;
      position = page.last;
      page = undefined;
    }
    if (Date.now() >= keepAliveAt) {
      const slow = stream.write(KEEP_ALIVE);
      if (slow) await slow;
      keepAliveAt = Date.now() + keepAliveMs;
    }
    waiting = platform.events.wait(position, Math.min(WAIT_MS, Math.max(0, keepAliveAt - Date.now())));
    const found = await waiting.promise;
    waiting = undefined;
    if (found && open()) page = await readPage();
  }

  /** The next page after `position`; undefined (after a pause) when it could not be read, and the stream's end when the log no longer has it. */
  async function readPage(): Promise<EventPage | undefined> {
    try {
      return await platform.events.follow(principal, { ...query, after: position });
    } catch (error) {
      // Pruned past this stream's position (410): it ends, and its client's next request is told so.
      if (isLineageError(error) && error.code === "EVENT0410") {
        stream.close();
        return undefined;
      }
      await new Promise<void>((resolve) => {
        wakeRetry = resolve;
        retry = setTimeout(resolve, RETRY_MS);
      });
      return undefined;
    }
  }
}
