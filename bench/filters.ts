import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { startPostgresServer, type PostgresServer } from "@lineage/postgres-server";
import { openSqliteStore } from "../packages/adapter-sqlite/src/index.ts";
import { openPostgresStore } from "../packages/adapter-postgres/src/index.ts";
import { createPlatform, systemPrincipal, type FilterInput, type Platform, type Principal, type Store } from "../packages/core/src/index.ts";
import { positive } from "./bench-options.ts";
import { medianTime } from "./median-time.ts";
import { machineLine, mark, ms, publishSection, thousands } from "./benchmarks-doc.ts";

/*
 * List filters at 1,000,000 elements, by `pnpm bench:filters`, on SQLite and on PostgreSQL, one
 * request at a time, through the list use case at the node (the filter parsed, rights, the store's
 * page, ten documents rendered):
 *  1. makes the structure FLT (a text, an enum, a date, a long text), a profile and two readers: one
 *     with every right (the system principal), one who may view one element in ten (a profile of
 *     their own on those, as lists' rights per element are benchmarked elsewhere);
 *  2. seeds N elements by bulk SQL with the store's indexes dropped, then makes them again (as an
 *     import of that size would leave them), and analyzes;
 *  3. for conditions that keep 50 %, 1 % and 0.01 % of the elements (equality on the state, on the
 *     enum field; a date range; `and` of the state and the enum), each with several orders, times
 *     the first page and the page at offset 10,000; then count=1 of the 50 % conditions; then the
 *     cases that may scan (`contains` on the long text, `or` across fields), documented as limits;
 *  4. writes the section "## List filters at 1,000,000 elements" of docs/benchmarks.md.
 * Options: --count N (1000000), --runs N (5), --store sqlite|postgres|both, --url URL (an existing
 * PostgreSQL server whose user may create databases), --no-docs, --keep DIR (seed into DIR once and keep it:
 * a later run with the same DIR and count opens the stores seeded before, migrating them to the code's schema, and
 * measures at once; seeding and indexing take minutes), --match TEXT (only the cases whose label, or "count=1",
 * holds TEXT: to study a few).
 */

interface SqliteDatabase {
  prepare(sql: string): { all(...params: unknown[]): unknown[] };
  exec(sql: string): void;
  pragma(sql: string): unknown;
  transaction(fn: () => void): () => void;
  close(): void;
}
const Database = createRequire(new URL("../packages/adapter-sqlite/package.json", import.meta.url))("better-sqlite3") as new (file: string) => SqliteDatabase;

const SECTION = "## List filters at 1,000,000 elements";
const TARGET_FIRST_MS = 20;
const TARGET_OFFSET_MS = 50;
const TARGET_COUNT_MS = 250;
const OFFSET = 10_000;
const ROW_PROFILE = "PRF_FLT_ROW";

const { values: args } = parseArgs({
  options: {
    count: { type: "string", default: "1000000" }, runs: { type: "string", default: "5" },
    store: { type: "string", default: "both" }, url: { type: "string" }, "no-docs": { type: "boolean", default: false },
    keep: { type: "string" }, match: { type: "string" },
  },
});
const count = positive("count", args.count, 5_000_000);
const runs = positive("runs", args.runs, 100);
if (!["sqlite", "postgres", "both"].includes(args.store)) throw new Error(`--store takes sqlite, postgres or both, not "${args.store}"`);

// ---- the data --------------------------------------------------------------------------------------------

async function saveDefinitions(store: Store): Promise<void> {
  await store.transaction(async (tx) => {
    await tx.catalog.saveEnumerate({ name: "FLT_ENUM", items: ["half", "one", "rare", "other"].map((key) => ({ key, label: key })) });
    await tx.accounts.saveRole({ id: "r_FLT" });
    await tx.accounts.saveRole({ id: "r_ROW" });
    await tx.catalog.saveProfile({ name: "PRF_FLT", grants: { view: ["role:r_FLT"] } });
    await tx.catalog.saveProfile({ name: ROW_PROFILE, grants: { view: ["role:r_ROW"] } });
    await tx.catalog.saveStructure({
      name: "FLT", profile: "PRF_FLT", titleField: "f_title",
      fields: [
        { id: "f_title", type: "text" }, { id: "f_enum", type: "enum", enum: "FLT_ENUM" }, { id: "f_date", type: "date" }, { id: "f_body", type: "longtext" },
      ],
    });
  });
  await createPlatform({ store }).accounts.add({ login: "readerRow", password: "reader-pw", roles: ["r_ROW"] });
}

