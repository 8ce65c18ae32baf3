import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { startPostgresServer } from "@lineage/postgres-server";
import { createWebhookSender, startWebhookWorker } from "../packages/adapter-node/src/index.ts";
import { openPostgresStore } from "../packages/adapter-postgres/src/index.ts";
import { openSqliteStore } from "../packages/adapter-sqlite/src/index.ts";
import { createPlatform, systemPrincipal, type NewEvent, type Store } from "../packages/core/src/index.ts";
import { positive } from "./bench-options.ts";
import { machineLine, mark, publishSection, thousands } from "./benchmarks-doc.ts";

/*
 * `pnpm bench:webhooks`: how many webhook deliveries per second one node's worker sends to a
 * receiver on loopback (target: 500/s). For SQLite and PostgreSQL: --events events of --elements
 * elements (in turn, so that per-element order lets many go at once) are appended to the log, one
 * webhook wanting them all is registered first, then the worker (the one `lineage serve` runs,
 * default concurrency) starts; the time runs from its start to the receiver's last 2xx. Each
 * delivery is queued, claimed under a lease, signed, POSTed and recorded: the whole path.
 * Options: --events N (5000), --elements N (1000), --no-docs.
 */

const SECTION = "## Webhook deliveries";
const { values: args } = parseArgs({
  options: { events: { type: "string", default: "5000" }, elements: { type: "string", default: "1000" }, "no-docs": { type: "boolean", default: false } },
});
const eventCount = positive("events", args.events, 1_000_000);
const elementCount = positive("elements", args.elements, 1_000_000);
const TARGET = 500;

async function receiver(): Promise<{ url: string; received: () => number; close: () => Promise<void> }> {
  let received = 0;
  const server = createServer((request, response) => {
    request.resume().on("end", () => {
      received++;
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received: () => received,
    close: async () => {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    },
  };
}

async function measure(store: Store): Promise<number> {
  const platform = createPlatform({ store });
  const sink = await receiver();
  try {
    await platform.webhooks.create(systemPrincipal(), { url: sink.url });
    const time = new Date().toISOString();
    for (let start = 0; start < eventCount; start += 500) {
      await store.transaction(async (tx) => {
        for (let i = start; i < Math.min(start + 500, eventCount); i++) {
          const initid = 1 + (i % elementCount);
          const event: NewEvent = {
            type: "element.updated", time, initid, id: initid, name: `EL_${initid}`, structure: "BENCH", revision: 0, state: null, actor: "admin",
            changes: { title: { before: `old ${i}`, after: `new ${i}` } },
          };
          await tx.events.append(event);
        }
      });
    }
    const sender = createWebhookSender({ allowPrivateNetworks: true });
    const started = performance.now();
    const worker = startWebhookWorker({ platform, sender, node: "bench" });
    while (sink.received() < eventCount) await new Promise((done) => setTimeout(done, 5));
    const seconds = (performance.now() - started) / 1000;
    await worker.stop();
    await sender.close();
    return eventCount / seconds;
  } finally {
    await sink.close();
  }
}

const dir = mkdtempSync(join(tmpdir(), "lineage-bench-webhooks-"));
// PostgreSQL runs as the postgres user, who must reach its directory.
chmodSync(dir, 0o755);
try {
  const load = loadavg().map((n) => n.toFixed(2)).join(", ");
  const sqliteStore = openSqliteStore({ dataDir: join(dir, "sqlite") });
  const sqlite = await measure(sqliteStore).finally(() => sqliteStore.close());
  console.log(`bench: SQLite ${sqlite.toFixed(0)} deliveries/s`);
  const server = await startPostgresServer({ dir: join(dir, "pg"), port: 0 });
  let postgres: number;
  try {
    const pgStore = await openPostgresStore({ url: server.url });
    postgres = await measure(pgStore).finally(() => pgStore.close());
  } finally {
    await server.stop();
  }
  console.log(`bench: PostgreSQL ${postgres.toFixed(0)} deliveries/s`);
  const section = [
    SECTION,
    "",
    `Run on ${new Date().toISOString().slice(0, 10)}: \`pnpm bench:webhooks\` (${thousands(eventCount)} events of ${thousands(elementCount)} elements, ` +
      "one webhook wanting them all, one node's worker with its default concurrency (64 attempts in flight) and 30 s leases, a receiver on loopback answering 204; " +
      "timed from the worker's start to the last delivery received). Load average before the run (`uptime`): " + `${load}.`,
    "",
    machineLine(),
    "",
    "| store | deliveries/s | target 500/s |",
    "|---|---:|---|",
    `| SQLite | ${thousands(sqlite)} | ${mark(sqlite >= TARGET)} |`,
    `| PostgreSQL | ${thousands(postgres)} | ${mark(postgres >= TARGET)} |`,
    "",
    "- Each delivery is the whole path: queued from the event log (a cursor per webhook), claimed under a lease (a claim takes up to 64 at once, made again once a quarter of them ended; " +
      "it reads the due deliveries in claim order and stops), signed (Standard Webhooks, HMAC-SHA256), POSTed over a kept-alive connection, and its attempt recorded " +
      "(the attempts whose answers came in together in one statement and one commit). The worker, the receiver and, on PostgreSQL, the server share the machine's cores with its other work: " +
      "read the figures with the load beside them.",
    "",
  ].join("\n");
  publishSection(section, { heading: SECTION, write: !args["no-docs"] });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
