import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { BENCH_LOGIN, BENCH_PASSWORD, createRandom, elementName, writeBenchBundle } from "./generate-bundle.ts";
import { benchArgOptions, benchOptions, changedLoadArgs, positive } from "./bench-options.ts";
import { firstMessage, openBenchSession, statusMb } from "./bench-session.ts";
import { LATENCY_NOTE, machineLine, mark, ms, publishSection, thousands } from "./benchmarks-doc.ts";
import { basicAuth, checkLoads, probe, runLoad, type LoadResult } from "./load.ts";

/*
 * The Smart Elements benchmark (issue 2), run by `pnpm bench`:
 *  1. generates a bundle of N BENCH_ARTICLE elements (100 000 by default);
 *  2. imports it into a fresh data directory in a child process (openLineage, as `lineage import`);
 *  3. starts the server on that directory in a child process (startLineage, as `lineage serve`);
 *  4. starts a bare Hono JSON route in another child process, the floor to compare with;
 *  5. loads both with autocannon on 127.0.0.1: --rounds rounds of GET /bare and GET one element, one
 *     after the other (the order alternating), then GET a list of 10 and GET a different element each time;
 *  6. reads the server's RSS, then writes the section "## Smart Elements (issue 2)" of docs/benchmarks.md.
 * Temp dirs and children are removed whatever happens; the whole run is bounded by --budget.
 *
 * The bare route is bound by round trips, not by its CPU (neither process saturates a core at 10
 * connections), so its throughput swings from run to run with the machine's scheduling, as much as 2x
 * on a shared VM; the target is judged on the median of the rounds' ratios, each round's figures shown.
 *
 * Options: --count N, --rounds N, --duration S, --warmup S, --connections N, --budget S,
 * --profile DIR (--cpu-prof of the import and server children into DIR), --no-docs.
 */

const SECTION = "## Smart Elements (issue 2)";
const DEFAULT_ROUNDS = 3;

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
    rounds: { type: "string", default: String(DEFAULT_ROUNDS) },
    ...benchArgOptions(400),
  },
});

const options = {
  count: positive("count", args.count, 1_000_000),
  rounds: positive("rounds", args.rounds, 9),
  ...benchOptions(args),
};
const session = openBenchSession({ tempPrefix: "lineage-bench-", budget: options.budget, profileDir: options.profileDir });

// ---- load ----------------------------------------------------------------------------------

interface LoadFigures extends LoadResult {
  readonly name: string;
  readonly path: string;
}

/** One round of the comparison: the bare route and one element, loaded one after the other. */
interface Round {
  readonly bare: LoadFigures;
  readonly element: LoadFigures;
}

const ratioOf = (round: Round) => round.element.requestsPerSecond / round.bare.requestsPerSecond;

/** The median of the rounds' ratios (the lower middle one for an even count). */
function medianRatio(rounds: readonly Round[]): number {
  const ratios = rounds.map(ratioOf).sort((a, b) => a - b);
  return ratios[Math.floor((ratios.length - 1) / 2)] ?? NaN;
}

async function load(name: string, baseUrl: string, path: string, headers: Record<string, string>, nextPath?: () => string): Promise<LoadFigures> {
  console.log(`bench: ${name}: ${options.warmup} s warm-up + ${options.duration} s, ${options.connections} connections on ${path}`);
  return { name, path, ...await runLoad(`${baseUrl}${path}`, headers, options, nextPath) };
}

// ---- the run -------------------------------------------------------------------------------

