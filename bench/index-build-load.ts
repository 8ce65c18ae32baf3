import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { positive } from "./bench-options.ts";
import { machineLine, mark, ms, publishSection, thousands } from "./benchmarks-doc.ts";
import { BENCH_LOGIN, BENCH_PASSWORD } from "./generate-bundle.ts";
import { basicAuth, runLoad, type LoadResult } from "./load.ts";
import { cachedMillionBundle, MILLION_DOMAIN, millionName } from "./million-bundle.ts";

/*
 * Index work beside the API, by `pnpm bench:index-build`, as users run it (the built `lineage`
 * command as child processes, from its JavaScript; HTTP on loopback):
 *  1. takes the million bundle with texts of --words words (bench/million-bundle.ts, written once
 *     under the temporary folder) and runs `lineage import` of it, which
 *     leaves the search domain's index current (its snapshot written): wall time;
 *  2. `lineage serve` on that data: time until its first search answers (200);
 *  3. GET one element (a different one each time) with autocannon, 16 connections: no build running;
 *  4. stops it, removes the snapshots, `lineage serve` again: the domain's index builds, and the same
 *     load runs at once, back to back with 3, while /health still names the domain building;
 *  5. time until the build is over; writes the section "## Index builds beside the API" of docs/benchmarks.md.
 * Options: --count N (1000000), --words N (40), --duration S (15), --no-docs.
 */

const SECTION = "## Index builds beside the API";
const ROOT = resolve(import.meta.dirname, "..");
const LINEAGE = [join(ROOT, "packages/cli/bin/lineage.mjs")];
const CHILD_ENV = { ...process.env, NODE_OPTIONS: (process.env.NODE_OPTIONS ?? "").replace(/--conditions=@lineage\/source/g, "").trim() };
const AUTH = basicAuth(BENCH_LOGIN, BENCH_PASSWORD);

const { values: args } = parseArgs({
  options: { count: { type: "string", default: "1000000" }, words: { type: "string", default: "40" }, duration: { type: "string", default: "15" }, "no-docs": { type: "boolean", default: false } },
});
const count = positive("count", args.count, 5_000_000);
const duration = positive("duration", args.duration, 600);
const textWords = positive("words", args.words, 1000);
const seconds = (from: number) => (performance.now() - from) / 1000;
const log = (line: string) => console.log(`bench:index-build ${line}`);
const load1 = () => loadavg()[0]!.toFixed(1);

interface Server {
  readonly child: ChildProcess;
  readonly url: string;
  readonly started: number;
  readonly exited: Promise<number | null>;
}

function lineage(cliArgs: readonly string[], onLine: (line: string) => void = () => {}) {
  const child = spawn(process.execPath, [...LINEAGE, ...cliArgs], { cwd: ROOT, env: CHILD_ENV, stdio: ["ignore", "pipe", "pipe"] });
  createInterface({ input: child.stdout! }).on("line", onLine);
  const errors: string[] = [];
  createInterface({ input: child.stderr! }).on("line", (line) => errors.push(line));
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  return { child, exited, errors };
}

async function serve(data: string): Promise<Server> {
  const started = performance.now();
  let found: (url: string) => void = () => {};
  const listening = new Promise<string>((done) => (found = done));
  // No request log: its lines would cost the server as much in both runs, and tell nothing here.
  const run = lineage(["serve", "--data", data, "--port", "0"], (line) => {
    const url = /listening on (http:\/\/\S+)/.exec(line)?.[1];
    if (url) found(url);
  });
  const url = await Promise.race([listening, run.exited.then((code) => {
    throw new Error(`serve exited (${code}) before listening: ${run.errors.join("\n")}`);
  })]);
  return { child: run.child, url, started, exited: run.exited };
}

async function stop(server: Server): Promise<void> {
  server.child.kill("SIGTERM");
  await server.exited;
}

async function building(server: Server): Promise<string[]> {
  const answer = await fetch(`${server.url}/health`, { signal: AbortSignal.timeout(30_000) });
  return ((await answer.json()) as { data: { building: { searchDomains: string[] } } }).data.building.searchDomains;
}

/** Seconds from the server's start until a search answers 200. */
async function firstSearch(server: Server): Promise<number> {
  for (;;) {
    const answer = await fetch(`${server.url}/api/v2/fullsearch/domains/${MILLION_DOMAIN}/smart-elements/?slice=10&q=common`, { headers: { authorization: AUTH } });
    await answer.arrayBuffer();
    if (answer.status === 200) return seconds(server.started);
    await new Promise((done) => setTimeout(done, 50));
  }
}

