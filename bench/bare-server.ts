import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";

/*
 * A child process of the benchmark: the floor to compare with, a bare Hono
 * JSON route on @hono/node-server (the same libraries as the HTTP adapter,
 * resolved from its package: the root does not depend on them). Sends
 * { url } over IPC; exits when the parent goes away or on SIGTERM/SIGINT.
 */

interface BareContext { json(body: unknown): Response }
interface BareApp {
  get(path: string, handler: (c: BareContext) => Response): BareApp;
  fetch(request: Request): Response | Promise<Response>;
}
interface NodeServer { close(done?: () => void): void }

const fromHttpAdapter = createRequire(new URL("../packages/adapter-http/package.json", import.meta.url));
const { Hono } = fromHttpAdapter("hono") as { Hono: new () => BareApp };
const { serve } = fromHttpAdapter("@hono/node-server") as {
  serve(options: { fetch: BareApp["fetch"]; port: number; hostname: string }, listening: (info: AddressInfo) => void): NodeServer;
};

const app = new Hono().get("/bare", (c) => c.json({ success: true, messages: [], data: { document: { properties: { id: 1, title: "x" } } } }));
const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info) => {
  process.send?.({ url: `http://127.0.0.1:${info.port}` });
});
const stop = () => server.close(() => process.exit(0));
process.on("disconnect", stop);
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
