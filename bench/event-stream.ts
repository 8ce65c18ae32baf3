import { loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { ChildProcess } from "node:child_process";
import { benchArgOptions, benchOptions, positive } from "./bench-options.ts";
import { firstMessage, openBenchSession } from "./bench-session.ts";
import { machineLine, mark, ms, publishSection, thousands } from "./benchmarks-doc.ts";
import { BENCH_LOGIN, BENCH_PASSWORD, elementName, writeBenchBundle } from "./generate-bundle.ts";
import { basicAuth, percentile, probe } from "./load.ts";

/*
 * `pnpm bench:event-stream`: one node (`lineage serve` on SQLite, a child process) streaming the event
 * log to --clients SSE clients (`GET /api/v2/events/stream`, split over --client-processes child
 * processes), while one writer PUTs --rate elements a second for --duration seconds. For every event
 * and every stream, the delay from the event's `time` (taken when the change is made, before its
 * commit: the figure includes the write's own transaction) to its arrival at the client. Writes the
 * section "## Events: the live stream to a thousand clients" of docs/benchmarks.md.
 */

const SECTION = "## Events: the live stream to a thousand clients";
const TARGET_P99_MS = 100;

const { values: args } = parseArgs({
  options: {
    clients: { type: "string", default: "1000" },
    "client-processes": { type: "string", default: "2" },
    rate: { type: "string", default: "10" },
    elements: { type: "string", default: "1000" },
    ...benchArgOptions(900),
    duration: { type: "string", default: "20" },
  },
});
const options = {
  clients: positive("clients", args.clients, 10_000),
  clientProcesses: positive("client-processes", args["client-processes"], 16),
  rate: positive("rate", args.rate, 1000),
  elements: positive("elements", args.elements, 100_000),
  ...benchOptions(args),
};
const session = openBenchSession({ tempPrefix: "lineage-bench-events-", budget: options.budget, profileDir: options.profileDir });
const authorization = basicAuth(BENCH_LOGIN, BENCH_PASSWORD);
const headers = { accept: "application/json", authorization };

interface ClientReport {
  readonly delays: number[];
  readonly received: number;
}

/** The seq after the last event kept: the import's events are read through, page by page. */
async function lastSeq(url: string): Promise<number> {
  let after = 0;
  for (;;) {
    const { body } = await probe(`${url}/api/v2/events/?slice=1000&after=${after}`, headers);
    const page = body.data as { events: unknown[]; last: number };
    after = page.last;
    if (page.events.length === 0) return after;
  }
}

async function write(url: string, index: number): Promise<void> {
  const response = await fetch(`${url}/api/v2/smart-elements/${elementName(1 + (index % options.elements))}`, {
    method: "PUT", headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify({ document: { attributes: { ba_words: { value: 1_000_000 + index } } } }),
  });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`PUT answered ${response.status}`);
}

async function main(): Promise<void> {
  const bundle = join(session.tempDir, "bundle.json");
  writeBenchBundle(bundle, { count: options.elements });
  const dataDir = join(session.tempDir, "data");
  const importer = session.startChild("import-process.ts", [dataDir, bundle], false);
  await firstMessage(importer, "import", 300);
  const server = await session.startServer("server-process.ts", [dataDir], options.profileDir !== undefined);
  const after = await lastSeq(server.url);

  console.log(`bench: opening ${options.clients} streams over ${options.clientProcesses} processes`);
  const perProcess = Math.ceil(options.clients / options.clientProcesses);
  const clients: ChildProcess[] = [];
  for (let i = 0; i < options.clientProcesses; i++) {
    const count = Math.min(perProcess, options.clients - i * perProcess);
    const child = session.startChild("event-stream-clients.ts", [server.url, String(count), String(after), authorization], false);
    await firstMessage(child, "event-stream-clients.ts", 120);
    clients.push(child);
  }

  const loads = [loadavg()[0] ?? NaN];
  const writes = options.rate * options.duration;
  console.log(`bench: ${writes} PUTs at ${options.rate} a second`);
  const started = performance.now();
  for (let i = 0; i < writes; i++) {
    const due = started + (i * 1000) / options.rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((done) => setTimeout(done, wait));
    await write(server.url, i);
  }
  loads.push(loadavg()[0] ?? NaN);
  // The last events' time to arrive: far more than the target, so a slow stream shows as late, not lost.
  await new Promise((done) => setTimeout(done, 3_000));
  const reports = await Promise.all(clients.map(async (child) => {
    const report = firstMessage<ClientReport>(child, "event-stream-clients.ts", 60);
    child.send("stop");
    return report;
  }));

  const delays = Float64Array.from(reports.flatMap((r) => r.delays)).sort();
  const received = reports.reduce((sum, r) => sum + r.received, 0);
  const expected = writes * options.clients;
  const p99 = percentile(delays, 99);
  console.log(`bench: ${received} of ${expected} deliveries, p50 ${ms(percentile(delays, 50))} ms, p99 ${ms(p99)} ms`);
  publishSection([
    SECTION,
    "",
    `Run on ${new Date().toISOString().slice(0, 10)}: \`pnpm bench:event-stream --clients ${options.clients} --rate ${options.rate} --duration ${options.duration}\` ` +
      `(one \`lineage serve\` on SQLite, ${thousands(options.elements)} elements; ${thousands(options.clients)} streams of \`GET /api/v2/events/stream\` with Basic auth as an administrator, ` +
      `in ${options.clientProcesses} client processes; one writer PUTs a different element ${options.rate} times a second for ${options.duration} s).`,
    "",
    `${machineLine()} The server, the clients and the writer share the same cores. Load (1-minute average, \`uptime\`) ${loads.map((l) => l.toFixed(1)).join(" at the start, ")} at the end of the writes.`,
    "",
    "| Target | Measured | Goal | Status |",
    "|---|---|---|---|",
    `| Delivery delay to ${thousands(options.clients)} streams, p99 | ${ms(p99)} ms | < ${TARGET_P99_MS} ms | ${mark(p99 < TARGET_P99_MS)} |`,
    `| Deliveries received (events × streams) | ${thousands(received)} of ${thousands(expected)} | all | ${mark(received === expected)} |`,
    "",
    "| delay | p50 ms | p90 ms | p99 ms | max ms |",
    "|---|---|---|---|---|",
    `| event time to arrival | ${ms(percentile(delays, 50))} | ${ms(percentile(delays, 90))} | ${ms(p99)} | ${ms(delays[delays.length - 1] ?? NaN)} |`,
    "",
    "- The delay runs from the event's `time`, taken when the write starts, to the moment a client reads the message: it includes the write's own transaction and commit, the wake-up of the streams, their reads of the log and the rights check of each event for each stream.",
    "",
  ].join("\n"), { heading: SECTION, write: options.writeDocs });
  if (received !== expected) throw new Error(`${expected - received} deliveries missing`);
}

await session.run(main);