/**
 * Element i (1..N) as SQL over `i`: the state and the enum keep 0.01 % (i % 10,000 = 5), 1 %
 * (i % 100 = 15) and about 50 % (the other odd i) of the elements on one value each; the date is
 * day i % 10,000 from 2000-01-01, so a range of days keeps as much as it spans; one element in ten
 * (i % 10 = 5, among them every rare and 1 % one) is under a profile of its own, the one the
 * second reader may view: each share holds elements of theirs.
 */
function rowSql(dialect: "sqlite" | "pg") {
  const text = (expression: string) => (dialect === "pg" ? `(${expression})::text` : `(${expression})`);
  const pad = (expression: string) => (dialect === "pg" ? `lpad(${text(expression)}, 7, '0')` : `printf('%07d', ${expression})`);
  const stamp = (seconds: string) => dialect === "pg"
    ? `to_char(timestamp '2024-01-01' + (${seconds}) * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
    : `strftime('%Y-%m-%dT%H:%M:%fZ', 1704067200 + (${seconds}), 'unixepoch')`;
  const json = dialect === "pg" ? "json_build_object" : "json_object";
  const day = dialect === "pg" ? `to_char(date '2000-01-01' + (i % 10000)::int, 'YYYY-MM-DD')` : `date('2000-01-01', '+' || (i % 10000) || ' days')`;
  const pick = (half: string, one: string, rare: string, other: string) =>
    `case when i % 10000 = 5 then '${rare}' when i % 100 = 15 then '${one}' when i % 2 = 1 then '${half}' else '${other}' end`;
  return {
    title: `'Title ' || ${pad("(i * 7919) % 1000003")}`,
    state: pick("published", "review", "blocked", "draft"),
    created: stamp("i * 0.05"),
    modified: stamp("(i / 16) * 0.8"),
    profile: `case when i % 10 = 5 then '${ROW_PROFILE}' end`,
    values: `${json}('f_title', 'Title ' || ${pad("(i * 7919) % 1000003")}, 'f_enum', ${pick("half", "one", "rare", "other")}, 'f_date', ${day},
      'f_body', 'Lorem ipsum dolor sit amet ' || ${text("i")} || ' consectetur adipiscing elit')`,
  };
}

function bulkInsertSql(dialect: "sqlite" | "pg", from: number, to: number): string {
  const r = rowSql(dialect);
  const series = dialect === "pg" ? `generate_series(${from}::bigint, ${to}) as n(i)`
    : `(with recursive s(i) as (select ${from} union all select i + 1 from s where i < ${to}) select i from s) as n`;
  return `insert into elements (id, initid, revision, structure, structure_id, name, title, owner, status, fixed, state, "values", created_at, modified_at, import_key, profile)
    select i, i, 0, 'FLT', (select id from structures where name = 'FLT'), null, ${r.title}, 1, 'alive', ${dialect === "pg" ? "false" : "0"}, ${r.state},
    ${r.values}, ${r.created}, ${r.modified}, null, ${r.profile} from ${series}`;
}

// ---- the cases -------------------------------------------------------------------------------------------

type Share = "50 %" | "1 %" | "0.01 %";
const SHARES: readonly Share[] = ["50 %", "1 %", "0.01 %"];
const STATE: Record<Share, string> = { "50 %": "published", "1 %": "review", "0.01 %": "blocked" };
const ENUM: Record<Share, string> = { "50 %": "half", "1 %": "one", "0.01 %": "rare" };
/** Days of 10,000 that keep each share: [from, to). */
const DAYS: Record<Share, [number, number]> = { "50 %": [5000, 10000], "1 %": [2000, 2100], "0.01 %": [7775, 7776] };
const dayText = (day: number) => new Date(Date.UTC(2000, 0, 1 + day)).toISOString().slice(0, 10);

interface Case {
  readonly label: string;
  readonly filter: FilterInput;
  readonly orderBy: string;
  /** Held to the targets, or a figure of a documented limit. */
  readonly target: boolean;
}

function cases(): Case[] {
  const list: Case[] = [];
  for (const share of SHARES) {
    const state = { field: "state", operator: "eq", value: STATE[share] } as const;
    const category = { field: "f_enum", operator: "eq", value: ENUM[share] } as const;
    const [from, to] = DAYS[share];
    const range: FilterInput = { logic: "and", filters: [{ field: "f_date", operator: "gte", value: dayText(from) }, { field: "f_date", operator: "lt", value: dayText(to) }] };
    for (const orderBy of ["title:asc", "mdate:desc", "f_date:asc", "initid:desc"]) {
      list.push({ label: `state = ${STATE[share]} (${share}), ${orderBy}`, filter: state, orderBy, target: true });
      list.push({ label: `f_enum = ${ENUM[share]} (${share}), ${orderBy}`, filter: category, orderBy, target: true });
    }
    for (const orderBy of ["f_date:asc", "f_date:desc"]) list.push({ label: `f_date in ${share} of the days, ${orderBy}`, filter: range, orderBy, target: true });
    // Both conditions keep the same elements (the seed gives the same i the same state and key): the `and` keeps the share.
    for (const orderBy of ["title:asc", "mdate:desc"]) {
      list.push({ label: `state and f_enum (${share}), ${orderBy}`, filter: { logic: "and", filters: [state, category] }, orderBy, target: true });
    }
  }
  list.push({ label: "f_body contains \"ipsum dolor sit amet 12345 \", title:asc", filter: { field: "f_body", operator: "contains", value: "ipsum dolor sit amet 12345 " }, orderBy: "title:asc", target: false });
  list.push({ label: "title contains \"0001\", title:asc", filter: { field: "title", operator: "contains", value: "0001" }, orderBy: "title:asc", target: false });
  list.push({
    label: "state = blocked or f_date = 2013-09-10, title:asc", orderBy: "title:asc", target: false,
    filter: { logic: "or", filters: [{ field: "state", operator: "eq", value: "blocked" }, { field: "f_date", operator: "eq", value: dayText(5000) }] },
  });
  return list;
}

/** The median of `times` runs after a warm-up (medianTime), `--runs` by default. */
const median = (run: () => Promise<unknown> | unknown, times = runs): Promise<number> => medianTime(run, times);

interface Timing {
  readonly first: number;
  readonly offset: number;
}
interface Reader {
  readonly name: string;
  readonly principal: Principal;
}
interface StoreFigures {
  readonly name: string;
  readonly seconds: { seed: number; indexes: number };
  readonly pages: { c: Case; reader: string; timing: Timing }[];
  readonly counts: { label: string; reader: string; ms: number; total: number }[];
}

async function measure(store: Store): Promise<Pick<StoreFigures, "pages" | "counts">> {
  const platform: Platform = createPlatform({ store });
  const readers: Reader[] = [
    { name: "every right", principal: systemPrincipal() },
    { name: "one in ten", principal: (await platform.accounts.principal("readerRow"))! },
  ];
  const page = (reader: Reader, c: Case, offset: number) =>
    platform.elements.list(reader.principal, { family: "FLT", filter: c.filter, orderBy: c.orderBy, slice: "10", offset: String(offset) });
  const pages: StoreFigures["pages"] = [];
  for (const reader of readers) {
    for (const c of cases().filter((c) => !args.match || c.label.includes(args.match))) {
      const times = c.target ? runs : 1;
      const timing = { first: await median(() => page(reader, c, 0), times), offset: await median(() => page(reader, c, OFFSET), times) };
      pages.push({ c, reader: reader.name, timing });
      console.log(`bench: ${reader.name.padEnd(12)} ${c.label.padEnd(56)} ${ms(timing.first).padStart(8)} ${ms(timing.offset).padStart(8)} ms`);
    }
  }
  const counts: StoreFigures["counts"] = [];
  for (const reader of args.match && !"count=1".includes(args.match) ? [] : readers) {
    for (const [label, filter] of [
      ["state = published (50 %)", { field: "state", operator: "eq", value: "published" }],
      ["f_enum = half (50 %)", { field: "f_enum", operator: "eq", value: "half" }],
    ] as const) {
      let total = 0;
      const time = await median(async () => {
        total = Number((await platform.elements.list(reader.principal, { family: "FLT", filter, slice: "1", count: true })).requestParameters.total);
      });
      counts.push({ label, reader: reader.name, ms: time, total });
      console.log(`bench: ${reader.name.padEnd(12)} count=1 ${label.padEnd(48)} ${ms(time).padStart(8)} ms (${total})`);
    }
  }
  return { pages, counts };
}

// ---- the stores ------------------------------------------------------------------------------------------

async function runSqlite(tempDir: string): Promise<StoreFigures> {
  const dataDir = join(tempDir, "sqlite");
  if (args.keep && existsSync(join(dataDir, "seeded"))) {
    const seconds = JSON.parse(readFileSync(join(dataDir, "seeded"), "utf8")) as StoreFigures["seconds"];
    console.log(`bench: sqlite: the ${thousands(count)} elements seeded before in ${dataDir}`);
    return measureSqlite(dataDir, seconds);
  }
  const store = openSqliteStore({ dataDir });
  await saveDefinitions(store);
  await store.close();
  const db = new Database(join(dataDir, "lineage.sqlite"));
  db.pragma("journal_mode = WAL");
  const indexes = db.prepare("select name, sql from sqlite_master where type = 'index' and tbl_name = 'elements' and sql is not null").all() as { name: string; sql: string }[];
  for (const { name } of indexes) db.exec(`drop index "${name}"`);
  let started = performance.now();
  db.transaction(() => {
    for (let from = 1; from <= count; from += 100_000) db.exec(bulkInsertSql("sqlite", from, Math.min(count, from + 99_999)));
  })();
  const seed = (performance.now() - started) / 1000;
  started = performance.now();
  for (const { sql } of indexes) db.exec(sql);
  db.exec("analyze");
  const built = (performance.now() - started) / 1000;
  db.close();
  console.log(`bench: sqlite: ${thousands(count)} elements seeded in ${seed.toFixed(0)} s, indexes in ${built.toFixed(0)} s`);
  if (args.keep) writeFileSync(join(dataDir, "seeded"), JSON.stringify({ seed, indexes: built }));
  return measureSqlite(dataDir, { seed, indexes: built });
}

async function measureSqlite(dataDir: string, seconds: StoreFigures["seconds"]): Promise<StoreFigures> {
  const opened = openSqliteStore({ dataDir });
  try {
    return { name: "SQLite", seconds, ...(await measure(opened)) };
  } finally {
    await opened.close();
  }
}

async function runPostgres(tempDir: string): Promise<StoreFigures> {
  let server: PostgresServer | undefined;
  let base = args.url;
  if (!base) {
    chmodSync(tempDir, 0o755);
    server = await startPostgresServer({ dir: join(tempDir, "postgres"), port: 0 });
    base = server.url;
  }
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  const database = args.keep ? "lineage_bench_filters_kept" : `lineage_bench_filters_${process.pid}`;
  const url = new URL(base);
  url.pathname = `/${database}`;
  const kept = args.keep && existsSync(join(tempDir, "postgres-seeded"));
  if (!kept) {
    await admin.query(`drop database if exists ${database} with (force)`);
    await admin.query(`create database ${database}`);
  }
  try {
    if (kept) {
      const seconds = JSON.parse(readFileSync(join(tempDir, "postgres-seeded"), "utf8")) as StoreFigures["seconds"];
      console.log(`bench: postgres: the ${thousands(count)} elements seeded before in ${database}`);
      return await measurePostgres(url.toString(), seconds);
    }
    const store = await openPostgresStore({ url: url.toString() });
    await saveDefinitions(store);
    await store.close();
    const db = new pg.Client({ connectionString: url.toString() });
    await db.connect();
    let seed = 0;
    let built = 0;
    try {
      const { rows: indexes } = await db.query<{ name: string; sql: string }>(
        `select indexname as name, indexdef as sql from pg_indexes where tablename in ('elements', 'element_sort_keys')
         and indexname not in (select conname from pg_constraint)`,
      );
      for (const { name } of indexes) await db.query(`drop index "${name}"`);
      await db.query("alter table elements disable trigger elements_sort_keys");
      let started = performance.now();
      for (let from = 1; from <= count; from += 100_000) await db.query(bulkInsertSql("pg", from, Math.min(count, from + 99_999)));
      await db.query("select setval(pg_get_serial_sequence('elements', 'id'), (select max(id) from elements))");
      seed = (performance.now() - started) / 1000;
      started = performance.now();
      await db.query(`insert into element_sort_keys (element_id, structure, field, status, rank, num, txt, profile, owner, state)
        select e.id, e.structure, f.field, e.status, k.rank, k.num, k.txt, e.profile, e.owner, e.state
        from elements e join structures s on s.name = e.structure cross join unnest(s.sort_fields) as f(field)
        cross join lateral lineage_sort_key(e."values", f.field) as k where not e.fixed`);
      for (const { sql } of indexes) await db.query(sql);
      await db.query("alter table elements enable trigger elements_sort_keys");
      await db.query("vacuum analyze");
      built = (performance.now() - started) / 1000;
    } finally {
      await db.end();
    }
    console.log(`bench: postgres: ${thousands(count)} elements seeded in ${seed.toFixed(0)} s, indexes and sort keys in ${built.toFixed(0)} s`);
    if (args.keep) writeFileSync(join(tempDir, "postgres-seeded"), JSON.stringify({ seed, indexes: built }));
    return await measurePostgres(url.toString(), { seed, indexes: built });
  } finally {
    if (!args.keep) await admin.query(`drop database if exists ${database} with (force)`);
    await admin.end();
    await server?.stop();
  }
}

async function measurePostgres(url: string, seconds: StoreFigures["seconds"]): Promise<StoreFigures> {
  const opened = await openPostgresStore({ url });
  try {
    return { name: "PostgreSQL", seconds, ...(await measure(opened)) };
  } finally {
    await opened.close();
  }
}

// ---- the section -----------------------------------------------------------------------------------------

const met = (t: Timing) => t.first <= TARGET_FIRST_MS && t.offset <= TARGET_OFFSET_MS;

function section(figures: StoreFigures[], started: Date, loads: number[]): string {
  const lines = [
    SECTION,
    "",
    `Run on ${started.toISOString().slice(0, 10)}: \`pnpm bench:filters\` (${thousands(count)} live elements of one structure; ` +
      `each figure the median of ${runs} runs after one warm-up, or the warm-up alone when it took over a second; one request at a time, ` +
      "through the list use case at the node: the filter parsed and checked, rights, the store's page, ten documents rendered).",
    "",
    `${machineLine()} Load average (1 min) at the start and the end of the run: ${loads.map((l) => l.toFixed(1)).join(" and ")}.`,
    "",
    `Seeded by bulk SQL with the indexes dropped, then indexed: ${figures.map((f) => `${f.name} ${f.seconds.seed.toFixed(0)} s + ${f.seconds.indexes.toFixed(0)} s`).join(", ")}.`,
    "",
    `Targets: first page ≤ ${TARGET_FIRST_MS} ms and the page at offset ${thousands(OFFSET)} ≤ ${TARGET_OFFSET_MS} ms (empty when fewer match); ` +
      `count=1 of a condition keeping 50 % ≤ ${TARGET_COUNT_MS} ms. "Reader of one in ten" may view one element in ten (a profile of their own): ` +
      "their rights are checked on the index path too. Rows marked \"limit\" are the documented costs of docs/limits.md, not held to targets.",
    "",
    `| Filter, order | Reader | ${figures.map((f) => `${f.name} first ms | offset ms`).join(" | ")} | Status |`,
    `|---|---|${figures.map(() => "---|---|").join("")}---|`,
  ];
  const rows = figures[0]!.pages;
  for (const [i, { c, reader }] of rows.entries()) {
    const timings = figures.map((f) => f.pages[i]!.timing);
    lines.push(`| ${c.label} | ${reader} | ${timings.map((t) => `${ms(t.first)} | ${ms(t.offset)}`).join(" | ")} | ${c.target ? mark(timings.every(met)) : "limit"} |`);
  }
  lines.push("", `| count=1 | Reader | ${figures.map((f) => `${f.name} ms`).join(" | ")} | Status |`, `|---|---|${figures.map(() => "---|").join("")}---|`);
  for (const [i, counted] of figures[0]!.counts.entries()) {
    const times = figures.map((f) => f.counts[i]!.ms);
    lines.push(`| ${counted.label} (${thousands(counted.total)}) | ${counted.reader} | ${times.map(ms).join(" | ")} | ${mark(times.every((t) => t <= TARGET_COUNT_MS))} |`);
  }
  const held = rows.map((row, i) => ({ row, i })).filter(({ row }) => row.c.target);
  const missed = held.filter(({ i }) => figures.some((f) => !met(f.pages[i]!.timing)));
  lines.push("", `Targets: ${held.length - missed.length} of ${held.length} filtered pages met on ${figures.map((f) => f.name).join(" and ")}.`);
  return lines.join("\n");
}

async function main(): Promise<void> {
  const started = new Date();
  const loads = [loadavg()[0]!];
  const tempDir = args.keep ? join(args.keep, `count-${count}`) : mkdtempSync(join(tmpdir(), "lineage-bench-filters-"));
  mkdirSync(tempDir, { recursive: true });
  try {
    const figures: StoreFigures[] = [];
    if (args.store !== "postgres") figures.push(await runSqlite(tempDir));
    if (args.store !== "sqlite") figures.push(await runPostgres(tempDir));
    loads.push(loadavg()[0]!);
    publishSection(section(figures, started, loads), { heading: SECTION, write: !args["no-docs"] });
  } finally {
    if (!args.keep) rmSync(tempDir, { recursive: true, force: true });
  }
}

await main();
