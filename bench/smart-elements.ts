import autocannon, { type Result } from "autocannon";
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { availableParallelism, tmpdir, totalmem } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { BENCH_LOGIN, BENCH_PASSWORD, elementName, writeBenchBundle } from "./generate-bundle.ts";

/*
 * The Smart Elements benchmark (issue 2), run by `pnpm bench`:
 *  1. generates a bundle of N BENCH_ARTICLE elements (100 000 by default);
 *  2. imports it into a fresh data directory in a child process (openLineage, as `lineage import`);
 *  3. starts the server on that directory in a child process (startLineage, as `lineage serve`);
 *  4. starts a bare Hono JSON route in another child process, the floor to compare with;
 *  5. loads both with autocannon on 127.0.0.1 (GET one element, GET a list of 10, GET /bare);
 *  6. reads the server's RSS, then writes the section "## Smart Elements (issue 2)" of docs/benchmarks.md.
 * Temp dirs and children are removed whatever happens; the whole run is bounded by --budget.
 *
 * Options: --count N, --duration S, --warmup S, --connections N, --budget S,
 * --profile DIR (--cpu-prof of the import and server children into DIR), --no-docs.
 */

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DOCS = join(ROOT, "docs", "benchmarks.md");
const SECTION = "## Smart Elements (issue 2)";
const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;

const TARGETS = {
  elementVsBare: 0.4,
  listP99Ms: 20,
  importSeconds: 60,
  serverRssMb: 400,
  count: 100_000,
};

const { values: args } = parseArgs({
  options: {
    count: { type: "string", default: "100000" },
    duration: { type: "string", default: "10" },
    warmup: { type: "string", default: "2" },
    connections: { type: "string", default: "10" },
    budget: { type: "string", default: "300" },
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
  count: positive("count", args.count, 1_000_000),
  duration: positive("duration", args.duration, 60),
  warmup: positive("warmup", args.warmup, 30),
  connections: positive("connections", args.connections, 100),
  budget: positive("budget", args.budget, 1800),
  profileDir: args.profile ? resolve(args.profile) : undefined,
  writeDocs: !args["no-docs"],
};

// ---- cleanup, whatever happens -------------------------------------------------------------

const children = new Set<ChildProcess>();
const tempDir = mkdtempSync(join(tmpdir(), "lineage-bench-"));
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

// ---- children ------------------------------------------------------------------------------

/** Starts `bench/<script>` under tsx's loader, with an IPC channel. */
function startChild(script: string, childArgs: string[], profile: boolean): ChildProcess {
  const flags = profile && options.profileDir ? ["--cpu-prof", `--cpu-prof-dir=${options.profileDir}`] : [];
  const child = spawn(process.execPath, [...flags, "--import", TSX_LOADER, join(ROOT, "bench", script), ...childArgs], {
    cwd: ROOT,
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  children.add(child);
  child.once("exit", () => children.delete(child));
  return child;
}

/** The first IPC message of a child; fails if it exits first or takes longer than `seconds`. */
function firstMessage<T>(child: ChildProcess, what: string, seconds: number): Promise<T> {
  return new Promise((resolveMessage, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${what}: no answer after ${seconds} s`));
    }, seconds * 1000);
    child.once("message", (message) => {
      clearTimeout(timer);
      resolveMessage(message as T);
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${what}: exited (${signal ?? code}) before answering`));
    });
  });
}

/** A line of /proc/<pid>/status in MB (VmRSS: resident now, VmHWM: peak). */
function statusMb(pid: number, key: "VmRSS" | "VmHWM"): number {
  const text = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(new RegExp(`^${key}:\\s+(\\d+)`, "m").exec(text)?.[1] ?? NaN) / 1024;
}

// ---- load ----------------------------------------------------------------------------------

