import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { benchArgOptions, benchOptions, changedLoadArgs, positive, benchTrees } from "./bench-options.ts";
import { openBenchSession } from "./bench-session.ts";
import { LATENCY_NOTE, machineLine, mark, ms, publishSection, thousands } from "./benchmarks-doc.ts";
import { BENCH_LOGIN, BENCH_PASSWORD, createRandom } from "./generate-bundle.ts";
import { basicAuth, checkLoads, probe, runLoad, type LoadResult } from "./load.ts";
import { freePort, stopChild, untilAnswering } from "./served-child.ts";
import { MILLION_DOMAIN, millionElement, millionHead } from "./million-bundle.ts";

/*
 * `pnpm bench:search-throughput`: how many searches a server answers with many clients, against the
 * list page of ten on the same data, measured back to back in one run (their ratio holds better than
 * either figure on a shared machine):
 *   1. writes a bundle of --count elements (100,000) of the million benchmark's structure (a title of a
 *      few words, a text of 20 to 40), one search domain over both fields, THIRD_TERM in every third
 *      element's text, and imports it with the first tree's built `lineage import` (in bulk; it leaves
 *      the domain's index written);
 *   2. for each tree (`--trees before=../baseline,after=.`, each built: its packages/cli/bin/lineage.mjs
 *      runs dist/ as users run it), `lineage serve` on that data, then autocannon
 *      with --connections clients (16) over loopback: the list page of ten (GET /api/v2/smart-elements/?slice=10),
 *      then the first page of ten of a search for THIRD_TERM; --rounds rounds (3), the trees in
 *      alternating order; figures are the medians of the rounds.
 * With --profile DIR, every server writes a --cpu-prof file there (bench/cpu-profile-summary.ts reads it);
 * --routes search leaves the list page out, so that the profile holds the search alone.
 * With --data DIR, the imported data is kept there and reused by the next run (imported once).
 * Writes the section "## Full-text search: throughput with 16 clients" of docs/benchmarks.md.
 * Options: --trees, --count N, --rounds N, --routes all|search, --connections N (16), --duration S,
 * --warmup S, --budget S, --profile DIR, --data DIR, --no-docs.
 */

const SECTION = "## Full-text search: throughput with 16 clients";
/** Searches per second the search route must serve with 16 clients. */
const TARGET = 2000;
/** The word every third element's text holds (not one of the bundle's own words). */
export const THIRD_TERM = "lighthouse";

const { values: args } = parseArgs({
  options: {
    trees: { type: "string", default: "current=." },
    count: { type: "string", default: "100000" },
    rounds: { type: "string", default: "3" },
    data: { type: "string" },
    routes: { type: "string", default: "all" },
    note: { type: "string", multiple: true, default: [] },
    ...benchArgOptions(1800),
  },
});
if (args.routes !== "all" && args.routes !== "search") throw new Error(`--routes: "${args.routes}" is not all or search`);
const options = {
  trees: benchTrees(args.trees),
  count: positive("count", args.count, 2_000_000),
  rounds: positive("rounds", args.rounds, 9),
  ...benchOptions({ ...args, connections: args.connections === "10" ? "16" : args.connections }),
};
const session = openBenchSession({ tempPrefix: "lineage-bench-search-throughput-", budget: options.budget, profileDir: options.profileDir });
const headers = { accept: "application/json", authorization: basicAuth(BENCH_LOGIN, BENCH_PASSWORD) };

const ROUTES = {
  list: { label: "list page of ten", path: "/api/v2/smart-elements/?slice=10" },
  search: { label: `search \`${THIRD_TERM}\`, first page of ten`, path: `/api/v2/fullsearch/domains/${MILLION_DOMAIN}/smart-elements/?slice=10&q=${THIRD_TERM}` },
} as const;
type Route = keyof typeof ROUTES;

/** The list page's figures when --routes search leaves it out (a profile of the search alone). */
const NOT_MEASURED: LoadResult = { requestsPerSecond: NaN, requests: 0, p50: NaN, p97_5: NaN, p99: NaN, max: NaN, bytesPerResponse: 0, non2xx: 0, errors: 0 };

