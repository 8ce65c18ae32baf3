import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { openSqliteStore } from "../packages/adapter-sqlite/src/index.ts";
import { openPostgresStore } from "../packages/adapter-postgres/src/index.ts";
import { createHttpApp } from "../packages/adapter-http/src/index.ts";
import { createPlatform, type Store } from "../packages/core/src/index.ts";
import { positive } from "./bench-options.ts";
import { machineLine, mark, ms, publishSection, thousands } from "./benchmarks-doc.ts";
import { FLT_KEPT_DATABASE, seedFltSqlite, withFltPostgres, type SeedSeconds } from "./flt-million.ts";
import { medianTime } from "./median-time.ts";

/*
 * The console's list page at 1,000,000 elements, by `pnpm bench:console-list`, on SQLite and on
 * PostgreSQL: the structure FLT seeded as `pnpm bench:filters` seeds it (bench/flt-million.ts),
 * a person with the structure's view right logged in through the login form, then GET of
 * /console/elements?structure=FLT with 25 rows and 5 columns (title, state, modified, and the
 * fields f_enum and f_date), without a filter and with one (state = published, 50 % of the elements),
 * the first page and page 401 (offset 10,000), each timed on the server: the request given to the
 * Hono app in the process (no socket), until the whole page is read. Options: --count N
 * (1000000), --runs N (9), --store sqlite|postgres|both, --url URL (an existing PostgreSQL server
 * whose user may create databases), --no-docs, --keep DIR (seed into DIR once and keep it: a later
 * run with the same DIR and count, of this benchmark or of `pnpm bench:filters`, measures at once).
 */

const SECTION = "## The console's list page at 1,000,000 elements";
const TARGET_MS = 50;
const OFFSET = 10_000;
const ROWS = 25;
const LOGIN = "console-reader";
const PASSWORD = "console-reader-pw";

const { values: args } = parseArgs({
  options: {
    count: { type: "string", default: "1000000" }, runs: { type: "string", default: "9" },
    store: { type: "string", default: "both" }, url: { type: "string" }, "no-docs": { type: "boolean", default: false },
    keep: { type: "string" },
  },
});
const count = positive("count", args.count, 5_000_000);
const runs = positive("runs", args.runs, 100);
if (!["sqlite", "postgres", "both"].includes(args.store)) throw new Error(`--store takes sqlite, postgres or both, not "${args.store}"`);

interface Case {
  readonly label: string;
  readonly path: string;
}

const COLUMNS = "columns=f_enum&columns=f_date";
const FILTER = `filter=${encodeURIComponent(JSON.stringify({ field: "state", operator: "eq", value: "published" }))}`;
const CASES: readonly Case[] = [
  { label: "no filter, first page", path: `/console/elements?structure=FLT&${COLUMNS}` },
  { label: `no filter, page ${OFFSET / ROWS + 1}`, path: `/console/elements?structure=FLT&${COLUMNS}&offset=${OFFSET}` },
  { label: "state = published (50 %), first page", path: `/console/elements?structure=FLT&${COLUMNS}&${FILTER}` },
  { label: `state = published (50 %), page ${OFFSET / ROWS + 1}`, path: `/console/elements?structure=FLT&${COLUMNS}&${FILTER}&offset=${OFFSET}` },
];

/** The console's reader, added once to a seed (a kept one is shared with `pnpm bench:filters`). */
async function addReader(store: Store): Promise<void> {
  if (await store.accounts.byLogin(LOGIN)) return;
  await createPlatform({ store }).accounts.add({ login: LOGIN, password: PASSWORD, roles: ["r_FLT"], locale: "en" });
}

const cookiesOf = (response: Response) => response.headers.getSetCookie().map((cookie) => cookie.split(";")[0]!);

