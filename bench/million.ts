import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { positive } from "./bench-options.ts";
import { CHILD_ENV, ROOT, readUsage, runLineage, type WatchedLineage as Watched } from "./lineage-process.ts";
import { machineLine, mark, ms, publishSection, thousands } from "./benchmarks-doc.ts";
import { BENCH_LOGIN, BENCH_PASSWORD } from "./generate-bundle.ts";
import {
  COMMON_TERM, MILLION_DOMAIN, MILLION_STRUCTURE, PHRASE, RARE_TERM, writeLargeBundle, writeMillionBundle,
} from "./million-bundle.ts";

/*
 * A million elements (issue 18, item 6), by `pnpm bench:million`, everything as a user runs it (the
 * `lineage` command as child processes, built first by `node scripts/build.mjs` and run from its
 * JavaScript without the workspace's source condition, HTTP on loopback, one request at a time):
 *  1. writes the bundle: N elements of one structure with two short text fields, and a search
 *     domain over both (bench/million-bundle.ts);
 *  2. `lineage import` of it into a new data directory: wall and CPU time, peak memory (VmHWM of
 *     the process, read from /proc while it runs);
 *  3. `lineage serve` on that data, no search snapshot yet: time until it listens, and until
 *     /health names no domain building; then stops it (the snapshot is written);
 *  4. `lineage serve` again, with the snapshot: time until its first search answers, its memory
 *     with the index loaded, then searches (a term of 80 % of the elements, a rare term, a
 *     phrase of two words) and list pages, --runs times each after one warm-up, server time from
 *     the request log (`ms` of the line with the request's X-Request-Id);
 *  5. unless --no-large, `lineage import` of a bundle over 537 MB (longer than any string V8
 *     makes, so no JSON.parse of the whole file could read it);
 *  6. writes the section "## A million elements" of docs/benchmarks.md.
 * Options: --count N (1000000), --runs N (20), --no-large, --keep (leave the files in the temporary folder), --no-docs.
 */

const SECTION = "## A million elements";
const AUTH = `Basic ${Buffer.from(`${BENCH_LOGIN}:${BENCH_PASSWORD}`).toString("base64")}`;
const LARGE_COUNT = 50_000;
const LARGE_BODY = 11_000;
const V8_MAX_STRING = 0x1fffffe8;

const TARGETS = {
  importSeconds: 90, importMemoryMb: 1024, firstSearchSeconds: 5, serverMemoryMb: 1536,
  commonMs: 10, rareMs: 2, phraseMs: 50,
} as const;

const { values: args } = parseArgs({
  options: {
    count: { type: "string", default: "1000000" }, runs: { type: "string", default: "20" },
    "no-large": { type: "boolean", default: false }, keep: { type: "boolean", default: false }, "no-docs": { type: "boolean", default: false },
  },
});
const count = positive("count", args.count, 5_000_000);
const runs = positive("runs", args.runs, 1000);

const seconds = (from: number) => (performance.now() - from) / 1000;
const log = (line: string) => console.log(`bench:million ${line}`);

/** Runs `lineage ARGS` watched, its progress lines logged. */
const lineage = (cliArgs: readonly string[], onLine?: (line: string) => void): Watched =>
  runLineage(cliArgs, onLine, (line) => {
    if (/ (writing|checking|reading) (\d*0|100)% /.test(line)) log(line);
  });

/* ---------- serve ---------- */

interface Server extends Watched {
  readonly url: string;
  readonly listenSeconds: number;
  /** Server time (`ms` of its request log line) by request id. */
  readonly serverMs: Map<string, number>;
}

async function serve(data: string): Promise<Server> {
  const serverMs = new Map<string, number>();
  let found: (url: string) => void = () => {};
  const listening = new Promise<string>((done) => (found = done));
  const watched = lineage(["serve", "--data", data, "--port", "0"], (line) => {
    const url = /listening on (http:\/\/\S+)/.exec(line)?.[1];
    if (url) found(url);
    if (!line.startsWith("{")) return;
    const entry = JSON.parse(line) as { reqId?: string; ms?: number };
    if (entry.reqId && entry.ms !== undefined) serverMs.set(entry.reqId, entry.ms);
  });
  const url = await Promise.race([listening, watched.exited.then((code) => {
    throw new Error(`serve exited (${code}) before listening: ${watched.stderr.join("\n")}`);
  })]);
  return { ...watched, url, listenSeconds: seconds(watched.started), serverMs };
}

