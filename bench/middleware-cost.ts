import { createRequire } from "node:module";
import { IncomingMessage, ServerResponse } from "node:http";
import { Socket } from "node:net";
import { parseArgs } from "node:util";
import { positive } from "./bench-options.ts";

/** What this script uses of Hono and its middlewares (resolved from the HTTP adapter's package: the root does not depend on them). */
type Middleware = (c: never, next: () => Promise<void>) => Promise<unknown>;
interface BareContext { text(body: string): Response }
interface BareApp {
  use(path: string, middleware: Middleware): BareApp;
  get(path: string, ...handlers: Array<Middleware | ((c: BareContext) => Response)>): BareApp;
  put(path: string, handler: (c: BareContext) => Response): BareApp;
  fetch(request: Request, env?: unknown): Response | Promise<Response>;
}
const fromHttpAdapter = createRequire(new URL("../packages/adapter-http/package.json", import.meta.url));
const { Hono } = fromHttpAdapter("hono") as { Hono: new () => BareApp };
const { methodOverride } = fromHttpAdapter("hono/method-override") as { methodOverride(options: { app: BareApp; header: string }): Middleware };
const { requestId: honoRequestId } = fromHttpAdapter("hono/request-id") as { requestId(options: { limitLength: number }): Middleware };
const { timeout: honoTimeout } = fromHttpAdapter("hono/timeout") as { timeout(duration: number): Middleware };
const { describeRoute } = fromHttpAdapter("hono-openapi") as { describeRoute(spec: { summary: string }): Middleware };
const { getRequestListener } = fromHttpAdapter("@hono/node-server") as {
  getRequestListener(fetch: BareApp["fetch"]): (incoming: IncomingMessage, outgoing: ServerResponse) => Promise<void>;
};

/*
 * `NODE_OPTIONS=--conditions=@lineage/source pnpm exec tsx bench/middleware-cost.ts` (the request timeout
 * imports the core from its sources): what one piece on the request path costs, in µs of CPU
 * per request, measured on a bare Hono app (one route answering a short text) through
 * @hono/node-server's request listener with no socket, each variant in turn in this one process
 * (--rounds rounds of --requests requests each, 10 in flight), so that the difference between two
 * variants is not lost in the rest of a request or in the load of a shared machine. Variants:
 *   - no middleware (the floor);
 *   - the request id: ours (request-id.ts) and Hono's hono/request-id, without and with an incoming id;
 *   - a route described by hono-openapi's describeRoute (a middleware of its own) and the same route
 *     without it (describedRoute puts the description on the handler instead);
 *   - Hono's method-override, for a GET (the hot path: it must cost nothing) and for a POST overridden as a PUT;
 *   - the request timeout (30 s, never reached): ours (request-timeout.ts: one timer for all the requests in
 *     flight, and the deadline a write hands its transaction) and Hono's hono/timeout (a timer and a race each).
 * --only "no middleware,request timeout" keeps the variants whose names start so; --built takes our
 * pieces from packages/adapter-http/dist (`pnpm build` first) rather than from their sources through tsx. Prints a table of the
 * medians and lowest rounds; writes nothing.
 */

const { values: args } = parseArgs({ options: { rounds: { type: "string", default: "15" }, requests: { type: "string", default: "5000" }, only: { type: "string" }, built: { type: "boolean", default: false } } });
const rounds = positive("rounds", args.rounds, 200);
// tsx names every closure it compiles (esbuild's keepNames): a closure made per request costs more
// than in the JavaScript tsc emits, which is what the server runs (`pnpm build` first).
const ours = args.built ? "../packages/adapter-http/dist" : "../packages/adapter-http/src";
const { requestId } = (await import(`${ours}/request-id.${args.built ? "js" : "ts"}`)) as typeof import("../packages/adapter-http/src/request-id.ts");
const { requestTimeout } = (await import(`${ours}/request-timeout.${args.built ? "js" : "ts"}`)) as typeof import("../packages/adapter-http/src/request-timeout.ts");
const requests = positive("requests", args.requests, 1_000_000);

type Listener = (incoming: IncomingMessage, outgoing: ServerResponse) => Promise<void>;

function app(middlewares: Middleware[], options: { override?: boolean } = {}): Listener {
  const hono = new Hono();
  for (const middleware of middlewares) hono.use("*", middleware);
  if (options.override) hono.use("*", methodOverride({ app: hono, header: "X-HTTP-Method-Override" }));
  hono.get("/item", (c: BareContext) => c.text("ok"));
  hono.put("/item", (c: BareContext) => c.text("ok"));
  hono.get("/described", describeRoute({ summary: "A described route" }), (c: BareContext) => c.text("ok"));
  return getRequestListener((request, env) => hono.fetch(request, env));
}

