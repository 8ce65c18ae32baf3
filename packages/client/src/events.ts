import { LineageApiError } from "./lineage-api-error.ts";
import { readFrames } from "./event-frames.ts";
import type { Transport } from "./transport.ts";

export type EventType =
  | "element.created" | "element.updated" | "element.revised" | "element.state"
  | "element.deleted" | "element.restored" | "folder.added" | "folder.removed";

/** An event of the log (docs/events.md). */
export interface LineageEvent {
  /** Its position: strictly increasing in commit order. */
  readonly seq: number;
  readonly type: EventType;
  readonly time: string;
  readonly initid: number;
  readonly id: number;
  readonly name: string | null;
  readonly structure: string;
  readonly revision: number;
  readonly state: string | null;
  readonly actor: string;
  /** element.state: the transition run (id null: a state forced by an administrator). */
  readonly transition?: { readonly id: string | null; readonly from: string; readonly to: string };
  /** The fields whose value changed. */
  readonly changes?: Readonly<Record<string, { readonly before: unknown; readonly after: unknown }>>;
  /** folder.added, folder.removed: the element added or removed. */
  readonly element?: number;
}

/** Which events: after a position, of these types, of elements of a structure. */
export interface EventQuery {
  /** The seq of the last event seen; none: from the oldest kept. */
  readonly after?: number;
  readonly types?: readonly EventType[];
  readonly structure?: string;
  /** At most this many per read (1 to 1000). */
  readonly slice?: number;
  readonly signal?: AbortSignal;
}

/** What the live stream takes besides the query. */
export interface StreamOptions extends EventQuery {
  /** Resume after this event id (a `seq` as text), as `Last-Event-ID`; it wins over `after`. */
  readonly lastEventId?: string;
  /** Connect again when the connection ends (a server shutting down, a network failure), resuming after the last event seen. True by default. */
  readonly reconnect?: boolean;
  /** Milliseconds before connecting again, unless the server says otherwise (`retry:`). 1000 by default. */
  readonly retryMs?: number;
}

/** The live stream: an async iterator of events; `lastEventId` is the id of the last one it gave. */
export interface EventStream extends AsyncIterable<LineageEvent> {
  readonly lastEventId: string | undefined;
}

/** The event log (docs/events.md): read by position, or followed live. */
export interface EventsApi {
  /** GET /api/v2/events: the next events after a position; `last` is the position to give as `after` next. */
  list(query?: EventQuery): Promise<{ events: LineageEvent[]; last: number }>;
  /**
   * GET /api/v2/events/stream (Server-Sent Events) as an async iterator: the events after the position
   * given, then each new one as it commits. It reconnects by itself with `Last-Event-ID`, so that no
   * event is missed or given twice; a refusal (401, 410 EVENT0410…) is thrown. End it with `break` or the signal.
   */
  stream(options?: StreamOptions): EventStream;
}

/** The events area over a transport. */
export function eventsApi(transport: Transport): EventsApi {
  const queryOf = (query: EventQuery) => ({ after: query.after, types: query.types, structure: query.structure, slice: query.slice });
  return {
    async list(query = {}) {
      const { data } = await transport.json<{ events: LineageEvent[]; last: number }>({ method: "GET", path: "/api/v2/events", query: queryOf(query), signal: query.signal });
      return data;
    },
    stream(options = {}) {
      let lastEventId = options.lastEventId;
      const { signal } = options;
      let retryMs = options.retryMs ?? 1000;
      async function* events(): AsyncGenerator<LineageEvent> {
        for (;;) {
          let response: Response | undefined;
          try {
            response = await transport.raw({
              method: "GET", path: "/api/v2/events/stream", accept: "text/event-stream",
              query: queryOf(options), headers: { "last-event-id": lastEventId }, signal,
            });
          } catch (error) {
            if (signal?.aborted) return;
            // A refusal is the caller's to see; a server gone or busy is waited for.
            if (options.reconnect === false || (error instanceof LineageApiError && error.status < 500)) throw error;
          }
          if (response?.body) {
            try {
              for await (const frame of readFrames(response.body)) {
                if (frame.retry !== undefined) retryMs = frame.retry;
                if (frame.id !== undefined) lastEventId = frame.id;
                if (frame.data !== undefined) yield JSON.parse(frame.data) as LineageEvent;
              }
            } catch (error) {
              if (signal?.aborted) return;
              if (options.reconnect === false) throw error;
            }
          }
          if (signal?.aborted || options.reconnect === false) return;
          await pause(retryMs, signal);
        }
      }
      const iterable = events();
      return {
        [Symbol.asyncIterator]: () => iterable,
        get lastEventId() {
          return lastEventId;
        },
      };
    },
  };
}

/** Waits `ms`, or less when the signal aborts. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}
