import autocannon, { type Result } from "autocannon";
import { spawn, type ChildProcess } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { availableParallelism, tmpdir, totalmem } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { openLineage } from "@lineage/cli";
import { enumerateData, enumerateIndex, type Enumerate, type EnumerateParameters } from "../packages/core/src/index.ts";
import {
  ENUM_FIELD, ENUM_LOGIN, ENUM_NAME, ENUM_PASSWORD, ENUM_STRUCTURE, FRENCH_LOGIN, FRENCH_PASSWORD, TINY_ENUM_NAME, enumerateBundle, enumerateItems,
} from "./enumerate-bundle.ts";

/*
 * The Enumerates benchmark (issue 5), run by `pnpm bench:enumerates`:
 *  1. writes a bundle with one enumerate of 10 000 items (bench/enumerate-bundle.ts) and imports it
 *     into a fresh SQLite data directory (openLineage, as `lineage import`);
 *  2. starts the server on it in a child process (bench/server-process.ts, as `lineage serve`);
 *  3. times the first lookup (the store parses the enumerate, the core builds its index);
 *  4. loads with autocannon on 127.0.0.1: a bare Hono route and a 3-item enumerate (floors), then
 *     keyword lookups in the 10 000 items: contains, startswith, a broad contains ordered by label in French;
 *  5. times the pure lookup in this process (enumerateData over the 10 000 items);
 *  6. writes the section "## Enumerates (issue 5)" of docs/benchmarks.md (appended, or replaced in place).
 * Temp dirs and the child are removed whatever happens; the whole run is bounded by --budget.
 *
 * Options: --duration S, --warmup S, --connections N, --budget S,
 * --profile DIR (--cpu-prof of the server child into DIR), --no-docs.
 */

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DOCS = join(ROOT, "docs", "benchmarks.md");
const SECTION = "## Enumerates (issue 5)";
const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;

/** Narrow lookups (a few dozen items, what a type-ahead asks) must stay fast; the broad one is shown, not held to a goal. */
const TARGETS = { lookupP99Ms: 20, pureLookupP99Ms: 1 };

const { values: args } = parseArgs({
  options: {
    duration: { type: "string", default: "10" },
    warmup: { type: "string", default: "2" },
    connections: { type: "string", default: "10" },
    budget: { type: "string", default: "180" },
    profile: { type: "string" },
    "no-docs": { type: "boolean", default: false },
  },
});

function positive(name: string, raw: string, max: number): number {
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 1 || value > max) throw new Error(`--${name} takes an integer from 1 to ${max}, not "${raw}"`);
  return value;
}

const options = {
  duration: positive("duration", args.duration, 60),
  warmup: positive("warmup", args.warmup, 30),
  connections: positive("connections", args.connections, 100),
  budget: positive("budget", args.budget, 1800),
  profileDir: args.profile ? resolve(args.profile) : undefined,
  writeDocs: !args["no-docs"],
};

// ---- cleanup, whatever happens -------------------------------------------------------------

const children = new Set<ChildProcess>();
const tempDir = mkdtempSync(join(tmpdir(), "lineage-bench-enum-"));
let cleaned = false;

function killChildren(signal: NodeJS.Signals): void {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill(signal);
}

/** Stops the children (SIGTERM, then SIGKILL after 5 s) and removes the temp dir. */
async function cleanup(): Promise<void> {
  if (cleaned) return;
  killChildren("SIGTERM");
  const deadline = Date.now() + 5_000;
  while ([...children].some((child) => child.exitCode === null && child.signalCode === null) && Date.now() < deadline) {
    await new Promise((done) => setTimeout(done, 50));
  }
  killChildren("SIGKILL");
  rmSync(tempDir, { recursive: true, force: true });
  cleaned = true;
}

process.on("exit", () => {
  if (cleaned) return;
  killChildren("SIGKILL");
  rmSync(tempDir, { recursive: true, force: true });
});
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.once(signal, () => {
    console.error(`\nbench: ${signal}, cleaning up`);
    cleanup().finally(() => process.exit(130));
  });
}
const watchdog = setTimeout(() => {
  console.error(`bench: over the ${options.budget} s budget, stopping`);
  cleanup().finally(() => process.exit(1));
}, options.budget * 1000);

