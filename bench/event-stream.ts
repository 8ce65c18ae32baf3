import { loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { ChildProcess } from "node:child_process";
import { benchArgOptions, benchOptions, positive } from "./bench-options.ts";
import { cpuMs, firstMessage, openBenchSession } from "./bench-session.ts";
import { machineLine, mark, ms, publishSection, thousands } from "./benchmarks-doc.ts";
import { BENCH_LOGIN, BENCH_PASSWORD, elementName, writeBenchBundle } from "./generate-bundle.ts";
import { basicAuth, percentile, probe } from "./load.ts";

/*
 * `pnpm bench:event-stream`: one node (`lineage serve` on SQLite, a child process) streaming the event
 * log to --clients SSE clients (`GET /api/v2/events/stream`, split over --client-processes child
 * processes, so that reading them does not share the server's event loop), while one writer PUTs
 * --rate elements a second for --duration seconds. For every event and every stream, its delay
 * bounded from both sides, since the commit itself is seen by no one outside the server: from the
 * event's `time` (taken as the change is made, before its commit: the write's own transaction
 * counted in) and from the moment the writer has the PUT's answer (after the commit: a stream may
 * have the event first, below zero then) to its arrival at the client. Writes the section
 * "## Events: the live stream to a thousand clients" of docs/benchmarks.md.
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
  /** Per message received: the event's `time` (ms since the epoch), its element's name, when it arrived. */
  readonly times: number[];
  readonly names: string[];
  readonly arrivals: number[];
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

/** When each element's PUT was answered (Date.now()), and how long each PUT took. */
const answered = new Map<string, number>();
const putTimes: number[] = [];

async function write(url: string, index: number): Promise<void> {
  const sent = performance.now();
  const response = await fetch(`${url}/api/v2/smart-elements/${elementName(1 + (index % options.elements))}`, {
    method: "PUT", headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify({ document: { attributes: { ba_words: { value: 1_000_000 + index } } } }),
  });
  await response.arrayBuffer();
  answered.set(elementName(1 + (index % options.elements)), Date.now());
  putTimes.push(performance.now() - sent);
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
  const pid = server.child.pid!;
  const cpuBefore = cpuMs(pid);
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
  const serverCpuMs = cpuMs(pid) - cpuBefore;
  const reports = await Promise.all(clients.map(async (child) => {
    const report = firstMessage<ClientReport>(child, "event-stream-clients.ts", 60);
    child.send("stop");
    return report;
  }));

  const delays = Float64Array.from(reports.flatMap((r) => r.arrivals.map((at, i) => at - r.times[i]!))).sort();
  const afterAnswer = Float64Array.from(reports.flatMap((r) => r.arrivals.map((at, i) => at - (answered.get(r.names[i]!) ?? NaN)))).sort();
  const puts = Float64Array.from(putTimes).sort();
  const received = reports.reduce((sum, r) => sum + r.arrivals.length, 0);
  const expected = writes * options.clients;
  const p99 = percentile(delays, 99);
  const cpuPerDeliveryUs = (serverCpuMs * 1000) / Math.max(1, received);
  console.log(`bench: ${received} of ${expected} deliveries, p50 ${ms(percentile(delays, 50))} ms, p99 ${ms(p99)} ms, server CPU ${cpuPerDeliveryUs.toFixed(1)} µs per delivery`);
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
    `Server CPU (user and system, from the first write to 3 s after the last) per delivery: ${cpuPerDeliveryUs.toFixed(1)} µs, the ${thousands(writes)} PUTs included (${thousands(Math.round(serverCpuMs))} ms in all).`,
    "",
    "| delay | p50 ms | p90 ms | p99 ms | max ms |",
    "|---|---|---|---|---|",
    `| event time (before the commit) to arrival | ${ms(percentile(delays, 50))} | ${ms(percentile(delays, 90))} | ${ms(p99)} | ${ms(delays[delays.length - 1] ?? NaN)} |`,
    `| the writer's answer (after the commit) to arrival | ${ms(percentile(afterAnswer, 50))} | ${ms(percentile(afterAnswer, 90))} | ${ms(percentile(afterAnswer, 99))} | ${ms(afterAnswer[afterAnswer.length - 1] ?? NaN)} |`,
    `| the PUT itself, as its writer sees it | ${ms(percentile(puts, 50))} | ${ms(percentile(puts, 90))} | ${ms(percentile(puts, 99))} | ${ms(puts[puts.length - 1] ?? NaN)} |`,
    "",
    "- The commit is seen by no one outside the server, so the delay from it to a client is bounded from both sides: from the event's `time`, taken as the write starts (the write's own transaction and commit counted in: the target's figure), and from the moment the writer has the PUT's answer, after the commit (the answer's own way back left out: below zero when a stream had the event first). Between them: the wake-up of the streams, one read of the log for them all, the rights checked once for the streams of one account, each event's message built once and written to every stream's connection.",
    "- The clients are other processes than the server (each reads its streams on its own event loop), on the same cores; each stamps a message with Date.now() as its bytes come in, the clock the writer reads too.",
    "",
  ].join("\n"), { heading: SECTION, write: options.writeDocs });
  if (received !== expected) throw new Error(`${expected - received} deliveries missing`);
}

await session.run(main);
