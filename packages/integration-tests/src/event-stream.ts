import { expectDocumentedAnswer } from "./openapi-answers.ts";

/** One block of a text/event-stream: an event (`id`, `event`, `data`) or a comment. */
export interface StreamFrame {
  readonly id?: string;
  readonly event?: string;
  readonly data?: string;
  readonly comment?: string;
}

/** A live stream of events read as a client reads it, frame by frame. */
export interface EventStreamClient {
  readonly response: Response;
  /** Every frame received so far, in order. */
  readonly frames: readonly StreamFrame[];
  /** The frames with an `event:` field, their data parsed. */
  events(): { id: string; event: string; data: any }[];
  /** Waits (at most `timeoutMs`) until a frame passes `test`; answers it. */
  waitFor(test: (frame: StreamFrame) => boolean, timeoutMs?: number): Promise<StreamFrame>;
  /** Hangs up. */
  close(): void;
}

/** Parses the blocks of a text/event-stream (lines `field: value`, `: comment`, blank line between blocks). */
export function parseFrames(text: string): StreamFrame[] {
  return text.split(/\r?\n\r?\n/).filter((block) => block.length > 0).map((block) => {
    const frame: Record<string, string> = {};
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith(":")) frame.comment = line.slice(1).trim();
      else {
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
        frame[field] = field === "data" && frame.data !== undefined ? `${frame.data}\n${value}` : value;
      }
    }
    return frame as StreamFrame;
  });
}

/**
 * Opens GET /api/v2/events/stream (or `path`) with fetch and reads it as it comes. The answer's
 * status and content type are checked against the OpenAPI document; a refusal (not a stream) throws
 * with its body.
 * @example
 * const stream = await openEventStream(`${url}/api/v2/events/stream?after=12`, { authorization });
 * const frame = await stream.waitFor((f) => f.event === "element.updated");
 */
export async function openEventStream(url: string, headers: Record<string, string> = {}): Promise<EventStreamClient> {
  const controller = new AbortController();
  const response = await fetch(url, { headers: { accept: "text/event-stream", ...headers }, signal: controller.signal });
  if (response.status !== 200) {
    const body = await response.text();
    throw new Error(`the stream was refused: ${response.status} ${body}`);
  }
  expectDocumentedAnswer({ method: "GET", url: new URL(url).pathname + new URL(url).search, status: response.status, contentType: response.headers.get("content-type"), body: "" });
  const frames: StreamFrame[] = [];
  const listeners = new Set<() => void>();
  let buffer = "";
  let ended = false;
  const decoder = new TextDecoder();
  const reader = response.body!.getReader();
  void (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        const cut = buffer.lastIndexOf("\n\n");
        if (cut < 0) continue;
        frames.push(...parseFrames(buffer.slice(0, cut + 2)));
        buffer = buffer.slice(cut + 2);
        for (const listener of listeners) listener();
      }
    } catch {
      // Closed by the test.
    } finally {
      ended = true;
      for (const listener of listeners) listener();
    }
  })();
  return {
    response,
    frames,
    events: () => frames.filter((frame) => frame.event !== undefined).map((frame) => ({ id: frame.id!, event: frame.event!, data: JSON.parse(frame.data ?? "null") })),
    waitFor(test, timeoutMs = 2000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = frames.find(test);
          if (found) done(() => resolve(found));
          else if (ended) done(() => reject(new Error(`the stream ended without the frame; frames: ${JSON.stringify(frames)}`)));
        };
        const timer = setTimeout(() => done(() => reject(new Error(`no such frame within ${timeoutMs} ms; frames: ${JSON.stringify(frames)}`))), timeoutMs);
        const done = (settle: () => void) => {
          clearTimeout(timer);
          listeners.delete(check);
          settle();
        };
        listeners.add(check);
        check();
      });
    },
    close() {
      controller.abort();
    },
  };
}