/** Starts `bench/<script>` (it sends { url } over IPC once it listens); resolves to that URL. */
function startServer(script: string, childArgs: string[], profile: boolean): Promise<{ child: ChildProcess; url: string }> {
  const flags = profile && options.profileDir ? ["--cpu-prof", `--cpu-prof-dir=${options.profileDir}`] : [];
  const child = spawn(process.execPath, [...flags, "--import", TSX_LOADER, join(ROOT, "bench", script), ...childArgs], {
    cwd: ROOT,
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  children.add(child);
  child.once("exit", () => children.delete(child));
  return new Promise((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script}: no answer after 60 s`)), 60_000);
    child.once("message", (message) => {
      clearTimeout(timer);
      resolveUrl({ child, url: (message as { url: string }).url });
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${script}: exited (${signal ?? code}) before answering`));
    });
  });
}

// ---- measures ------------------------------------------------------------------------------

interface LoadFigures {
  readonly name: string;
  readonly path: string;
  readonly login: string;
  /** Items answered; undefined for the bare route. */
  readonly matches: number | undefined;
  readonly requestsPerSecond: number;
  readonly requests: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  readonly bytesPerResponse: number;
  readonly non2xx: number;
  readonly errors: number;
}

/** Exact percentile of sorted samples (nearest rank). */
function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}