async function main(): Promise<void> {
  const seconds = (from: number) => (performance.now() - from) / 1000;
  const bundlePath = join(session.tempDir, "bundle.json");
  const dataDir = join(session.tempDir, "data");
  if (options.profileDir) mkdirSync(options.profileDir, { recursive: true });

  console.log(`bench: generating ${options.count} elements into ${bundlePath}`);
  const generating = performance.now();
  const bundleBytes = writeBenchBundle(bundlePath, { count: options.count });
  const generateSeconds = seconds(generating);
  console.log(`bench:   ${(bundleBytes / 1e6).toFixed(1)} MB in ${generateSeconds.toFixed(1)} s`);

  console.log("bench: importing (openLineage in a child process)");
  const importer = session.startChild("import-process.ts", [dataDir, bundlePath], true);
  const imported = await firstMessage<{ importSeconds: number; closeSeconds: number; parseSeconds: number; peakRssKb: number; report: unknown }>(
    importer, "import", Math.max(60, options.budget - 120));
  await new Promise((done) => (importer.exitCode === null ? importer.once("exit", done) : done(undefined)));
  const databaseMb = dirSizeMb(dataDir);
  console.log(`bench:   ${imported.importSeconds.toFixed(1)} s (+ close ${imported.closeSeconds.toFixed(1)} s; reading and parsing the JSON alone: ` +
    `${imported.parseSeconds.toFixed(1)} s), peak RSS ${(imported.peakRssKb / 1024).toFixed(0)} MB, data dir ${databaseMb.toFixed(0)} MB`);
  console.log(`bench:   ${JSON.stringify(imported.report)}`);

  console.log("bench: starting the server and the bare route");
  const server = session.startChild("server-process.ts", [dataDir], true);
  const bare = session.startChild("bare-server.ts", [], false);
  const [{ url: serverUrl }, { url: bareUrl }] = await Promise.all([
    firstMessage<{ url: string }>(server, "server", 60),
    firstMessage<{ url: string }>(bare, "bare server", 60),
  ]);
  if (!server.pid) throw new Error("the server child has no pid");
  const idleRssMb = statusMb(server.pid, "VmRSS");

  const headers = {
    accept: "application/json",
    authorization: basicAuth(BENCH_LOGIN, BENCH_PASSWORD),
  };
  const middle = elementName(Math.ceil(options.count / 2));
  const { body: element } = await probe(`${serverUrl}/api/v2/smart-elements/${middle}`, headers);
  const id = element?.data?.document?.properties?.id;
  if (typeof id !== "number") throw new Error(`GET ${middle}: no data.document.properties.id in ${JSON.stringify(element).slice(0, 300)}`);
  const { body: firstPage } = await probe(`${serverUrl}/api/v2/smart-elements/?slice=10`, headers);
  const listed = firstPage?.data?.documents?.length;
  if (listed !== Math.min(10, options.count)) console.warn(`bench: the list answered ${listed} documents, not 10`);
  await probe(`${bareUrl}/bare`, headers);

  const rounds: Round[] = [];
  for (let round = 1; round <= options.rounds; round++) {
    const bareLoad = () => load(`bare route, round ${round}`, bareUrl, "/bare", headers);
    const elementLoad = () => load(`GET one element, round ${round}`, serverUrl, `/api/v2/smart-elements/${id}`, headers);
    // Alternating which goes first, a drift of the machine over the run weighs on both sides.
    if (round % 2 === 1) {
      const bare = await bareLoad();
      rounds.push({ bare, element: await elementLoad() });
    } else {
      const element = await elementLoad();
      rounds.push({ bare: await bareLoad(), element });
    }
  }
  const list = await load("GET list, slice=10", serverUrl, "/api/v2/smart-elements/?slice=10", headers);
  // Another element at each request: what a cold cache costs (the reading cache serves the repeated one).
  const random = await load("GET one element, a different one each time", serverUrl, "/api/v2/smart-elements/<random name>", headers,
    randomElementPath(options.count));
  const loads = [...rounds.flatMap((round) => [round.bare, round.element]), list, random];
  const loadedRssMb = statusMb(server.pid, "VmRSS");
  const peakRssMb = statusMb(server.pid, "VmHWM");
  console.log(`bench: server RSS ${idleRssMb.toFixed(0)} MB idle, ${loadedRssMb.toFixed(0)} MB after the load, peak ${peakRssMb.toFixed(0)} MB`);

  await session.cleanup();
  const run: RunFigures = {
    generateSeconds, bundleBytes, databaseMb, imported, idleRssMb, loadedRssMb, peakRssMb, rounds, list, loads, elementId: id, elementName: middle,
  };
  const section = renderSection(run);
  publishSection(section, { heading: SECTION, write: options.writeDocs });
  checkLoads(loads);
}

/** Paths of elements picked by a seeded PRNG, so runs ask for the same sequence. */
function randomElementPath(count: number): () => string {
  const random = createRandom(0xc01d);
  return () => `/api/v2/smart-elements/${elementName(1 + Math.floor(random() * count))}`;
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
  readonly rounds: readonly Round[];
  readonly list: LoadFigures;
  readonly loads: readonly LoadFigures[];
  readonly elementId: number;
  readonly elementName: string;
}

