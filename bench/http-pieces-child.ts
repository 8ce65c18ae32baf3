import { IncomingMessage, ServerResponse } from "node:http";
import { Socket } from "node:net";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

/*
 * One tree's side of `pnpm bench:pieces` (bench/http-pieces.ts): its own createHttpApp over the
 * in-memory seeded platform of its own core, driven through @hono/node-server's request listener
 * (the path `lineage serve` takes: Node's parsed request, the lightweight Request, the cached
 * Response) with no socket, so that the measure is the app's CPU time per request and nothing of
 * the network or the client. Prints one JSON line: µs of CPU per request for each batch of each case.
 *
 * argv: TREE BATCHES REQUESTS_PER_BATCH
 */

const [tree = ".", batchesText = "7", perBatchText = "4000"] = process.argv.slice(2);
const batches = Number(batchesText);
const perBatch = Number(perBatchText);
const from = (path: string) => import(pathToFileURL(join(tree, path)).href);

const { createHttpApp } = await from("packages/adapter-http/src/index.ts");
// The fixture moved to the core's test kit (issue 30); an older tree has it in the core's tests.
const { seededPlatform } = await from(existsSync(join(tree, "packages/core/src/testing/seeded-platform.ts")) ? "packages/core/src/testing/seeded-platform.ts" : "packages/core/test/fixture.ts");
// The tree's own @hono/node-server, as its `lineage serve` would load it.
const { getRequestListener } = await import(pathToFileURL(join(tree, "packages/adapter-http/node_modules/@hono/node-server/dist/index.mjs")).href);

const { platform } = await seededPlatform();
const app = createHttpApp({ platform, onUnexpectedError: (error: unknown) => { throw error; } });
const listen = getRequestListener(app.fetch) as (incoming: IncomingMessage, outgoing: ServerResponse) => Promise<void>;
const basic = `Basic ${Buffer.from("admin:admin-pw").toString("base64")}`;

interface Case {
  readonly name: string;
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
  readonly status: number;
}

const put = JSON.stringify({ document: { attributes: { ar_words: { value: 7 } } } });
const CASES: Case[] = [
  { name: "GET one element (cached)", method: "GET", path: "/api/v2/smart-elements/ART_HELLO", headers: { host: "bench", accept: "application/json", authorization: basic }, status: 200 },
  {
    name: "GET one element (cached), with X-Request-Id", method: "GET", path: "/api/v2/smart-elements/ART_HELLO",
    headers: { host: "bench", accept: "application/json", authorization: basic, "x-request-id": "lb1.trace:0042" }, status: 200,
  },
  {
    name: "PUT one element", method: "PUT", path: "/api/v2/smart-elements/ART_HELLO",
    headers: { host: "bench", accept: "application/json", authorization: basic, "content-type": "application/json", "content-length": String(put.length) }, body: put, status: 200,
  },
  {
    name: "POST with X-HTTP-Method-Override: PUT", method: "POST", path: "/api/v2/smart-elements/ART_HELLO",
    headers: { host: "bench", accept: "application/json", authorization: basic, "content-type": "application/json", "content-length": String(put.length), "x-http-method-override": "PUT" },
    body: put, status: 200,
  },
];

/** One request through the listener; resolves when the answer has been written. */
function request(one: Case): Promise<number> {
  const incoming = new IncomingMessage(new Socket());
  incoming.method = one.method;
  incoming.url = one.path;
  incoming.httpVersion = "1.1";
  incoming.headers = one.headers;
  incoming.rawHeaders = Object.entries(one.headers).flat();
  if (one.body !== undefined) incoming.push(one.body);
  incoming.push(null);
  incoming.complete = true;
  const outgoing = new ServerResponse(incoming);
  return new Promise((resolve, reject) => {
    const end = outgoing.end.bind(outgoing);
    outgoing.end = ((...args: Parameters<typeof end>) => {
      const result = end(...args);
      resolve(outgoing.statusCode);
      return result;
    }) as typeof outgoing.end;
    listen(incoming, outgoing).catch(reject);
  });
}

async function batch(one: Case, count: number): Promise<number> {
  const started = process.cpuUsage();
  for (let i = 0; i < count; i++) {
    // 10 in flight, as the HTTP benchmarks' 10 connections.
    const statuses = await Promise.all(Array.from({ length: 10 }, () => request(one)));
    if (statuses.some((status) => status !== one.status)) throw new Error(`${one.name}: answered ${statuses.join(", ")}`);
    // Back to the event loop, as a server is after each socket read: without it the loop never leaves the
    // microtask queue, and the streams' process.nextTick callbacks pile up unrun.
    await new Promise((resolve) => setImmediate(resolve));
    i += 9;
  }
  const used = process.cpuUsage(started);
  return (used.user + used.system) / count;
}

const results: Record<string, number[]> = {};
for (const one of CASES) await batch(one, perBatch); // warm-up: JIT, caches
for (let round = 0; round < batches; round++) {
  for (const one of CASES) (results[one.name] ??= []).push(await batch(one, perBatch));
}
process.stdout.write(`${JSON.stringify(results)}\n`);
