import { request, type IncomingMessage } from "node:http";

/*
 * A child process of bench/event-stream.ts: opens COUNT streams of `GET /api/v2/events/stream`
 * after SEQ on the server at URL, as a browser's EventSource would, and for each event each stream
 * receives, its `time` (when the change was made, before its commit), its element's name and the
 * moment it arrived (Date.now(), the clock the bench's writer reads too). Sends { ready } over IPC
 * once every stream is open; on "stop", sends { times, names, arrivals } and exits.
 */

const [url, countText, after, authorization] = process.argv.slice(2);
const count = Number(countText);
if (!url || !Number.isSafeInteger(count) || count < 1 || !after || !authorization) {
  throw new Error("usage: event-stream-clients.ts URL COUNT AFTER AUTHORIZATION");
}

const times: number[] = [];
const names: string[] = [];
const arrivals: number[] = [];
const responses: IncomingMessage[] = [];

/** Reads one stream's messages; resolves once its first bytes (the opening comment) arrive. */
function follow(): Promise<void> {
  return new Promise((opened, failed) => {
    const req = request(`${url}/api/v2/events/stream?after=${after}`, { headers: { accept: "text/event-stream", authorization } }, (res) => {
      if (res.statusCode !== 200) {
        failed(new Error(`the stream answered ${res.statusCode}`));
        return;
      }
      responses.push(res);
      res.setEncoding("utf8");
      let buffer = "";
      let first = true;
      res.on("data", (chunk: string) => {
        const now = Date.now();
        if (first) {
          first = false;
          opened();
        }
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const message = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = message.split("\n").find((line) => line.startsWith("data:"));
          if (!data) continue;
          const event = JSON.parse(data.slice(5)) as { time: string; name: string };
          times.push(Date.parse(event.time));
          names.push(event.name);
          arrivals.push(now);
        }
      });
    });
    req.on("error", failed);
    req.end();
  });
}

// A few at a time: a thousand connections opened at once would queue in the server's backlog.
for (let i = 0; i < count; i += 50) await Promise.all(Array.from({ length: Math.min(50, count - i) }, follow));
process.send?.({ ready: true });
process.on("message", (message) => {
  if (message !== "stop") return;
  for (const res of responses) res.destroy();
  process.send?.({ times, names, arrivals }, () => process.exit(0));
});