function renderSection(run: RunFigures): string {
  const { list, rounds } = run;
  const ratio = medianRatio(rounds);
  const ratios = rounds.map((round) => `${(ratioOf(round) * 100).toFixed(0)} %`).join(", ");
  const importTotal = run.imported.importSeconds + run.imported.closeSeconds;
  const atTargetSize = options.count === TARGETS.count;
  const sizeNote = atTargetSize ? "" : ` (target set for ${thousands(TARGETS.count)} elements; this run has ${thousands(options.count)})`;
  const extraArgs = [
    options.count !== 100_000 ? `--count ${options.count}` : "",
    options.rounds !== DEFAULT_ROUNDS ? `--rounds ${options.rounds}` : "",
    ...changedLoadArgs(options),
  ].filter(Boolean).join(" ");
  const allOk = run.loads.every((figures) => figures.non2xx === 0 && figures.errors === 0);

  return [
    SECTION,
    "",
    `Run on ${new Date().toISOString().slice(0, 10)}: \`pnpm bench${extraArgs ? ` ${extraArgs}` : ""}\` ` +
      `(${thousands(options.count)} elements; ${options.connections} connections, ${options.warmup} s warm-up then ${options.duration} s per load; ` +
      `${rounds.length} rounds of the bare route and one element).`,
    "",
    `${machineLine()} autocannon runs in the benchmark's own process on the same cores as the server.`,
    "",
    "| Target | Measured | Goal | Status |",
    "|---|---|---|---|",
    `| GET one element, throughput vs the bare route (median of the rounds: ${ratios}) | ${(ratio * 100).toFixed(0)} % | >= ${TARGETS.elementVsBare * 100} % | ${mark(ratio >= TARGETS.elementVsBare)} |`,
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
    "| Round | bare route req/s | GET one element req/s | ratio |",
    "|---|---|---|---|",
    ...rounds.map((round, index) =>
      `| ${index + 1} | ${thousands(round.bare.requestsPerSecond)} | ${thousands(round.element.requestsPerSecond)} | ${(ratioOf(round) * 100).toFixed(0)} % |`),
    "",
    "- Why rounds: at 10 connections the bare route saturates neither its server (about 70 % of a core) nor autocannon (about 50 %): " +
      "its throughput is bound by round trips and swings with the machine's scheduling (from 8,000 to 17,000 req/s seen on this VM), " +
      "while the element route is bound by the server's CPU. So each round loads both, one after the other (the order alternating), " +
      "and the target is judged on the median of the rounds' ratios.",
    `- Element read: id ${run.elementId} (\`${run.elementName}\`), Basic auth as the admin \`${BENCH_LOGIN}\`; the list is in the default order (title, then id desc).`,
    "- The same element asked again is served from the platform's reading cache (kept until the next write, checked against the store's version, read once for the requests received in the same turn of the event loop); " +
      "the last route asks for a different element each time (seeded random names), which is what a cold cache costs.",
    `- Bundle: ${(run.bundleBytes / 1e6).toFixed(0)} MB, generated in ${run.generateSeconds.toFixed(1)} s (\`bench/generate-bundle.ts\`).`,
    `- Import: \`openLineage(dataDir, [bundle])\` in a child process, ${run.imported.importSeconds.toFixed(1)} s, then closing the store ${run.imported.closeSeconds.toFixed(1)} s; ` +
      `reading and parsing the JSON alone takes ${run.imported.parseSeconds.toFixed(1)} s. Peak RSS of the import ${(run.imported.peakRssKb / 1024).toFixed(0)} MB; ` +
      `data directory ${run.databaseMb.toFixed(0)} MB after it.`,
    `- Server: \`startLineage({ dataDir, port: 0 })\` in a child process (as \`lineage serve\`, no bundle); ` +
      `VmRSS ${run.idleRssMb.toFixed(0)} MB once listening, ${run.loadedRssMb.toFixed(0)} MB after the load (VmHWM ${run.peakRssMb.toFixed(0)} MB).`,
    LATENCY_NOTE,
    "",
  ].join("\n");
}

await session.run(main);
