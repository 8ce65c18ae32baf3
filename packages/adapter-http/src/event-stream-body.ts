import type { Context } from "hono";

/** The body of a `text/event-stream` answer, as the stream's loop writes it. */
export interface EventStreamBody {
  /**
   * Queues the bytes for the client. Answers a promise only while the client reads slower than the
   * stream writes (the bytes are queued all the same): wait for it before writing again.
   */
  write(bytes: Uint8Array): Promise<void> | undefined;
  /** Ends the answer. */
  close(): void;
  /** True once the client left (or the answer could not be sent). */
  readonly aborted: boolean;
  /** True once `close` was called. */
  readonly closed: boolean;
  /** Called once when the client leaves. */
  onAbort(listener: () => void): void;
}

/**
 * A `text/event-stream` answer whose body `run` writes until it returns (then the answer ends).
 * What hono/streaming's streamSSE does, with one web stream instead of three: its body passes
 * every write through a TransformStream, its writer and a second ReadableStream pulling from it,
 * several promises per write, which a live stream of events pays once per client for every event
 * (a thousand clients, a thousand times). Here a write is one enqueue on the ReadableStream the
 * server reads; the write waits only when that stream's queue is full (a slow client).
 */
export function eventStreamResponse(c: Context, run: (body: EventStreamBody) => Promise<void>): Response {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let drained: (() => void) | undefined;
  const listeners: (() => void)[] = [];
  const state = { aborted: false, closed: false };
  const abort = () => {
    if (state.aborted) return;
    state.aborted = true;
    drained?.();
    for (const listener of listeners.splice(0)) listener();
  };
  const readable = new ReadableStream<Uint8Array>({
    start: (given) => {
      controller = given;
    },
    pull: () => {
      const resume = drained;
      drained = undefined;
      resume?.();
    },
    cancel: abort,
  });
  const body: EventStreamBody = {
    write(bytes) {
      if (state.aborted || state.closed) return undefined;
      controller.enqueue(bytes);
      if ((controller.desiredSize ?? 1) > 0) return undefined;
      return new Promise<void>((resolve) => {
        drained = resolve;
      });
    },
    close() {
      if (state.closed) return;
      state.closed = true;
      drained?.();
      if (!state.aborted) controller.close();
    },
    get aborted() {
      return state.aborted;
    },
    get closed() {
      return state.closed;
    },
    onAbort(listener) {
      if (state.aborted) listener();
      else listeners.push(listener);
    },
  };
  c.header("Transfer-Encoding", "chunked");
  c.header("Content-Type", "text/event-stream");
  c.header("Cache-Control", "no-cache");
  c.header("Connection", "keep-alive");
  void run(body)
    .catch((error: unknown) => console.error(error))
    .finally(() => body.close());
  return c.newResponse(readable);
}
