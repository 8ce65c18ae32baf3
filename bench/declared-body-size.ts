import { createRequire } from "node:module";
import { Agent, createServer, request, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { parseArgs } from "node:util";
import { positive } from "./bench-options.ts";
import { watchDeclaredBodySizes } from "../packages/adapter-http/src/declared-body-size.ts";

/*
 * `pnpm exec tsx bench/declared-body-size.ts`: what following the chunk sizes of every request costs
 * (declared-body-size.ts, which startServer runs beside Node's parser), in µs of CPU per request over
 * real sockets: a bare Hono app (GET answering a short text, PUT of a small chunked body) through
 * @hono/node-server's listener, one server with the reader and one without, in this one process with
 * one keep-alive client (the same for both, so the difference is the server's), the two taking turns
 * for --rounds rounds of --requests requests, 10 in flight. Prints the medians and lowest rounds.
 */

const { values: args } = parseArgs({ options: { rounds: { type: "string", default: "10" }, requests: { type: "string", default: "2000" } } });
const rounds = positive("rounds", args.rounds, 200);
const requests = positive("requests", args.requests, 1_000_000);

interface BareApp {
  get(path: string, handler: (c: { text(body: string): Response }) => Response): BareApp;
  put(path: string, handler: (c: { req: { text(): Promise<string> }; text(body: string): Response }) => Promise<Response>): BareApp;
  fetch(request: Request, env?: unknown): Response | Promise<Response>;
}
const fromHttpAdapter = createRequire(new URL("../packages/adapter-http/package.json", import.meta.url));
const { Hono } = fromHttpAdapter("hono") as { Hono: new () => BareApp };
const { getRequestListener } = fromHttpAdapter("@hono/node-server") as {
  getRequestListener(fetch: BareApp["fetch"]): (incoming: IncomingMessage, outgoing: ServerResponse) => Promise<void>;
};

const app = new Hono()
  .get("/item", (c) => c.text("ok"))
  .put("/item", async (c) => c.text(String((await c.req.text()).length)));
const listener = getRequestListener((incoming, env) => app.fetch(incoming, env));

async function serve(following: boolean): Promise<{ server: Server; port: number }> {
  const server = createServer((incoming, outgoing) => void listener(incoming, outgoing));
  if (following) watchDeclaredBodySizes(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

const agent = new Agent({ keepAlive: true, maxSockets: 10 });
const BODY = JSON.stringify({ document: { attributes: { ar_title: { value: "x".repeat(200) } } } });

function call(port: number, method: "GET" | "PUT"): Promise<void> {
  return new Promise((resolve, reject) => {
    const sent = request({ agent, port, host: "127.0.0.1", method, path: "/item", headers: { host: "bench" } }, (answer) => {
      answer.resume();
      answer.on("end", () => (answer.statusCode === 200 ? resolve() : reject(new Error(`${method}: ${answer.statusCode}`))));
    });
    sent.on("error", reject);
    // Written in two pieces with no length: a chunked body of two chunks.
    if (method === "PUT") sent.write(BODY.slice(0, 100));
    sent.end(method === "PUT" ? BODY.slice(100) : undefined);
  });
}

async function round(port: number, method: "GET" | "PUT"): Promise<number> {
  const started = process.cpuUsage();
  for (let i = 0; i < requests; i += 10) await Promise.all(Array.from({ length: 10 }, () => call(port, method)));
  const used = process.cpuUsage(started);
  return (used.user + used.system) / requests;
}

const servers = { without: await serve(false), with: await serve(true) };
const samples = new Map<string, number[]>();
for (const method of ["GET", "PUT"] as const) {
  for (const { port } of Object.values(servers)) await round(port, method); // warm-up
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? Object.entries(servers) : Object.entries(servers).reverse();
    for (const [name, { port }] of order) samples.set(`${method}, ${name} the reader`, [...(samples.get(`${method}, ${name} the reader`) ?? []), await round(port, method)]);
  }
}
agent.destroy();
for (const { server } of Object.values(servers)) server.close();

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] ?? NaN;
console.log(`| Request (µs of CPU per request, client and server, ${rounds} rounds of ${requests}) | median | lowest round |`);
console.log("|---|---|---|");
for (const [name, values] of samples) console.log(`| ${name} | ${median(values).toFixed(1)} | ${Math.min(...values).toFixed(1)} |`);