async function stop(server: Server): Promise<void> {
  server.child.kill("SIGTERM");
  await server.exited;
}

/** The domains /health names as building; a refused connection counts as still building while the process lives. */
async function building(server: Server): Promise<string[]> {
  try {
    const answer = await fetch(`${server.url}/health`, { signal: AbortSignal.timeout(30_000) });
    return ((await answer.json()) as { data: { building: { searchDomains: string[] } } }).data.building.searchDomains;
  } catch (error) {
    if (server.child.exitCode !== null || server.child.signalCode !== null) {
      throw new Error(`serve exited (${server.child.exitCode ?? server.child.signalCode}): ${server.stderr.slice(-20).join("\n")}`);
    }
    log(`/health: ${(error as Error).message}, asking again`);
    return ["?"];
  }
}

async function untilBuilt(server: Server): Promise<number> {
  while ((await building(server)).length > 0) await new Promise((done) => setTimeout(done, 250));
  return seconds(server.started);
}

interface Timed {
  readonly status: number;
  readonly clientMs: number;
  readonly serverMs: number;
  readonly body: unknown;
}

async function get(server: Server, path: string): Promise<Timed> {
  const id = randomUUID();
  const started = performance.now();
  const answer = await fetch(`${server.url}${path}`, { headers: { authorization: AUTH, accept: "application/json", "x-request-id": id } });
  const body = await answer.json();
  const clientMs = performance.now() - started;
  // The log line is written once the answer is sent: give stdout a moment.
  for (let wait = 0; !server.serverMs.has(id) && wait < 100; wait++) await new Promise((done) => setTimeout(done, 5));
  return { status: answer.status, clientMs, serverMs: server.serverMs.get(id) ?? Number.NaN, body };
}

interface Series {
  readonly label: string;
  readonly path: string;
  /** Elements on the page answered. */
  readonly items: number | undefined;
  readonly serverMs: number[];
  readonly clientMs: number[];
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};
const highest = (values: readonly number[]) => Math.max(...values);

async function series(server: Server, label: string, path: string): Promise<Series> {
  const warm = await get(server, path);
  if (warm.status !== 200) throw new Error(`${path}: ${warm.status} ${JSON.stringify(warm.body).slice(0, 300)}`);
  const items = (warm.body as { data?: { documents?: unknown[] } }).data?.documents?.length;
  const serverMs: number[] = [];
  const clientMs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const timed = await get(server, path);
    serverMs.push(timed.serverMs);
    clientMs.push(timed.clientMs);
  }
  log(`${label}: median ${ms(median(serverMs))} ms server, ${ms(median(clientMs))} ms client`);
  return { label, path, items, serverMs, clientMs };
}

/* ---------- the run ---------- */