/** The console's app over `store`, and the cookie of a session of the reader's, logged in through the form. */
async function consoleSession(store: Store) {
  const app = createHttpApp({ platform: createPlatform({ store }), onUnexpectedError: (error) => { throw error; } });
  const form = await app.request("/login?return=/console/");
  const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? "";
  const posted = await app.request("/login", {
    method: "POST",
    headers: { cookie: cookiesOf(form).join("; "), "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ login: LOGIN, password: PASSWORD, csrf, return: "/console/" }).toString(),
  });
  const cookie = cookiesOf(posted).join("; ");
  if (posted.status !== 303 && posted.status !== 302) throw new Error(`bench: the login answered ${posted.status}`);
  return { app, cookie };
}

interface Figure {
  readonly c: Case;
  readonly ms: number;
  readonly bytes: number;
}
interface StoreFigures {
  readonly name: string;
  readonly seconds: SeedSeconds;
  readonly figures: Figure[];
}

async function measure(store: Store): Promise<Figure[]> {
  const { app, cookie } = await consoleSession(store);
  const figures: Figure[] = [];
  for (const c of CASES) {
    let bytes = 0;
    const time = await medianTime(async () => {
      const answer = await app.request(c.path, { headers: { cookie, accept: "text/html" } });
      const page = await answer.text();
      if (answer.status !== 200) throw new Error(`bench: ${c.path} answered ${answer.status}: ${page.slice(0, 300)}`);
      const rows = page.split("<tr>").length - 2;
      if (rows !== ROWS) throw new Error(`bench: ${c.path} showed ${rows} rows, not ${ROWS}`);
      bytes = page.length;
    }, runs);
    figures.push({ c, ms: time, bytes });
    console.log(`bench: ${c.label.padEnd(40)} ${ms(time).padStart(8)} ms (${thousands(bytes)} characters)`);
  }
  return figures;
}

async function runSqlite(tempDir: string): Promise<StoreFigures> {
  const dataDir = join(tempDir, "sqlite");
  const seconds = await seedFltSqlite(dataDir, count, undefined, args.keep !== undefined);
  const store = openSqliteStore({ dataDir });
  try {
    await addReader(store);
    return { name: "SQLite", seconds, figures: await measure(store) };
  } finally {
    await store.close();
  }
}

function runPostgres(tempDir: string): Promise<StoreFigures> {
  return withFltPostgres({ tempDir, base: args.url, database: args.keep ? FLT_KEPT_DATABASE : `lineage_bench_console_${process.pid}`, count,
    keep: args.keep !== undefined }, async (url, seconds) => {
    const store = await openPostgresStore({ url });
    try {
      await addReader(store);
      return { name: "PostgreSQL", seconds, figures: await measure(store) };
    } finally {
      await store.close();
    }
  });
}

function section(stores: StoreFigures[], started: Date, loads: number[]): string {
  const lines = [
    SECTION,
    "",
    `Run on ${started.toISOString().slice(0, 10)}: \`pnpm bench:console-list\` (${thousands(count)} live elements of one structure, seeded as ` +
      `\`pnpm bench:filters\` seeds them; each figure the median of ${runs} runs after one warm-up; one request at a time, given to the HTTP app ` +
      `in the process, no socket: the session checked, the list read with its total, ${ROWS} rows of 5 columns rendered, the filter bar, the ` +
      "saved views and folders beside it, the whole page read).",
    "",
    `${machineLine()} Load average (1 min) at the start and the end of the run: ${loads.map((l) => l.toFixed(1)).join(" and ")}.`,
    "",
    `Seeded by bulk SQL with the indexes dropped, then indexed: ${stores.map((s) => `${s.name} ${s.seconds.seed.toFixed(0)} s + ${s.seconds.indexes.toFixed(0)} s`).join(", ")}.`,
    "",
    `Target: ≤ ${TARGET_MS} ms on the server for a page of ${ROWS} rows and 5 columns (title, state, modified, f_enum, f_date), ordered by title.`,
    "",
    `| Page | ${stores.map((s) => `${s.name} ms`).join(" | ")} | Status |`,
    `|---|${stores.map(() => "---|").join("")}---|`,
  ];
  for (const [i, { c }] of stores[0]!.figures.entries()) {
    const times = stores.map((s) => s.figures[i]!.ms);
    lines.push(`| ${c.label} | ${times.map(ms).join(" | ")} | ${mark(times.every((t) => t <= TARGET_MS))} |`);
  }
  return lines.join("\n");
}

async function main(): Promise<void> {
  const started = new Date();
  const loads = [loadavg()[0]!];
  const tempDir = args.keep ? join(args.keep, `count-${count}`) : mkdtempSync(join(tmpdir(), "lineage-bench-console-"));
  mkdirSync(tempDir, { recursive: true });
  try {
    const stores: StoreFigures[] = [];
    if (args.store !== "postgres") stores.push(await runSqlite(tempDir));
    if (args.store !== "sqlite") stores.push(await runPostgres(tempDir));
    loads.push(loadavg()[0]!);
    publishSection(section(stores, started, loads), { heading: SECTION, write: !args["no-docs"] });
  } finally {
    if (!args.keep) rmSync(tempDir, { recursive: true, force: true });
  }
}

await main();