const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString("base64")}`;

/** One GET that must answer 200 with JSON; returns the data and how long it took. */
async function probe(url: string, authorization: string): Promise<{ data: any; ms: number }> {
  const started = performance.now();
  const response = await fetch(url, { headers: { accept: "application/json", authorization }, signal: AbortSignal.timeout(10_000) });
  const text = await response.text();
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`GET ${url}: ${response.status} ${text.slice(0, 300)}`);
  return { data: JSON.parse(text).data, ms };
}

/** autocannon on one URL: a warm-up, then the measured run; latencies from every answer. */
async function load(name: string, baseUrl: string, path: string, login: [string, string]): Promise<LoadFigures> {
  const authorization = basic(...login);
  const { data } = await probe(`${baseUrl}${path}`, authorization);
  const matches = (data?.enumItems as unknown[] | undefined)?.length;
  console.log(`bench: ${name}: ${matches ?? "-"} items; ${options.warmup} s warm-up + ${options.duration} s, ${options.connections} connections on ${path}`);
  let samples = new Float64Array(1 << 16);
  let count = 0;
  const run = autocannon({
    url: `${baseUrl}${path}`,
    connections: options.connections,
    duration: options.duration,
    warmup: { connections: options.connections, duration: options.warmup },
    headers: { accept: "application/json", authorization },
    timeout: 10,
  });
  run.on("response", (_client: unknown, _status: number, _bytes: number, responseTime: number) => {
    if (count === samples.length) {
      const grown = new Float64Array(samples.length * 2);
      grown.set(samples);
      samples = grown;
    }
    samples[count++] = responseTime;
  });
  const result: Result = await run;
  const sorted = samples.slice(0, count).sort();
  const figures: LoadFigures = {
    name,
    path,
    login: login[0],
    matches,
    requestsPerSecond: result.requests.average,
    requests: result.requests.total,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1] ?? NaN,
    bytesPerResponse: result.requests.total ? result.throughput.total / result.requests.total : 0,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
  console.log(`bench:   ${figures.requestsPerSecond.toFixed(0)} req/s, p50 ${figures.p50.toFixed(2)} ms, p99 ${figures.p99.toFixed(2)} ms, ` +
    `${figures.non2xx} non-2xx, ${figures.errors} errors`);
  return figures;
}

interface PureFigures {
  readonly name: string;
  readonly locale: string;
  readonly parameters: EnumerateParameters;
  readonly matches: number;
  readonly p50: number;
  readonly p99: number;
}

/** The pure lookup (what a request computes once the index exists), timed call by call. */
function timePure(enumerate: Enumerate, name: string, parameters: EnumerateParameters, locale: string, runs = 2000): PureFigures {
  const uri = `/api/v2/enumerates/${ENUM_NAME}/`;
  const matches = enumerateData(enumerate, parameters, locale, uri).enumItems.length;
  for (let i = 0; i < 200; i++) enumerateData(enumerate, parameters, locale, uri);
  const samples = new Float64Array(runs);
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    enumerateData(enumerate, parameters, locale, uri);
    samples[i] = performance.now() - started;
  }
  samples.sort();
  return { name, locale, parameters, matches, p50: percentile(samples, 50), p99: percentile(samples, 99) };
}

/** Building the index of a fresh copy of the enumerate (the first lookup after a change), median of 5. */
function timeIndexBuild(enumerate: Enumerate): { build: number; labelOrder: number } {
  const builds: number[] = [];
  const orders: number[] = [];
  for (let i = 0; i < 5; i++) {
    const copy = structuredClone(enumerate);
    let started = performance.now();
    const index = enumerateIndex(copy, "fr");
    builds.push(performance.now() - started);
    started = performance.now();
    index.labelRank();
    orders.push(performance.now() - started);
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
  return { build: median(builds), labelOrder: median(orders) };
}

// ---- the run -------------------------------------------------------------------------------

const CONTAINS = `/api/v2/enumerates/${ENUM_NAME}/?keyword=${encodeURIComponent("museum of nimes")}`;
const STARTSWITH = `/api/v2/smart-structures/${ENUM_STRUCTURE}/enumerates/${ENUM_FIELD}?keyword=${encodeURIComponent("library of or")}&operator=startswith`;
const TINY = `/api/v2/enumerates/${TINY_ENUM_NAME}/?keyword=m`;
const BROAD = `/api/v2/enumerates/${ENUM_NAME}/?keyword=${encodeURIComponent("hopital")}&orderBy=label`;

async function main(): Promise<void> {
  const items = enumerateItems();
  const bundlePath = join(tempDir, "bundle.json");
  const dataDir = join(tempDir, "data");
  writeFileSync(bundlePath, JSON.stringify(enumerateBundle(items)));

  console.log(`bench: importing an enumerate of ${items.length} items into ${dataDir}`);
  const importing = performance.now();
  const { platform } = await openLineage(dataDir, [bundlePath]);
  platform.store.close();
  const importSeconds = (performance.now() - importing) / 1000;

  if (options.profileDir) mkdirSync(options.profileDir, { recursive: true });
  const [{ child: server, url }, { url: bareUrl }] = await Promise.all([
    startServer("server-process.ts", [dataDir], true),
    startServer("bare-server.ts", [], false),
  ]);
  if (!server.pid) throw new Error("the server child has no pid");
  const admin: [string, string] = [ENUM_LOGIN, ENUM_PASSWORD];
  const french: [string, string] = [FRENCH_LOGIN, FRENCH_PASSWORD];
  // The first request of an account checks its password (scrypt): done apart, so the first lookup times the enumerate alone.
  await probe(`${url}${TINY}`, basic(...admin));
  const first = await probe(`${url}${CONTAINS}`, basic(...admin));
  const second = await probe(`${url}${CONTAINS}`, basic(...admin));
  console.log(`bench: first lookup ${first.ms.toFixed(1)} ms (parse + index), the next ${second.ms.toFixed(1)} ms`);

  const loads = [
    await load("bare route (the floor)", bareUrl, "/bare", admin),
    await load("3-item enumerate (the app's own cost)", url, TINY, admin),
    await load("contains, by reference", url, CONTAINS, admin),
    await load("startswith, field of a structure", url, STARTSWITH, admin),
    await load("broad contains, ordered by label, in French", url, BROAD, french),
  ];
  const rssMb = Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${server.pid}/status`, "utf8"))?.[1] ?? NaN) / 1024;
  await cleanup();

  const enumerate: Enumerate = { name: ENUM_NAME, items };
  const index = timeIndexBuild(enumerate);
  const pure = [
    timePure(enumerate, "contains", { keyword: "museum of nimes", operator: "contains", orderBy: "none" }, "en"),
    timePure(enumerate, "startswith", { keyword: "library of or", operator: "startswith", orderBy: "none" }, "en"),
    timePure(enumerate, "broad contains, by label", { keyword: "hopital", operator: "contains", orderBy: "label" }, "fr"),
    timePure(enumerate, "no match", { keyword: "zzz", operator: "contains", orderBy: "none" }, "en"),
  ];
  for (const figures of pure) console.log(`bench: pure ${figures.name}: ${figures.matches} items, p50 ${ms(figures.p50)} ms, p99 ${ms(figures.p99)} ms`);
  console.log(`bench: index build ${ms(index.build)} ms, label order ${ms(index.labelOrder)} ms`);

  const section = renderSection({ items: items.length, importSeconds, firstMs: first.ms, secondMs: second.ms, loads, rssMb, pure, index });
  console.log(`\n${section}`);
  if (options.writeDocs) {
    writeSection(section);
    console.log(`bench: wrote ${DOCS}`);
  }
  if (loads.some((figures) => figures.non2xx > 0 || figures.errors > 0)) {
    console.error("bench: some responses were not 2xx or failed: the figures are not valid");
    process.exitCode = 1;
  }
}