interface Round {
  readonly load: string;
  readonly trees: Map<string, Record<Route, LoadResult>>;
}

/** The bundle: the million benchmark's elements, THIRD_TERM added to every third one's text. */
function writeBundle(file: string, count: number): void {
  const random = createRandom(0x1e6);
  const elements = Array.from({ length: count }, (_, i) => {
    const element = millionElement(i + 1, random);
    return (i + 1) % 3 === 0 ? { ...element, values: { ...element.values, mn_text: `${element.values.mn_text} ${THIRD_TERM}` } } : element;
  });
  writeFileSync(file, JSON.stringify({ ...millionHead(), elements }));
}

/** The environment of a tree's command: without the workspace's source condition, so that it runs its built dist/. */
function builtEnv(): NodeJS.ProcessEnv {
  const { NODE_OPTIONS: _sourceCondition, ...env } = process.env;
  return env;
}

const lineageArgs = (tree: string, argv: readonly string[]) => [join(tree, "packages/cli/bin/lineage.mjs"), ...argv];

/** `lineage serve` of a tree on a free port (its request log to /dev/null); resolves once a search answers 200. */
async function serve(tree: string, data: string): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const profile = options.profileDir ? ["--cpu-prof", `--cpu-prof-dir=${options.profileDir}`] : [];
  const child = session.adopt(spawn(process.execPath, [...profile, ...lineageArgs(tree, ["serve", "--data", data, "--port", String(port)])], {
    stdio: ["ignore", "ignore", "inherit"], env: builtEnv(),
  }));
  const url = `http://127.0.0.1:${port}`;
  await untilAnswering(child, `${url}${ROUTES.search.path}`, headers, 120_000, 250);
  return { child, url };
}

const loadAverage = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(", ");

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? NaN;
}