interface LoadFigures {
  readonly name: string;
  readonly path: string;
  readonly requestsPerSecond: number;
  readonly requests: number;
  readonly p50: number;
  readonly p97_5: number;
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

/**
 * autocannon on one URL: a warm-up, then the measured run. Latencies are
 * taken from every response (autocannon's own histogram rounds to whole ms).
 */
async function load(name: string, baseUrl: string, path: string, headers: Record<string, string>): Promise<LoadFigures> {
  console.log(`bench: ${name}: ${options.warmup} s warm-up + ${options.duration} s, ${options.connections} connections on ${path}`);
  let samples = new Float64Array(1 << 16);
  let count = 0;
  const run = autocannon({
    url: `${baseUrl}${path}`,
    connections: options.connections,
    duration: options.duration,
    warmup: { connections: options.connections, duration: options.warmup },
    headers,
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
    requestsPerSecond: result.requests.average,
    requests: result.requests.total,
    p50: percentile(sorted, 50),
    p97_5: percentile(sorted, 97.5),
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

/** One GET before the load: it must answer 200 with JSON. */
async function probe(url: string, headers: Record<string, string>): Promise<any> {
  const response = await fetch(url, { headers, signal: AbortSignal.timeout(10_000) });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`GET ${url}: ${response.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

// ---- the run -------------------------------------------------------------------------------

async function main(): Promise<void> {
  const seconds = (from: number) => (performance.now() - from) / 1000;
  const bundlePath = join(tempDir, "bundle.json");
  const dataDir = join(tempDir, "data");
  if (options.profileDir) mkdirSync(options.profileDir, { recursive: true });

  console.log(`bench: generating ${options.count} elements into ${bundlePath}`);
  const generating = performance.now();
  const bundleBytes = writeBenchBundle(bundlePath, { count: options.count });
  const generateSeconds = seconds(generating);
  console.log(`bench:   ${(bundleBytes / 1e6).toFixed(1)} MB in ${generateSeconds.toFixed(1)} s`);

  console.log("bench: importing (openLineage in a child process)");
  const importer = startChild("import-process.ts", [dataDir, bundlePath], true);
  const imported = await firstMessage<{ importSeconds: number; closeSeconds: number; parseSeconds: number; peakRssKb: number; report: unknown }>(
    importer, "import", Math.max(60, options.budget - 120));
  await new Promise((done) => (importer.exitCode === null ? importer.once("exit", done) : done(undefined)));
  const databaseMb = dirSizeMb(dataDir);
  console.log(`bench:   ${imported.importSeconds.toFixed(1)} s (+ close ${imported.closeSeconds.toFixed(1)} s; reading and parsing the JSON alone: ` +
    `${imported.parseSeconds.toFixed(1)} s), peak RSS ${(imported.peakRssKb / 1024).toFixed(0)} MB, data dir ${databaseMb.toFixed(0)} MB`);
  console.log(`bench:   ${JSON.stringify(imported.report)}`);

  console.log("bench: starting the server and the bare route");
  const server = startChild("server-process.ts", [dataDir], true);
  const bare = startChild("bare-server.ts", [], false);
  const [{ url: serverUrl }, { url: bareUrl }] = await Promise.all([
    firstMessage<{ url: string }>(server, "server", 60),
    firstMessage<{ url: string }>(bare, "bare server", 60),
  ]);
  if (!server.pid) throw new Error("the server child has no pid");
  const idleRssMb = statusMb(server.pid, "VmRSS");

  const headers = {
    accept: "application/json",
    authorization: `Basic ${Buffer.from(`${BENCH_LOGIN}:${BENCH_PASSWORD}`).toString("base64")}`,
  };
  const middle = elementName(Math.ceil(options.count / 2));
  const element = await probe(`${serverUrl}/api/v2/smart-elements/${middle}`, headers);
  const id = element?.data?.document?.properties?.id;
  if (typeof id !== "number") throw new Error(`GET ${middle}: no data.document.properties.id in ${JSON.stringify(element).slice(0, 300)}`);
  const list = await probe(`${serverUrl}/api/v2/smart-elements/?slice=10`, headers);
  const listed = list?.data?.documents?.length;
  if (listed !== Math.min(10, options.count)) console.warn(`bench: the list answered ${listed} documents, not 10`);
  await probe(`${bareUrl}/bare`, headers);

  const loads = [
    await load("bare route", bareUrl, "/bare", headers),
    await load("GET one element", serverUrl, `/api/v2/smart-elements/${id}`, headers),
    await load("GET list, slice=10", serverUrl, "/api/v2/smart-elements/?slice=10", headers),
  ];
  const loadedRssMb = statusMb(server.pid, "VmRSS");
  const peakRssMb = statusMb(server.pid, "VmHWM");
  console.log(`bench: server RSS ${idleRssMb.toFixed(0)} MB idle, ${loadedRssMb.toFixed(0)} MB after the load, peak ${peakRssMb.toFixed(0)} MB`);

  await cleanup();
  const run: RunFigures = {
    generateSeconds, bundleBytes, databaseMb, imported, idleRssMb, loadedRssMb, peakRssMb, loads, elementId: id, elementName: middle,
  };
  const section = renderSection(run);
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

/** Size of a directory in MB (`du -sb`). */
function dirSizeMb(dir: string): number {
  try {
    return Number(execFileSync("du", ["-sb", dir], { encoding: "utf8" }).split("\t")[0]) / 1e6;
  } catch {
    return NaN;
  }
}

// ---- the docs ------------------------------------------------------------------------------

interface RunFigures {
  readonly generateSeconds: number;
  readonly bundleBytes: number;
  readonly databaseMb: number;
  readonly imported: { importSeconds: number; closeSeconds: number; parseSeconds: number; peakRssKb: number };
  readonly idleRssMb: number;
  readonly loadedRssMb: number;
  readonly peakRssMb: number;
  readonly loads: readonly LoadFigures[];
  readonly elementId: number;
  readonly elementName: string;
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
  const [bare, element, list] = run.loads as [LoadFigures, LoadFigures, LoadFigures];
  const ratio = element.requestsPerSecond / bare.requestsPerSecond;
  const importTotal = run.imported.importSeconds + run.imported.closeSeconds;
  const atTargetSize = options.count === TARGETS.count;
  const sizeNote = atTargetSize ? "" : ` (target set for ${thousands(TARGETS.count)} elements; this run has ${thousands(options.count)})`;
  const extraArgs = [
    options.count !== 100_000 ? `--count ${options.count}` : "",
    options.duration !== 10 ? `--duration ${options.duration}` : "",
    options.warmup !== 2 ? `--warmup ${options.warmup}` : "",
    options.connections !== 10 ? `--connections ${options.connections}` : "",
  ].filter(Boolean).join(" ");
  const allOk = run.loads.every((figures) => figures.non2xx === 0 && figures.errors === 0);

  return [
    SECTION,
    "",
    `Run on ${new Date().toISOString().slice(0, 10)}: \`pnpm bench${extraArgs ? ` ${extraArgs}` : ""}\` ` +
      `(${thousands(options.count)} elements; ${options.connections} connections, ${options.warmup} s warm-up then ${options.duration} s per route).`,
    "",
    `Machine: Node ${process.version}, ${availableParallelism()} cores (\`nproc\`), CPU ${cpuModel()}, ` +
      `${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM. autocannon runs in the benchmark's own process on the same cores as the server.`,
    "",
    "| Target | Measured | Goal | Status |",
    "|---|---|---|---|",
    `| GET one element, throughput vs the bare route | ${thousands(element.requestsPerSecond)} / ${thousands(bare.requestsPerSecond)} req/s = ${(ratio * 100).toFixed(0)} % | >= ${TARGETS.elementVsBare * 100} % | ${mark(ratio >= TARGETS.elementVsBare)} |`,
    `| GET list (slice=10), p99 latency | ${ms(list.p99)} ms | < ${TARGETS.listP99Ms} ms | ${mark(list.p99 < TARGETS.listP99Ms)} |`,
    `| Import of the bundle | ${importTotal.toFixed(1)} s | < ${TARGETS.importSeconds} s${sizeNote} | ${mark(importTotal < TARGETS.importSeconds)} |`,
    `| Server RSS after the load | ${run.loadedRssMb.toFixed(0)} MB | < ${TARGETS.serverRssMb} MB${sizeNote} | ${mark(run.loadedRssMb < TARGETS.serverRssMb)} |`,
    `| Non-2xx answers and errors, all routes | ${run.loads.reduce((n, f) => n + f.non2xx + f.errors, 0)} | 0 | ${mark(allOk)} |`,
    "",
    "| Route | req/s | p50 ms | p97.5 ms | p99 ms | max ms | requests | bytes/answer | non-2xx | errors |",
    "|---|---|---|---|---|---|---|---|---|---|",
    ...run.loads.map((f) =>
      `| ${f.name}: \`GET ${f.path}\` | ${thousands(f.requestsPerSecond)} | ${ms(f.p50)} | ${ms(f.p97_5)} | ${ms(f.p99)} | ${ms(f.max)} | ` +
      `${thousands(f.requests)} | ${thousands(f.bytesPerResponse)} | ${f.non2xx} | ${f.errors} |`),
    "",
    `- Element read: id ${run.elementId} (\`${run.elementName}\`), Basic auth as the admin \`${BENCH_LOGIN}\`; the list is in the default order (title, then id desc).`,
    `- Bundle: ${(run.bundleBytes / 1e6).toFixed(0)} MB, generated in ${run.generateSeconds.toFixed(1)} s (\`bench/generate-bundle.ts\`).`,
    `- Import: \`openLineage(dataDir, [bundle])\` in a child process, ${run.imported.importSeconds.toFixed(1)} s, then closing the store ${run.imported.closeSeconds.toFixed(1)} s; ` +
      `reading and parsing the JSON alone takes ${run.imported.parseSeconds.toFixed(1)} s. Peak RSS of the import ${(run.imported.peakRssKb / 1024).toFixed(0)} MB; ` +
      `data directory ${run.databaseMb.toFixed(0)} MB after it.`,
    `- Server: \`startLineage({ dataDir, port: 0 })\` in a child process (as \`lineage serve\`, no bundle); ` +
      `VmRSS ${run.idleRssMb.toFixed(0)} MB once listening, ${run.loadedRssMb.toFixed(0)} MB after the load (VmHWM ${run.peakRssMb.toFixed(0)} MB).`,
    "- Latency percentiles are exact, from every measured answer; req/s is autocannon's per-second average.",
    "",
  ].join("\n");
}

const INTRO = `# Benchmarks

Figures measured on this project's own code, and the targets they are held to.
\`pnpm bench\` runs them (about two minutes: it generates its data, starts the
server in a child process, loads it with autocannon on 127.0.0.1 only) and
refreshes its section below; the other sections are left as they are.
Options: \`pnpm bench --count N --duration S --warmup S --connections N\`;
\`--profile DIR\` writes CPU profiles of the import and of the server;
\`--no-docs\` leaves this file alone.
`;

/** Replaces the section (up to the next `## ` heading) or appends it; creates the file with an intro. */
function writeSection(section: string): void {
  const current = existsSync(DOCS) ? readFileSync(DOCS, "utf8") : INTRO;
  const start = current.indexOf(`${SECTION}\n`);
  let next: string;
  if (start < 0) {
    next = `${current.trimEnd()}\n\n${section}`;
  } else {
    const after = current.indexOf("\n## ", start + SECTION.length);
    next = `${current.slice(0, start)}${section}${after < 0 ? "" : `\n${current.slice(after + 1)}`}`;
  }
  mkdirSync(join(ROOT, "docs"), { recursive: true });
  writeFileSync(DOCS, next.endsWith("\n") ? next : `${next}\n`);
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