const dir = mkdtempSync(join(tmpdir(), "bench-million-"));
// Other processes may share the cores: the figures say under what load they were measured.
const loads = [loadavg()[0]!];
const mb = (bytes: number) => bytes / 1e6;
try {
  // tsc writes dist/ even when it reports a type error: the run goes on, saying so.
  const built = spawnSync(process.execPath, [join(ROOT, "scripts/build.mjs")], { cwd: ROOT, env: CHILD_ENV, stdio: "inherit" });
  if (built.status !== 0) log(`node scripts/build.mjs exited with ${built.status}: dist/ may lag the sources`);
  const bundle = join(dir, "million.json");
  let started = performance.now();
  const bundleBytes = writeMillionBundle(bundle, { count });
  const generateSeconds = seconds(started);
  log(`bundle: ${mb(bundleBytes).toFixed(1)} MB in ${generateSeconds.toFixed(1)} s`);

  const data = join(dir, "data");
  const imported = lineage(["import", "--data", data, bundle]);
  const importStatus = await imported.exited;
  if (importStatus !== 0) throw new Error(`lineage import failed (${importStatus}): ${imported.stderr.slice(-20).join("\n")}`);
  const importSeconds = seconds(imported.started);
  const importReport = imported.stdout.find((line) => line.includes("elements:"))?.trim() ?? "";
  const dataBytes = statSync(join(data, "lineage.sqlite")).size;
  log(`import: ${importSeconds.toFixed(1)} s, ${imported.usage.cpuSeconds.toFixed(1)} s CPU, peak ${thousands(imported.usage.peakKb / 1024)} MB; ${importReport}`);

  const cold = await serve(data);
  const builtSeconds = await untilBuilt(cold);
  readUsage(cold.child.pid!, cold.usage);
  const coldRssMb = cold.usage.rssKb / 1024;
  log(`serve without a snapshot: listening after ${cold.listenSeconds.toFixed(1)} s, index built after ${builtSeconds.toFixed(1)} s`);
  await stop(cold);

  const warm = await serve(data);
  const query = (q: string) => `/api/v2/fullsearch/domains/${MILLION_DOMAIN}/smart-elements/?slice=10&q=${encodeURIComponent(q)}`;
  let firstSearch: Timed | undefined;
  while (!firstSearch || firstSearch.status !== 200) {
    firstSearch = await get(warm, query(RARE_TERM));
    if (firstSearch.status !== 200 && firstSearch.status !== 503) throw new Error(`search: ${firstSearch.status}`);
  }
  const firstSearchSeconds = seconds(warm.started);
  await untilBuilt(warm);
  readUsage(warm.child.pid!, warm.usage);
  const warmRssMb = warm.usage.rssKb / 1024;
  log(`serve with the snapshot: listening after ${warm.listenSeconds.toFixed(1)} s, first search after ${firstSearchSeconds.toFixed(1)} s, VmRSS ${thousands(warmRssMb)} MB`);

  const searches = [
    await series(warm, `a term of 80 % of the elements (\`${COMMON_TERM}\`)`, query(COMMON_TERM)),
    await series(warm, `a rare term (\`${RARE_TERM}\`)`, query(RARE_TERM)),
    await series(warm, `a phrase of two words (\`"${PHRASE}"\`)`, query(`"${PHRASE}"`)),
  ];
  const lists = [
    await series(warm, "first page", "/api/v2/smart-elements/?slice=10"),
    await series(warm, "recently modified first", "/api/v2/smart-elements/?slice=10&orderBy=mdate:desc"),
    await series(warm, "deep offset", `/api/v2/smart-elements/?slice=10&offset=${Math.floor(count / 2)}&orderBy=initid`),
    await series(warm, "a field order, deepest page", `/api/v2/smart-structures/${MILLION_STRUCTURE}/smart-elements/?slice=10&offset=${count - 10}&orderBy=mn_title:desc`),
  ];
  readUsage(warm.child.pid!, warm.usage);
  const afterRssMb = warm.usage.rssKb / 1024;
  await stop(warm);

  let large: { bytes: number; status: number | null; seconds: number; cpuSeconds: number; peakMb: number; report: string } | undefined;
  if (!args["no-large"]) {
    const largeBundle = join(dir, "large.json");
    const bytes = writeLargeBundle(largeBundle, LARGE_COUNT, LARGE_BODY);
    rmSync(bundle);
    const run = lineage(["import", "--data", join(dir, "large-data"), largeBundle]);
    const status = await run.exited;
    large = {
      bytes, status, seconds: seconds(run.started), cpuSeconds: run.usage.cpuSeconds, peakMb: run.usage.peakKb / 1024,
      report: run.stdout.find((line) => line.includes("elements:"))?.trim() ?? run.stderr.slice(-3).join(" "),
    };
    log(`large bundle: ${mb(bytes).toFixed(1)} MB, import ${status === 0 ? "done" : "FAILED"} in ${large.seconds.toFixed(1)} s, peak ${thousands(large.peakMb)} MB; ${large.report}`);
  }

  loads.push(loadavg()[0]!);
  const server = (s: Series) => median(s.serverMs);
  const [common, rare, phrase] = searches as [Series, Series, Series];
  const importMb = imported.usage.peakKb / 1024;
  const rows: [string, string, string, boolean][] = [
    [`Import of ${thousands(count)} elements (\`lineage import\`, wall time)`, `${importSeconds.toFixed(1)} s`, `< ${TARGETS.importSeconds} s`, importSeconds < TARGETS.importSeconds],
    ["Import, peak memory (VmHWM)", `${thousands(importMb)} MB`, "< 1 GB", importMb < TARGETS.importMemoryMb],
    ...(large ? [[`A bundle over 500 MB importable (${mb(large.bytes).toFixed(0)} MB)`, large.status === 0 ? `imported, peak ${thousands(large.peakMb)} MB` : "failed", "imported", large.status === 0] as [string, string, string, boolean]] : []),
    ["Restart with a search snapshot: first search answered", `${firstSearchSeconds.toFixed(1)} s`, `< ${TARGETS.firstSearchSeconds} s`, firstSearchSeconds < TARGETS.firstSearchSeconds],
    [`Search, ${common.label}, first page, server time (median)`, `${ms(server(common))} ms`, `< ${TARGETS.commonMs} ms`, server(common) < TARGETS.commonMs],
    [`Search, ${rare.label}, server time (median)`, `${ms(server(rare))} ms`, `< ${TARGETS.rareMs} ms`, server(rare) < TARGETS.rareMs],
    [`Search, ${phrase.label}, server time (median)`, `${ms(server(phrase))} ms`, `< ${TARGETS.phraseMs} ms`, server(phrase) < TARGETS.phraseMs],
    ["Server memory with the index loaded (VmRSS)", `${thousands(warmRssMb)} MB`, "< 1.5 GB", warmRssMb < TARGETS.serverMemoryMb],
  ];
  const table = (title: string, list: readonly Series[]) => [
    `| ${title} | items | server ms, median | server ms, max | client ms, median |`,
    "|---|---|---|---|---|",
    ...list.map((s) => `| ${s.label}: \`GET ${s.path}\` | ${s.items ?? "-"} | ${ms(median(s.serverMs))} | ${ms(highest(s.serverMs))} | ${ms(median(s.clientMs))} |`),
  ];
  const flags = [count !== 1_000_000 ? `--count ${count}` : "", runs !== 20 ? `--runs ${runs}` : "", args["no-large"] ? "--no-large" : ""].filter(Boolean).join(" ");
  const section = [
    SECTION,
    "",
    `Run on ${new Date().toISOString().slice(0, 10)}: \`pnpm bench:million${flags ? ` ${flags}` : ""}\` (${thousands(count)} elements of one structure, two short text fields each, and a search domain over both; ${runs} requests per line after one warm-up, one at a time).`,
    "",
    `${machineLine()} Every step runs the \`lineage\` command as a child process on SQLite (built first by \`node scripts/build.mjs\`, run from its JavaScript as users run it); requests go over loopback.` +
      ` Load average (1 min) at the start and the end of the run: ${loads.map((l) => l.toFixed(1)).join(" and ")}: other processes shared the cores, and figures are as measured under that load.`,
    "",
    "| Target | Measured | Goal | Status |",
    "|---|---|---|---|",
    ...rows.map(([what, measured, goal, met]) => `| ${what} | ${measured} | ${goal} | ${mark(met)} |`),
    "",
    ...table("Search (one request at a time)", searches),
    "",
    ...table("List", lists),
    "",
    `- Bundle: ${mb(bundleBytes).toFixed(1)} MB, written in ${generateSeconds.toFixed(1)} s (\`bench/million-bundle.ts\`). Import: ${importSeconds.toFixed(1)} s wall, ${imported.usage.cpuSeconds.toFixed(1)} s of CPU, peak memory ${thousands(importMb)} MB; \`${importReport}\`; data directory ${thousands(mb(dataBytes))} MB after it. Wall time counts whatever else this shared machine ran meanwhile; CPU time does not.`,
    `- \`lineage serve\` on that data without a search snapshot: listening after ${cold.listenSeconds.toFixed(1)} s; \`/health\` named no domain building after ${builtSeconds.toFixed(1)} s (the index built, its snapshot written); VmRSS then ${thousands(coldRssMb)} MB.`,
    `- Restarted with the snapshot: listening after ${warm.listenSeconds.toFixed(1)} s, first search answered after ${firstSearchSeconds.toFixed(1)} s (from the start of the process); VmRSS ${thousands(warmRssMb)} MB with the index loaded, ${thousands(afterRssMb)} MB after the requests above.`,
    "- Server time is the `ms` of the request's line in the request log (until the answer is written); client time includes the HTTP round trip on loopback.",
    ...(large ? [`- The large bundle: ${thousands(LARGE_COUNT)} elements with a body of about ${thousands(LARGE_BODY)} characters, ${mb(large.bytes).toFixed(1)} MB (past ${mb(V8_MAX_STRING).toFixed(0)} MB, the longest string V8 makes, so no JSON.parse of the whole file could read it): ${large.status === 0 ? "imported" : "FAILED"} in ${large.seconds.toFixed(1)} s (${large.cpuSeconds.toFixed(1)} s of CPU), peak memory ${thousands(large.peakMb)} MB; \`${large.report}\`.`] : []),
  ].join("\n");
  publishSection(section, { heading: SECTION, write: !args["no-docs"] });
} finally {
  if (args.keep) log(`files kept in ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}