let random = 1;
const nextElement = () => {
  random = (random * 48271) % 2147483647;
  return `/api/v2/smart-elements/${millionName(1 + (random % count))}`;
};
const getOne = (server: Server) => runLoad(`${server.url}${nextElement()}`, { authorization: AUTH }, { connections: 16, duration, warmup: 2 }, nextElement);

const folder = mkdtempSync(join(tmpdir(), "lineage-index-build-"));
try {
  const loadAtStart = load1();
  const bundle = cachedMillionBundle({ count, textWords });
  const data = join(folder, "data");
  log(`importing ${thousands(count)} elements`);
  const importStarted = performance.now();
  const imported = lineage(["import", "--data", data, bundle], (line) => log(line));
  if ((await imported.exited) !== 0) throw new Error(`import failed: ${imported.errors.slice(-10).join("\n")}`);
  const importSeconds = seconds(importStarted);

  const loaded = await serve(data);
  const firstSearchSeconds = await firstSearch(loaded);
  log(`first search after ${firstSearchSeconds.toFixed(1)} s; GET one element, no build running`);
  const quiet = await getOne(loaded);
  await stop(loaded);

  rmSync(join(data, "search"), { recursive: true, force: true });
  const rebuilding = await serve(data);
  const buildingAtStart = await building(rebuilding);
  log(`building ${buildingAtStart.join(", ")}; GET one element meanwhile`);
  const busy = await getOne(rebuilding);
  const buildingAtEnd = await building(rebuilding);
  while ((await building(rebuilding)).length > 0) await new Promise((done) => setTimeout(done, 250));
  const buildSeconds = seconds(rebuilding.started);
  await stop(rebuilding);
  const loadAtEnd = load1();

  const ratio = busy.requestsPerSecond / quiet.requestsPerSecond;
  const p99Ratio = busy.p99 / quiet.p99;
  const row = (label: string, result: LoadResult) =>
    `| ${label} | ${thousands(result.requestsPerSecond)} | ${ms(result.p50)} | ${ms(result.p99)} | ${ms(result.max)} | ${result.non2xx + result.errors} |`;
  const flags = [count !== 1_000_000 ? `--count ${count}` : "", textWords !== 40 ? `--words ${textWords}` : "", duration !== 15 ? `--duration ${duration}` : ""].filter(Boolean).join(" ");
  const section = [
    SECTION,
    "",
    `Run on ${new Date().toISOString().slice(0, 10)}: \`pnpm bench:index-build${flags ? ` ${flags}` : ""}\` (${thousands(count)} elements of the million bundle, a text of ${textWords} words each, one search domain over both text fields; ` +
    `GET one element, a different one each time, autocannon with 16 connections for ${duration} s after 2 s of warm-up, in the benchmark's own process).`,
    "",
    `${machineLine()} The built \`lineage\` command runs as child processes on SQLite. Load average (1 min) at the start and the end of the run: ${loadAtStart} and ${loadAtEnd}; ` +
    "the two loads ran back to back in one run, so their ratio is comparable under the same load.",
    "",
    "| Target | Measured | Goal | Status |",
    "|---|---|---|---|",
    `| \`serve\` after \`lineage import\`: first search answered | ${firstSearchSeconds.toFixed(1)} s | < 5 s | ${mark(firstSearchSeconds < 5)} |`,
    `| GET one element while the index builds, throughput against none building | ${ratio.toFixed(2)} | ≥ 0.80 | ${mark(ratio >= 0.8)} |`,
    `| GET one element while the index builds, p99 against none building | ${p99Ratio.toFixed(2)} | < 3 | ${mark(p99Ratio < 3)} |`,
    "",
    "| GET one element | req/s | p50 ms | p99 ms | max ms | errors and non-2xx |",
    "|---|---|---|---|---|---|",
    row("no build running (index loaded from the import's snapshot)", quiet),
    row("the domain's index building (no snapshot)", busy),
    "",
    `- \`lineage import\` of the bundle, the index built and written included: ${importSeconds.toFixed(1)} s wall.`,
    `- The build still running when the load ended: ${buildingAtEnd.length > 0 ? "yes" : "**no**"} (/health named ${JSON.stringify(buildingAtStart)} at its start); ` +
    `/health named no domain building ${buildSeconds.toFixed(1)} s after the server started (the build paced while the load ran, then at about full speed).`,
    "- Latency percentiles are exact, from every measured answer; req/s is autocannon's per-second average.",
  ].join("\n");
  publishSection(section, { heading: SECTION, write: !args["no-docs"] });
} finally {
  rmSync(folder, { recursive: true, force: true });
}