const HEADERS = { host: "bench", accept: "application/json", authorization: "Basic YWRtaW46YWRtaW4tcHc=", "user-agent": "bench" };

interface Variant { readonly name: string; readonly listen: Listener; readonly method: string; readonly path: string; readonly headers: Record<string, string> }

const withId = { ...HEADERS, "x-request-id": "lb1-trace-0042" };
const ALL_VARIANTS: Variant[] = [
  { name: "no middleware", listen: app([]), method: "GET", path: "/item", headers: HEADERS },
  { name: "request id: ours", listen: app([requestId() as Middleware]), method: "GET", path: "/item", headers: HEADERS },
  { name: "request id: Hono's", listen: app([honoRequestId({ limitLength: 128 })]), method: "GET", path: "/item", headers: HEADERS },
  { name: "request id: ours, incoming id", listen: app([requestId() as Middleware]), method: "GET", path: "/item", headers: withId },
  { name: "request id: Hono's, incoming id", listen: app([honoRequestId({ limitLength: 128 })]), method: "GET", path: "/item", headers: withId },
  { name: "route described by describeRoute (a middleware)", listen: app([]), method: "GET", path: "/described", headers: HEADERS },
  { name: "method override (Hono's): a GET", listen: app([], { override: true }), method: "GET", path: "/item", headers: HEADERS },
  { name: "method override (Hono's): a POST as PUT", listen: app([], { override: true }), method: "POST", path: "/item", headers: { ...HEADERS, "x-http-method-override": "PUT" } },
  { name: "request timeout: ours", listen: app([requestTimeout(30_000) as Middleware]), method: "GET", path: "/item", headers: HEADERS },
  { name: "request timeout: Hono's", listen: app([honoTimeout(30_000)]), method: "GET", path: "/item", headers: HEADERS },
  { name: "a PUT (what the overridden POST becomes)", listen: app([]), method: "PUT", path: "/item", headers: HEADERS },
];

const prefixes = args.only?.split(",").map((prefix) => prefix.trim());
const VARIANTS = ALL_VARIANTS.filter((variant) => !prefixes || prefixes.some((prefix) => variant.name.startsWith(prefix)));

function request(variant: Variant): Promise<void> {
  const incoming = new IncomingMessage(new Socket());
  incoming.method = variant.method;
  incoming.url = variant.path;
  incoming.httpVersion = "1.1";
  incoming.headers = variant.headers;
  incoming.rawHeaders = Object.entries(variant.headers).flat();
  incoming.push(null);
  incoming.complete = true;
  const outgoing = new ServerResponse(incoming);
  return new Promise((resolve, reject) => {
    const end = outgoing.end.bind(outgoing);
    outgoing.end = ((...rest: Parameters<typeof end>) => {
      if (outgoing.statusCode !== 200) reject(new Error(`${variant.name}: ${outgoing.statusCode}`));
      resolve();
      return end(...rest);
    }) as typeof outgoing.end;
    variant.listen(incoming, outgoing).catch(reject);
  });
}

async function round(variant: Variant, count: number): Promise<number> {
  const started = process.cpuUsage();
  for (let i = 0; i < count; i += 10) {
    await Promise.all(Array.from({ length: 10 }, () => request(variant)));
    // Back to the event loop, as a server is after each socket read: without it the loop never leaves the
    // microtask queue, and the streams' process.nextTick callbacks pile up unrun (the heap grew 1.4 KB a request).
    await new Promise((resolve) => setImmediate(resolve));
  }
  const used = process.cpuUsage(started);
  return (used.user + used.system) / count;
}

const samples = new Map<string, number[]>();
for (const variant of VARIANTS) await round(variant, requests); // warm-up
for (let r = 0; r < rounds; r++) {
  const order = r % 2 === 0 ? VARIANTS : [...VARIANTS].reverse();
  for (const variant of order) samples.set(variant.name, [...(samples.get(variant.name) ?? []), await round(variant, requests)]);
}
const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] ?? NaN;
console.log(`| Variant (µs of CPU per request, ${rounds} rounds of ${requests}) | median | lowest round |`);
console.log("|---|---|---|");
for (const variant of VARIANTS) {
  const values = samples.get(variant.name) ?? [];
  console.log(`| ${variant.name} | ${median(values).toFixed(2)} | ${Math.min(...values).toFixed(2)} |`);
}