// ---- the docs ------------------------------------------------------------------------------

interface RunFigures {
  readonly items: number;
  readonly importSeconds: number;
  readonly firstMs: number;
  readonly secondMs: number;
  readonly loads: readonly LoadFigures[];
  readonly rssMb: number;
  readonly pure: readonly PureFigures[];
  readonly index: { build: number; labelOrder: number };
}

function cpuModel(): string {
  try {
    return /^model name\s*:\s*(.+)$/m.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1]?.trim() ?? "unknown";
  } catch {
    return "unknown";
  }
}

const ms = (value: number) => value.toFixed(2);
const mark = (met: boolean) => (met ? "met" : "**NOT met**");
const thousands = (value: number) => Math.round(value).toLocaleString("en-US");

function renderSection(run: RunFigures): string {
  const narrow = run.loads.filter((f) => f.path === CONTAINS || f.path === STARTSWITH);
  const worstP99 = Math.max(...narrow.map((f) => f.p99));
  const tiny = run.loads.find((f) => f.path === TINY);
  const slowest = Math.min(...narrow.map((f) => f.requestsPerSecond));
  const extraMs = tiny ? 1000 / slowest - 1000 / tiny.requestsPerSecond : NaN;
  const worstPure = Math.max(...run.pure.map((f) => f.p99));
  const allOk = run.loads.every((f) => f.non2xx === 0 && f.errors === 0);
  const extraArgs = [
    options.duration !== 10 ? `--duration ${options.duration}` : "",
    options.warmup !== 2 ? `--warmup ${options.warmup}` : "",
    options.connections !== 10 ? `--connections ${options.connections}` : "",
  ].filter(Boolean).join(" ");
  return [
    SECTION,
    "",
    `Run on ${new Date().toISOString().slice(0, 10)}: \`pnpm bench:enumerates${extraArgs ? ` ${extraArgs}` : ""}\` ` +
      `(one enumerate of ${thousands(run.items)} items: 100 regions of 99 places, labels in en and fr; ` +
      `${options.connections} connections, ${options.warmup} s warm-up then ${options.duration} s per route).`,
    "",
    `Machine: Node ${process.version}, ${availableParallelism()} cores (\`nproc\`), CPU ${cpuModel()}, ` +
      `${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM. The server runs in a child process on SQLite; autocannon runs in the benchmark's process on the same cores.`,
    "",
    "| Target | Measured | Goal | Status |",
    "|---|---|---|---|",
    `| Narrow keyword lookups over HTTP (contains, startswith), p99, the worse | ${ms(worstP99)} ms | < ${TARGETS.lookupP99Ms} ms | ${mark(worstP99 < TARGETS.lookupP99Ms)} |`,
    `| Pure lookup in 10,000 items (index built), p99, worst case | ${ms(worstPure)} ms | < ${TARGETS.pureLookupP99Ms} ms | ${mark(worstPure < TARGETS.pureLookupP99Ms)} |`,
    `| Non-2xx answers and errors | ${run.loads.reduce((n, f) => n + f.non2xx + f.errors, 0)} | 0 | ${mark(allOk)} |`,
    "",
    "| Lookup over HTTP | items | req/s | p50 ms | p99 ms | max ms | requests | bytes/answer | non-2xx | errors |",
    "|---|---|---|---|---|---|---|---|---|---|",
    ...run.loads.map((f) =>
      `| ${f.name} (as \`${f.login}\`): \`GET ${f.path}\` | ${f.matches ?? "-"} | ${thousands(f.requestsPerSecond)} | ${ms(f.p50)} | ${ms(f.p99)} | ${ms(f.max)} | ` +
      `${thousands(f.requests)} | ${thousands(f.bytesPerResponse)} | ${f.non2xx} | ${f.errors} |`),
    "",
    "| Pure lookup, in process (`enumerateData`, 2 000 calls) | locale | items | p50 ms | p99 ms |",
    "|---|---|---|---|---|",
    ...run.pure.map((f) =>
      `| ${f.name}: keyword \`${f.parameters.keyword}\`, ${f.parameters.operator}, orderBy ${f.parameters.orderBy} | ${f.locale} | ${f.matches} | ${ms(f.p50)} | ${ms(f.p99)} |`),
    "",
    `- How: each enumerate object gets, per locale, an index (\`packages/core/src/enumerates/enumerate-index.ts\`): its items' views, and their labels ` +
      `folded (case, accents) once and joined in one text; a lookup is then one native string search through the ${thousands(run.items)} labels. ` +
      "The label and key orders are ranks computed once too. " +
      `The SQLite store keeps each parsed enumerate (\`packages/adapter-sqlite/src/definition-cache.ts\`, checked against \`PRAGMA data_version\`) so the index survives between requests.`,
    `- Building the index of this enumerate (the first lookup after it changes): ${ms(run.index.build)} ms, plus ${ms(run.index.labelOrder)} ms for the label order (median of 5, in process). ` +
      `Over HTTP the first lookup took ${run.firstMs.toFixed(1)} ms (reading and parsing the enumerate from SQLite, then the index), the second ${run.secondMs.toFixed(1)} ms.`,
    `- The cost of size: the slower narrow lookup serves ${thousands(slowest)} req/s against ${thousands(tiny?.requestsPerSecond ?? NaN)} for the 3-item enumerate, ` +
      `about ${ms(extraMs)} ms more server time per request (the search through the labels, and 23 items to serialise instead of 2). ` +
      "The rest of a request (authentication, routing, envelope) is the app's own cost, the same on every route; " +
      `the broad lookup's time goes to its ${((run.loads.find((f) => f.path === BROAD)?.bytesPerResponse ?? NaN) / 1000).toFixed(0)} kB answer.`,
    `- Import of the bundle (openLineage, in process): ${run.importSeconds.toFixed(1)} s. Server VmRSS after the load: ${run.rssMb.toFixed(0)} MB.`,
    "- Latency percentiles are exact, from every measured answer; req/s is autocannon's per-second average.",
    "",
  ].join("\n");
}

const INTRO = `# Benchmarks

Figures measured on this project's own code, and the targets they are held to.
Each section is written by its own script, which leaves the other sections as they are.
`;

/** Replaces the section in place (up to the next `## ` heading) or appends it; creates the file with an intro. */
function writeSection(section: string): void {
  mkdirSync(join(ROOT, "docs"), { recursive: true });
  if (!existsSync(DOCS)) {
    writeFileSync(DOCS, `${INTRO}\n${section}`);
    return;
  }
  const current = readFileSync(DOCS, "utf8");
  const start = current.indexOf(`${SECTION}\n`);
  if (start < 0) {
    appendFileSync(DOCS, `${current.endsWith("\n") ? "" : "\n"}\n${section}`);
    return;
  }
  const after = current.indexOf("\n## ", start + SECTION.length);
  writeFileSync(DOCS, `${current.slice(0, start)}${section}${after < 0 ? "" : `\n${current.slice(after + 1)}`}`);
}

try {
  await main();
} catch (error) {
  console.error(`bench: ${(error as Error).stack ?? error}`);
  process.exitCode = 1;
} finally {
  clearTimeout(watchdog);
  await cleanup();
}
