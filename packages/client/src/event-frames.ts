/** A message of a Server-Sent Events stream: its fields as the last blank line closed them. */
export interface EventFrame {
  readonly id?: string;
  readonly event?: string;
  /** The data lines, joined by newlines; absent for a message without data (a comment only). */
  readonly data?: string;
  readonly retry?: number;
}

/**
 * The messages of an event stream's bytes, as the HTML standard parses them: lines end with CR,
 * LF or CRLF, a line starting with ":" is a comment, a blank line ends a message. The stream is
 * cancelled when the reader stops early.
 */
export async function* readFrames(body: ReadableStream<Uint8Array>): AsyncGenerator<EventFrame> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let frame: { id?: string; event?: string; data?: string[]; retry?: number } = {};
  try {
    for (;;) {
      const { done, value } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      let end: RegExpExecArray | null;
      // A lone CR at the end may be the first half of a CRLF: kept until more comes.
      while ((end = /\r\n|\n|\r(?!$)/.exec(buffer)) !== null) {
        const line = buffer.slice(0, end.index);
        buffer = buffer.slice(end.index + end[0].length);
        if (line === "") {
          if (frame.data !== undefined || frame.id !== undefined) {
            yield { ...frame, data: frame.data?.join("\n") } as EventFrame;
          }
          frame = {};
          continue;
        }
        if (line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const field = colon === -1 ? line : line.slice(0, colon);
        const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (field === "data") (frame.data ??= []).push(value);
        else if (field === "id" && !value.includes("\0")) frame.id = value;
        else if (field === "event") frame.event = value;
        else if (field === "retry" && /^\d+$/.test(value)) frame.retry = Number(value);
      }
      if (done) return;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}