/** The data directory, imported with the first tree's `lineage import` unless --data names one already imported. */
function prepareData(): string {
  const data = args.data ? resolve(args.data) : join(session.tempDir, "data");
  const done = join(data, ".bench-search-throughput");
  if (existsSync(done) && readFileSync(done, "utf8") === String(options.count)) {
    console.log(`bench: reusing ${data} (${thousands(options.count)} elements)`);
    return data;
  }
  if (existsSync(data) && !existsSync(done) && args.data) throw new Error(`--data ${data} exists and was not written by this benchmark`);
  mkdirSync(data, { recursive: true });
  const bundle = join(session.tempDir, "bundle.json");
  writeBundle(bundle, options.count);
  const tree = options.trees[0]!.dir;
  console.log(`bench: lineage import of ${thousands(options.count)} elements (${tree})`);
  const started = performance.now();
  const imported = spawnSync(process.execPath, lineageArgs(tree, ["import", "--data", data, bundle]), { stdio: ["ignore", "ignore", "inherit"], env: builtEnv() });
  if (imported.status !== 0) throw new Error(`lineage import exited with ${imported.status}`);
  console.log(`bench:   imported in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  writeFileSync(done, String(options.count));
  return data;
}

async function main(): Promise<void> {
  for (const tree of options.trees) {
    if (!existsSync(join(tree.dir, "packages/cli/dist"))) throw new Error(`${tree.label}: ${tree.dir} is not built (pnpm build)`);
  }
  const data = prepareData();
  const rounds: Round[] = [];
  for (let round = 0; round < options.rounds; round++) {
    const load = loadAverage();
    const trees = new Map<string, Record<Route, LoadResult>>();
    const order = round % 2 === 0 ? options.trees : [...options.trees].reverse();
    for (const tree of order) {
      const server = await serve(tree.dir, data);
      try {
        console.log(`bench: round ${round + 1}, load ${load}: ${tree.label}: ${ROUTES.list.label}`);
        const list = args.routes === "all" ? await runLoad(`${server.url}${ROUTES.list.path}`, headers, options) : NOT_MEASURED;
        console.log(`bench: round ${round + 1}: ${tree.label}: ${ROUTES.search.label}`);
        const search = await runLoad(`${server.url}${ROUTES.search.path}`, headers, options);
        trees.set(tree.label, { list, search });
      } finally {
        await stopChild(server.child);
      }
    }
    rounds.push({ load, trees });
  }
  publishSection(renderSection(rounds, loadAverage()), { heading: SECTION, write: options.writeDocs });
  checkLoads(rounds.flatMap((r) => [...r.trees.values()].flatMap((t) => [t.list, t.search])));
}

function renderSection(rounds: readonly Round[], endLoad: string): string {
  const labels = options.trees.map((t) => t.label);
  const results = (label: string, route: Route) => rounds.map((r) => r.trees.get(label)?.[route]).filter((x): x is LoadResult => x !== undefined);
  const ratio = (label: string) => median(rounds.map((r) => {
    const figures = r.trees.get(label);
    return figures ? figures.search.requestsPerSecond / figures.list.requestsPerSecond : NaN;
  }));
  const cell = (label: string, route: Route) => {
    const xs = results(label, route);
    return `${thousands(median(xs.map((x) => x.requestsPerSecond)))} req/s, p50 ${ms(median(xs.map((x) => x.p50)))} ms, p99 ${ms(median(xs.map((x) => x.p99)))} ms`;
  };
  const flags = [
    args.trees === "current=." ? "" : `--trees ${options.trees.map((t) => `${t.label}=${t.dir}`).join(",")}`,
    options.count === 100_000 ? "" : `--count ${options.count}`,
    options.rounds === 3 ? "" : `--rounds ${options.rounds}`,
    options.connections === 16 ? "" : `--connections ${options.connections}`,
    args.routes === "all" ? "" : `--routes ${args.routes}`,
    ...changedLoadArgs({ ...options, connections: 10 }),
  ].filter(Boolean).join(" ");
  const last = labels[labels.length - 1] ?? "";
  const lastRate = median(results(last, "search").map((x) => x.requestsPerSecond));
  return [
    SECTION,
    "",
    `Run on ${new Date().toISOString().slice(0, 10)}: \`pnpm bench:search-throughput${flags ? ` ${flags}` : ""}\` (${thousands(options.count)} elements imported in bulk by \`lineage import\`, ` +
      `a title of 3 to 6 words and a text of 20 to 40 each, one search domain over both, \`${THIRD_TERM}\` in every third element's text; ` +
      `${options.connections} clients over loopback, ${options.warmup} s warm-up then ${options.duration} s per load, the list page first, then the search; ` +
      `each tree's own built \`lineage serve\` on SQLite, its request log on (to /dev/null); figures are the medians of ${options.rounds} rounds, the trees in alternating order).`,
    "",
    `${machineLine()} autocannon runs in the benchmark's own process, on the same cores as the server. ` +
      `Load average (1, 5, 15 min, \`uptime\`) at the start of each round: ${rounds.map((r) => r.load).join("; ")}; at the end: ${endLoad}.`,
    "",
    ...args.note.flatMap((line) => [`- ${line}`, ""]),
    `| checkout | ${ROUTES.list.label} | ${ROUTES.search.label} | search against the list page |`,
    "|---|---|---|---|",
    ...labels.map((label) => `| ${label} | ${cell(label, "list")} | ${cell(label, "search")} | ${ratio(label).toFixed(2)} |`),
    "",
    `| round | ${labels.flatMap((l) => [`${l}: list req/s`, `${l}: search req/s`]).join(" | ")} |`,
    `|---|${labels.map(() => "---|---|").join("")}`,
    ...rounds.map((r, i) => `| ${i + 1} | ${labels.flatMap((l) => {
      const figures = r.trees.get(l);
      return [thousands(figures?.list.requestsPerSecond ?? NaN), thousands(figures?.search.requestsPerSecond ?? NaN)];
    }).join(" | ")} |`),
    "",
    `- Target: at least ${thousands(TARGET)} searches per second with ${options.connections} clients (${last}): ${thousands(lastRate)}, ${mark(lastRate >= TARGET)}.`,
    LATENCY_NOTE,
  ].join("\n");
}

await session.run(main);
