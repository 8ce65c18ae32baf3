import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { startPostgresServer, type PostgresServer } from "@lineage/postgres-server";
import { openSqliteStore } from "../packages/adapter-sqlite/src/index.ts";
import { openPostgresStore } from "../packages/adapter-postgres/src/index.ts";
import {
  createPlatform, SORTABLE_PROPERTIES, systemPrincipal, type OrderTerm, type Platform, type Principal, type SmartField, type Store,
} from "../packages/core/src/index.ts";
import { positive } from "./bench-options.ts";
import { medianTime } from "./median-time.ts";
import { machineLine, mark, ms, publishSection, thousands } from "./benchmarks-doc.ts";

/*
 * Every list order at 1,000,000 elements (issue 18, items 1 and 2), by `pnpm bench:list-orders`, on
 * SQLite and on PostgreSQL, one request at a time:
 *  1. makes the structures (PERF with seven fields, PERF1..PERF9 with one), a profile per structure and
 *     two readers (one may view PERF3 only, one structure of ten; the other PERF1 to PERF3), then N
 *     live elements (90 % PERF, 10 % the others), N/10 older fixed revisions and 1 % of the lineages
 *     in the trash, by bulk SQL, with the list indexes as they were before issue 18; one element in ten
 *     (of PERF) is under a profile of its own, which a third reader alone may view (rights per element);
 *  2. "before": the requests of issue 18's table with the statement of the code before it;
 *  3. the write cost: inserts of new revisions (the repository's statement, 1,000 per transaction),
 *     with the indexes of before, then with those of now (and, on PostgreSQL, the sort-key trigger);
 *  4. makes the indexes of now (timed; on PostgreSQL the sort keys too), then "after": the list use
 *     case (rights, the store's page, ten documents rendered) for each sortable property ascending
 *     and descending, alone and followed by another key, for the whole collection and for PERF, for
 *     each field of PERF, and for the two readers: the first page, the page at offset 10,000 and
 *     the last page, each the median of --runs runs after one warm-up;
 *  5. writes the section "## List orders at 1,000,000 elements" of docs/benchmarks.md.
 * Options: --count N (1000000), --runs N (5), --store sqlite|postgres|both, --url URL (an existing
 * PostgreSQL server whose user may create databases), --no-docs.
 */

/** What the benchmark uses of better-sqlite3 (the SQLite adapter's driver, which seeds its file directly). */
interface SqliteStatement {
  run(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  get(...params: unknown[]): unknown;
  pluck(): SqliteStatement;
  raw(): SqliteStatement;
}
interface SqliteDatabase {
  prepare(sql: string): SqliteStatement;
  exec(sql: string): void;
  pragma(sql: string): unknown;
  transaction(fn: () => void): () => void;
  close(): void;
}
const Database = createRequire(new URL("../packages/adapter-sqlite/package.json", import.meta.url))("better-sqlite3") as new (file: string) => SqliteDatabase;

// Docs name no issue (packages/cli/test/docs.test.ts): the heading and text say "before the list indexes".
const SECTION = "## List orders at 1,000,000 elements";
const TARGET_PAGE_MS = 20;
const TARGET_DEEPEST_MS = 250;
const OFFSET = 10_000;
const WRITE_ROWS = 20_000;

const { values: args } = parseArgs({
  options: {
    count: { type: "string", default: "1000000" }, runs: { type: "string", default: "5" },
    store: { type: "string", default: "both" }, url: { type: "string" }, "no-docs": { type: "boolean", default: false },
  },
});
const count = positive("count", args.count, 5_000_000);
const runs = positive("runs", args.runs, 100);
if (!["sqlite", "postgres", "both"].includes(args.store)) throw new Error(`--store takes sqlite, postgres or both, not "${args.store}"`);

// ---- the data --------------------------------------------------------------------------------------------

const PERF_FIELDS: SmartField[] = [
  { id: "p_title", type: "text" }, { id: "p_text", type: "text" }, { id: "p_int", type: "int" }, { id: "p_date", type: "date" },
  { id: "p_enum", type: "enum", enum: "BENCH_ENUM" }, { id: "p_doc", type: "docid" }, { id: "p_body", type: "longtext" },
];
const SMALL = Array.from({ length: 9 }, (_, i) => `PERF${i + 1}`);
/** The profile of their own one element in ten carry: every tenth of PERF's (i % 10 = 5), through the whole collection. */
const ROW_PROFILE = "PRF_ROW";

/** Structures, enumerate, profiles and the readers, through the store (the field indexes come with the structures). */
async function saveDefinitions(store: Store): Promise<void> {
  await store.transaction(async (tx) => {
    await tx.catalog.saveEnumerate({ name: "BENCH_ENUM", items: ["e0", "e1", "e2", "e3", "e4"].map((key) => ({ key, label: key })) });
    for (const name of ["PERF", ...SMALL]) {
      await tx.accounts.saveRole({ id: `r_${name}` });
      await tx.catalog.saveProfile({ name: `PRF_${name}`, grants: { view: [`role:r_${name}`] } });
      await tx.catalog.saveStructure({ name, profile: `PRF_${name}`, fields: name === "PERF" ? PERF_FIELDS : [{ id: "s_text", type: "text" }] });
    }
  });
  // One element in ten has this profile of its own (rowSql), which only the role r_ROW may view.
  await store.transaction(async (tx) => {
    await tx.accounts.saveRole({ id: "r_ROW" });
    await tx.catalog.saveProfile({ name: ROW_PROFILE, grants: { view: ["role:r_ROW"] } });
  });
  const platform = createPlatform({ store });
  await platform.accounts.add({ login: "readerRow", password: "reader-pw", roles: ["r_ROW"] });
  await platform.accounts.add({ login: "reader1", password: "reader-pw", roles: ["r_PERF3"] });
  await platform.accounts.add({ login: "reader3", password: "reader-pw", roles: ["r_PERF1", "r_PERF2", "r_PERF3"] });
}

/**
 * The columns of element i (1..N), as SQL over `i` (both dialects): owners, states and revisions
 * have few values (large ties), titles and creation dates are all different, modification dates
 * come sixteen at a time (an import's batch).
 */
function rowSql(dialect: "sqlite" | "pg") {
  const text = (expression: string) => (dialect === "pg" ? `(${expression})::text` : `(${expression})`);
  const pad = (expression: string) => (dialect === "pg" ? `lpad(${text(expression)}, 7, '0')` : `printf('%07d', ${expression})`);
  const stamp = (seconds: string) => dialect === "pg"
    ? `to_char(timestamp '2024-01-01' + (${seconds}) * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
    : `strftime('%Y-%m-%dT%H:%M:%fZ', 1704067200 + (${seconds}), 'unixepoch')`;
  const json = dialect === "pg" ? "json_build_object" : "json_object";
  const day = dialect === "pg" ? `to_char(date '2000-01-01' + (i % 9000)::int, 'YYYY-MM-DD')` : `date('2000-01-01', '+' || (i % 9000) || ' days')`;
  const structure = `case when i % 10 = 0 then 'PERF' || ${text("1 + (i / 10) % 9")} else 'PERF' end`;
  return {
    structure,
    structureId: `case when i % 10 = 0 then 2 + (i / 10) % 9 else 1 end`,
    name: `case when i % 100 = 7 then 'E' || ${text("i")} end`,
    title: `'Title ' || ${pad("(i * 7919) % 1000003")}`,
    owner: `case when i % 10 < 7 then 1 when i % 10 < 9 then 2 else 3 + i % 5 end`,
    state: `case i % 4 when 0 then null when 1 then 'draft' when 2 then 'published' else 'archived' end`,
    revision: `case when i % 10 < 6 then 0 when i % 10 < 9 then 1 else 2 + i % 3 end`,
    status: `case when i % 100 = 42 then 'deleted' else 'alive' end`,
    created: stamp("i * 0.05"),
    modified: stamp("(i / 16) * 0.8"),
    profile: `case when i % 10 = 5 then '${ROW_PROFILE}' end`,
    values: `case when i % 10 = 0 then ${json}('s_text', 'small ' || ${text("i % 997")}) else ${json}('p_title', 'T' || ${pad("(i * 104729) % 1000003")},
      'p_text', 'word' || ${text("i % 5000")}, 'p_int', (i * 31) % 1000, 'p_date', ${day}, 'p_enum', 'e' || ${text("i % 5")},
      'p_doc', 1 + (i * 13) % 1000, 'p_body', 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor ' || ${text("i")}) end`,
  };
}

const COLUMNS = `id, initid, revision, structure, structure_id, name, title, owner, status, fixed, state, "values", created_at, modified_at, import_key, profile`;

/** N live elements (ids 1..N, each its own lineage) then N/10 fixed older revisions of the first lineages. */
function bulkInsertSql(dialect: "sqlite" | "pg", from: number, to: number, fixed: boolean): string {
  const r = rowSql(dialect);
  // bigint on PostgreSQL: i * 104729 is past an integer at a million.
  const series = dialect === "pg" ? `generate_series(${from}::bigint, ${to}) as n(i)`
    : `(with recursive s(i) as (select ${from} union all select i + 1 from s where i < ${to}) select i from s) as n`;
  const id = fixed ? `${count} + i` : "i";
  const revision = fixed ? "0" : r.revision;
  return `insert into elements (${COLUMNS}) select ${id}, i, ${revision}, ${r.structure}, ${r.structureId}, ${r.name}, ${r.title}, ${r.owner}, ${r.status},
    ${fixed ? (dialect === "pg" ? "true" : "1") : (dialect === "pg" ? "false" : "0")}, ${r.state}, ${r.values}, ${r.created}, ${r.modified}, null, ${r.profile} from ${series}`;
}

/** The list indexes before issue 18, as its schema wrote them. */
const OLD_INDEXES = {
  sqlite: [
    "create index elements_list_idx on elements (status, fixed, title, id desc)",
    "create index elements_structure_list_idx on elements (structure, status, fixed, title, id desc)",
  ],
  pg: [
    `create index elements_list_idx on elements (status, fixed, title collate "C", id desc)`,
    `create index elements_structure_list_idx on elements (structure, status, fixed, title collate "C", id desc)`,
  ],
};

// ---- the requests ----------------------------------------------------------------------------------------

/** Issue 18's table, with the statement the code before it sent (order, offset); PERF's title field is p_title. */
const ISSUE_REQUESTS: { label: string; order: string; family?: string; offset: "first" | number | "deepest" }[] = [
  { label: "`?slice=10`", order: "title:asc", offset: "first" },
  { label: "`?slice=10&orderBy=mdate:desc`", order: "mdate:desc", offset: "first" },
  { label: "`?slice=10&orderBy=initid:desc`", order: "initid:desc", offset: "first" },
  { label: "`?slice=10&offset=500000&orderBy=initid`", order: "initid:asc", offset: Math.floor(count / 2) },
  { label: "`?slice=10&offset=999000&orderBy=title:desc` (the deepest page)", order: "title:desc", offset: "deepest" },
  { label: "`/smart-structures/PERF/smart-elements/?slice=10&orderBy=p_title:desc`", order: "p_title:desc", family: "PERF", offset: "first" },
];

/** The old statement of an order (element-repository.ts before issue 18): every column, `fixed` bound, one sort. */
function oldStatement(dialect: "sqlite" | "pg", order: string, family: string | undefined): string {
  const [key = "", direction = "asc"] = order.split(":");
  const columns: Record<string, string> = { title: "title", mdate: "modified_at", initid: "initid" };
  const c = dialect === "pg" ? ` collate "C"` : "";
  const expression = key === "p_title"
    ? (dialect === "pg" ? `("values" ->> 'p_title') collate "C"` : `json_extract("values", '$."p_title"')`)
    : `${columns[key]}${key === "initid" ? "" : c}`;
  const p = (n: number) => (dialect === "pg" ? `$${n}` : "?");
  const where = `status = ${p(1)} and fixed = ${dialect === "pg" ? "false" : p(2)}${family ? ` and structure in (${p(dialect === "pg" ? 2 : 3)})` : ""}`;
  const offset = dialect === "pg" ? `$${family ? 3 : 2}` : "?";
  return `select id, initid, revision, structure, name, title, owner, status, fixed, state, "values", created_at, modified_at, import_key
    from elements where ${where} order by ${expression} ${direction}, id desc limit 10 offset ${offset}`;
}

interface Timing {
  readonly first: number;
  readonly offset: number;
  readonly deepest: number;
}

/** The median of `times` runs after a warm-up (medianTime), `--runs` by default. */
const median = (run: () => Promise<unknown> | unknown, times = runs): Promise<number> => medianTime(run, times);

interface Case {
  readonly label: string;
  readonly family?: string;
  readonly orderBy: string;
  readonly reader?: "reader1" | "reader3" | "readerRow";
  /** Part of the targets (an indexed order), or a figure of a documented limit. */
  readonly target: boolean;
}

const KEYS = SORTABLE_PROPERTIES;

function cases(): Case[] {
  const list: Case[] = [];
  for (const key of KEYS) {
    for (const direction of ["asc", "desc"]) list.push({ label: `all, ${key}:${direction}`, orderBy: `${key}:${direction}`, target: true });
  }
  for (const key of KEYS) {
    for (const direction of ["asc", "desc"]) list.push({ label: `PERF, ${key}:${direction}`, family: "PERF", orderBy: `${key}:${direction}`, target: true });
  }
  for (const field of PERF_FIELDS) {
    for (const direction of ["asc", "desc"]) {
      list.push({ label: `PERF, field ${field.id}:${direction}`, family: "PERF", orderBy: `${field.id}:${direction}`, target: field.type !== "longtext" });
    }
  }
  // Followed by another key: the id (any direction), then another property; the second key sorts the ties of the first.
  for (const key of KEYS.filter((k) => k !== "id")) list.push({ label: `all, ${key}:desc,id:asc`, orderBy: `${key}:desc,id:asc`, target: true });
  for (const key of KEYS.filter((k) => k !== "title")) {
    list.push({ label: `all, ${key}:asc,title:desc`, orderBy: `${key}:asc,title:desc`, target: ["id", "initid", "status"].includes(key) });
  }
  for (const order of ["title:asc", "mdate:desc", "owner:asc", "initid:desc"]) {
    list.push({ label: `reader of 1 structure of 10, all, ${order}`, orderBy: order, reader: "reader1", target: true });
    list.push({ label: `reader of 3 structures of 10, all, ${order}`, orderBy: order, reader: "reader3", target: true });
    list.push({ label: `reader of 1 element in 10, all, ${order}`, orderBy: order, reader: "readerRow", target: true });
  }
  for (const order of ["title:asc", "mdate:desc", "p_title:desc", "p_int:asc"]) {
    list.push({ label: `reader of 1 element in 10, PERF, ${order}`, family: "PERF", orderBy: order, reader: "readerRow", target: true });
  }
  list.push({ label: "trash, title:desc", orderBy: "title:desc", target: true });
  return list;
}

/** The list use case for a case at an offset: what a GET of the collection runs at the node, the HTTP layer aside. */
async function listPage(platform: Platform, principal: Principal, c: Case, offset: number): Promise<number> {
  const options = { slice: "10", offset: String(offset), orderBy: c.orderBy, ...(c.family ? { family: c.family } : {}) };
  const page = c.label.startsWith("trash") ? await platform.trash.list(principal, options) : await platform.elements.list(principal, options);
  return page.documents.length;
}

interface StoreFigures {
  readonly name: string;
  readonly before: { label: string; ms: number }[];
  readonly after: { label: string; ms: number }[];
  readonly write: { before: number; after: number };
  readonly build: { indexes: number; sortKeys?: number };
  readonly sizes: { table: number; before: number; after: number; sortKeys?: number };
  readonly orders: { c: Case; timing: Timing }[];
}

async function measureOrders(store: Store, totals: (c: Case) => number): Promise<{ c: Case; timing: Timing }[]> {
  const platform = createPlatform({ store });
  const admin = systemPrincipal();
  const readers = {
    reader1: (await platform.accounts.principal("reader1"))!, reader3: (await platform.accounts.principal("reader3"))!, readerRow: (await platform.accounts.principal("readerRow"))!,
  };
  const results: { c: Case; timing: Timing }[] = [];
  for (const c of cases()) {
    const principal = c.reader ? readers[c.reader] : admin;
    const total = totals(c);
    const deepest = Math.max(0, total - 10);
    // A documented limit costs seconds a run at 1M: one run after the warm-up.
    const limited = c.target ? runs : 1;
    const timing = {
      first: await median(() => listPage(platform, principal, c, 0), limited),
      offset: await median(() => listPage(platform, principal, c, Math.min(OFFSET, deepest)), limited),
      deepest: await median(() => listPage(platform, principal, c, deepest), limited),
    };
    if ((await listPage(platform, principal, c, deepest)) === 0 && total > 0) throw new Error(`${c.label}: the last page is empty`);
    results.push({ c, timing });
    console.log(`bench: ${c.label.padEnd(44)} ${ms(timing.first).padStart(8)} ${ms(timing.offset).padStart(8)} ${ms(timing.deepest).padStart(8)} ms`);
  }
  return results;
}

/** How many rows each case lists, by the principal's rights. */
function totalsOf(counts: ReturnType<typeof elementCounts>): (c: Case) => number {
  const sum = (names: string[], of = counts.alive) => names.reduce((total, name) => total + (of.get(name) ?? 0), 0);
  return (c) => {
    if (c.label.startsWith("trash")) return counts.deleted;
    if (c.reader === "readerRow") return sum(c.family ? [c.family] : [...counts.row.keys()], counts.row);
    if (c.family) return sum([c.family]);
    if (c.reader === "reader1") return sum(["PERF3"]);
    if (c.reader === "reader3") return sum(["PERF1", "PERF2", "PERF3"]);
    return sum([...counts.alive.keys()]);
  };
}

// ---- SQLite ----------------------------------------------------------------------------------------------

async function runSqlite(tempDir: string): Promise<StoreFigures> {
  const dataDir = join(tempDir, "sqlite");
  const store = openSqliteStore({ dataDir });
  await saveDefinitions(store);
  await store.close();
  const db = new Database(join(dataDir, "lineage.sqlite"));
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = FULL");
  const newIndexes = db.prepare(
    "select name, sql from sqlite_master where type = 'index' and tbl_name = 'elements' and (name like 'elements\\_%by\\_%' escape '\\' or name like 'elements_field_%')",
  ).all() as { name: string; sql: string }[];
  for (const { name } of newIndexes) db.exec(`drop index "${name}"`);
  for (const statement of OLD_INDEXES.sqlite) db.exec(statement);
  let started = performance.now();
  db.transaction(() => {
    for (let from = 1; from <= count; from += 100_000) db.exec(bulkInsertSql("sqlite", from, Math.min(count, from + 99_999), false));
    db.exec(bulkInsertSql("sqlite", 1, Math.floor(count / 10), true));
  })();
  db.exec("analyze");
  console.log(`bench: sqlite: ${thousands(count)} elements seeded in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  const counts = elementCounts(db.prepare(
    `select structure, status, profile = '${ROW_PROFILE}' as row, count(*) as n from elements where fixed = 0 group by structure, status, row`,
  ).all() as CountRow[]);

  const before = [];
  for (const request of ISSUE_REQUESTS) {
    const statement = db.prepare(oldStatement("sqlite", request.order, request.family)).raw();
    const total = request.family ? counts.alive.get(request.family)! : [...counts.alive.values()].reduce((a, b) => a + b, 0);
    const offset = request.offset === "first" ? 0 : request.offset === "deepest" ? total - 10 : request.offset;
    const params = request.family ? ["alive", 0, request.family, offset] : ["alive", 0, offset];
    before.push({ label: request.label, ms: await median(() => statement.all(...params), Math.min(runs, 3)) });
    console.log(`bench: sqlite before: ${request.label} ${ms(before.at(-1)!.ms)} ms`);
  }
  const sizeOf = (names: string[]) => indexBytesSqlite(db, names);
  const oldSize = sizeOf(["elements_list_idx", "elements_structure_list_idx"]);
  const writeBefore = sqliteWriteCost(db);

  for (const statement of OLD_INDEXES.sqlite) db.exec(`drop index ${statement.split(" ")[2]}`);
  started = performance.now();
  for (const { sql } of newIndexes) db.exec(sql);
  const buildSeconds = (performance.now() - started) / 1000;
  db.exec("analyze");
  const writeAfter = sqliteWriteCost(db);
  const newSize = sizeOf(newIndexes.map((index) => index.name));
  const tableSize = indexBytesSqlite(db, ["elements"]);
  db.close();

  const opened = openSqliteStore({ dataDir });
  try {
    const after = [];
    for (const request of ISSUE_REQUESTS) after.push({ label: request.label, ms: await afterRequest(opened, request, counts) });
    const orders = await measureOrders(opened, totalsOf(counts));
    return {
      name: "SQLite", before, after, orders, write: { before: writeBefore, after: writeAfter }, build: { indexes: buildSeconds },
      sizes: { table: tableSize, before: oldSize, after: newSize },
    };
  } finally {
    await opened.close();
  }
}

function indexBytesSqlite(db: SqliteDatabase, names: string[]): number {
  const size = db.prepare("select coalesce(sum(pgsize), 0) from dbstat where name = ?").pluck();
  return names.reduce((total, name) => total + (size.get(name) as number), 0);
}

/** Microseconds per new live revision, inserted with the repository's statement, 1,000 per transaction; removed afterwards. */
function sqliteWriteCost(db: SqliteDatabase): number {
  const insert = db.prepare(`insert into elements (initid, revision, structure, structure_id, name, title, owner, status, fixed, state, "values", created_at, modified_at, import_key)
    values (?, 0, 'PERF', (select id from structures where name = 'PERF'), null, ?, 1, 'alive', 0, 'draft', ?, ?, ?, null)`);
  const first = (db.prepare("select max(id) from elements").pluck().get() as number) + 1;
  const started = performance.now();
  for (let batch = 0; batch < WRITE_ROWS; batch += 1000) {
    db.transaction(() => {
      for (let i = batch; i < batch + 1000; i++) {
        const now = new Date(Date.UTC(2025, 0, 1) + i).toISOString();
        insert.run(first + i, `Written ${i}`, JSON.stringify({ p_title: `W${i}`, p_text: `word${i % 50}`, p_int: i % 1000, p_date: "2025-01-01", p_enum: "e1" }), now, now);
      }
    })();
  }
  const perRow = ((performance.now() - started) * 1000) / WRITE_ROWS;
  db.prepare("delete from elements where id >= ?").run(first);
  return perRow;
}

// ---- PostgreSQL ------------------------------------------------------------------------------------------

async function runPostgres(tempDir: string): Promise<StoreFigures> {
  let server: PostgresServer | undefined;
  let base = args.url;
  if (!base) {
    const dir = join(tempDir, "postgres");
    chmodSync(tempDir, 0o755);
    server = await startPostgresServer({ dir, port: 0 });
    base = server.url;
  }
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  const database = `lineage_bench_orders_${process.pid}`;
  await admin.query(`drop database if exists ${database}`);
  await admin.query(`create database ${database}`);
  const url = new URL(base);
  url.pathname = `/${database}`;
  try {
    const store = await openPostgresStore({ url: url.toString() });
    await saveDefinitions(store);
    await store.close();
    const db = new pg.Client({ connectionString: url.toString() });
    await db.connect();
    try {
      return await seedAndMeasurePostgres(db, url.toString());
    } finally {
      await db.end();
    }
  } finally {
    await admin.query(`drop database if exists ${database} with (force)`);
    await admin.end();
    await server?.stop();
  }
}

async function seedAndMeasurePostgres(db: pg.Client, url: string): Promise<StoreFigures> {
  const { rows: newIndexes } = await db.query<{ name: string; sql: string }>(
    `select indexname as name, indexdef as sql from pg_indexes where tablename in ('elements', 'element_sort_keys')
     and (indexname like 'elements\\_%by\\_%' or indexname like 'element_sort_keys\\_%idx')`,
  );
  for (const { name } of newIndexes) await db.query(`drop index "${name}"`);
  for (const statement of OLD_INDEXES.pg) await db.query(statement);
  await db.query("alter table elements disable trigger elements_sort_keys");
  let started = performance.now();
  for (let from = 1; from <= count; from += 100_000) await db.query(bulkInsertSql("pg", from, Math.min(count, from + 99_999), false));
  await db.query(bulkInsertSql("pg", 1, Math.floor(count / 10), true));
  await db.query("select setval(pg_get_serial_sequence('elements', 'id'), (select max(id) from elements))");
  await db.query("vacuum analyze elements");
  console.log(`bench: postgres: ${thousands(count)} elements seeded in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  const counts = elementCounts((await db.query<CountRow>(
    `select structure, status, profile = '${ROW_PROFILE}' as row, count(*)::int as n from elements where not fixed group by structure, status, row`,
  )).rows);

  const before = [];
  for (const request of ISSUE_REQUESTS) {
    const total = request.family ? counts.alive.get(request.family)! : [...counts.alive.values()].reduce((a, b) => a + b, 0);
    const offset = request.offset === "first" ? 0 : request.offset === "deepest" ? total - 10 : request.offset;
    const text = oldStatement("pg", request.order, request.family);
    const values = request.family ? ["alive", request.family, offset] : ["alive", offset];
    before.push({ label: request.label, ms: await median(() => db.query({ text, values, rowMode: "array" }), Math.min(runs, 3)) });
    console.log(`bench: postgres before: ${request.label} ${ms(before.at(-1)!.ms)} ms`);
  }
  const sizeOf = async (names: string[]) =>
    Number((await db.query("select coalesce(sum(pg_relation_size(c.oid)), 0)::bigint as n from pg_class c where c.relname = any($1)", [names])).rows[0].n);
  const oldSize = await sizeOf(["elements_list_idx", "elements_structure_list_idx"]);
  const writeBefore = await postgresWriteCost(db);

  await db.query("drop index elements_list_idx; drop index elements_structure_list_idx");
  started = performance.now();
  for (const { sql } of newIndexes.filter((index) => index.name.startsWith("elements_"))) await db.query(sql);
  const buildSeconds = (performance.now() - started) / 1000;
  started = performance.now();
  await db.query(`insert into element_sort_keys (element_id, structure, field, status, rank, num, txt, profile)
    select e.id, e.structure, f.field, e.status, k.rank, k.num, k.txt, e.profile
    from elements e join structures s on s.name = e.structure cross join unnest(s.sort_fields) as f(field)
    cross join lateral lineage_sort_key(e."values", f.field) as k where not e.fixed`);
  for (const { sql } of newIndexes.filter((index) => index.name.startsWith("element_sort_keys"))) await db.query(sql);
  const sortKeysSeconds = (performance.now() - started) / 1000;
  await db.query("alter table elements enable trigger elements_sort_keys");
  await db.query("vacuum analyze");
  const writeAfter = await postgresWriteCost(db);
  await db.query("vacuum analyze");
  const newSize = await sizeOf(newIndexes.filter((index) => index.name.startsWith("elements_")).map((index) => index.name));
  const sortKeysSize = Number((await db.query("select pg_total_relation_size('element_sort_keys')::bigint as n")).rows[0].n);
  const tableSize = Number((await db.query("select pg_relation_size('elements')::bigint as n")).rows[0].n);

  const opened = await openPostgresStore({ url });
  try {
    const after = [];
    for (const request of ISSUE_REQUESTS) after.push({ label: request.label, ms: await afterRequest(opened, request, counts) });
    const orders = await measureOrders(opened, totalsOf(counts));
    return {
      name: "PostgreSQL", before, after, orders, write: { before: writeBefore, after: writeAfter },
      build: { indexes: buildSeconds, sortKeys: sortKeysSeconds }, sizes: { table: tableSize, before: oldSize, after: newSize, sortKeys: sortKeysSize },
    };
  } finally {
    await opened.close();
  }
}

/** Microseconds per new live revision, inserted with the repository's statement, 1,000 per transaction; removed afterwards. */
async function postgresWriteCost(db: pg.Client): Promise<number> {
  const first = Number((await db.query("select max(id) as n from elements")).rows[0].n) + 1;
  const text = `insert into elements (id, initid, revision, structure, structure_id, name, title, owner, status, fixed, state, "values", created_at, modified_at, import_key)
    select n, n, 0, 'PERF', (select id from structures where name = 'PERF'), null, $1, 1, 'alive', false, 'draft', $2::json, $3, $3, null
    from (select nextval(pg_get_serial_sequence('elements', 'id'))::int as n) as next_id`;
  const started = performance.now();
  for (let batch = 0; batch < WRITE_ROWS; batch += 1000) {
    await db.query("begin");
    for (let i = batch; i < batch + 1000; i++) {
      const now = new Date(Date.UTC(2025, 0, 1) + i).toISOString();
      await db.query({ name: "bench_insert", text, values: [`Written ${i}`, JSON.stringify({ p_title: `W${i}`, p_text: `word${i % 50}`, p_int: i % 1000, p_date: "2025-01-01", p_enum: "e1" }), now] });
    }
    await db.query("commit");
  }
  const perRow = ((performance.now() - started) * 1000) / WRITE_ROWS;
  await db.query("delete from elements where id >= $1", [first]);
  return perRow;
}

// ---- shared ----------------------------------------------------------------------------------------------

interface CountRow {
  structure: string;
  status: string;
  /** Under the profile of their own one element in ten carry (1 or true; 0, false or null otherwise). */
  row: unknown;
  n: number;
}

/** Alive elements per structure, those under ROW_PROFILE per structure, and the trash's. */
function elementCounts(rows: CountRow[]): { alive: Map<string, number>; row: Map<string, number>; deleted: number } {
  const alive = new Map<string, number>();
  const row = new Map<string, number>();
  let deleted = 0;
  for (const counted of rows) {
    const n = Number(counted.n);
    if (counted.status !== "alive") deleted += n;
    else {
      alive.set(counted.structure, (alive.get(counted.structure) ?? 0) + n);
      if (counted.row) row.set(counted.structure, (row.get(counted.structure) ?? 0) + n);
    }
  }
  return { alive, row, deleted };
}

/** An issue request now, at the store (ElementRepository.list): the same work the old statement did. */
async function afterRequest(store: Store, request: (typeof ISSUE_REQUESTS)[number], counts: { alive: Map<string, number> }): Promise<number> {
  const total = request.family ? counts.alive.get(request.family)! : [...counts.alive.values()].reduce((a, b) => a + b, 0);
  const offset = request.offset === "first" ? 0 : request.offset === "deepest" ? total - 10 : request.offset;
  const [key = "", direction = "asc"] = request.order.split(":");
  const orderBy: OrderTerm[] = [{ kind: request.family ? (key.startsWith("p_") ? "field" : "property") : "property", key, direction: direction as "asc" | "desc" }];
  const query = { status: "alive" as const, orderBy, limit: 10, offset, ...(request.family ? { structures: [request.family] } : {}) };
  return median(() => store.elements.list(query));
}

function section(figures: StoreFigures[], started: Date, loads: number[]): string {
  const lines = [
    SECTION,
    "",
    `Run on ${started.toISOString().slice(0, 10)}: \`pnpm bench:list-orders\` (${thousands(count)} live elements: 90 % of PERF, 10 % of PERF1..PERF9, ` +
      `plus ${thousands(count / 10)} older fixed revisions and 1 % of the lineages in the trash; each figure the median of ${runs} runs after one warm-up, ` +
      "or one run after it when the warm-up took over a second; one request at a time).",
    "",
    `${machineLine()} Load average (1 min) at the start and the end of the run: ${loads.map((l) => l.toFixed(1)).join(" and ")}: ` +
      "other processes shared the cores, and figures are as measured under that load.",
    "",
    "Before and after, at the store (the statement of the code before the list indexes, on its two indexes, then ElementRepository.list now):",
    "",
    `| Request (as first reported, at 1M) | ${figures.map((f) => `${f.name} before ms | ${f.name} after ms`).join(" | ")} |`,
    `|---|${figures.map(() => "---|---|").join("")}`,
    ...ISSUE_REQUESTS.map((request, i) => `| ${request.label} | ${figures.map((f) => `${ms(f.before[i]!.ms)} | ${ms(f.after[i]!.ms)}`).join(" | ")} |`),
    "",
    "Write cost of the list indexes (a new live revision of PERF, the repository's insert, 1,000 per transaction, on the full table):",
    "",
    "| Store | µs per insert, indexes before | µs per insert, indexes now | list indexes before | list indexes now | table | made at 1M |",
    "|---|---|---|---|---|---|---|",
    ...figures.map((f) => `| ${f.name} | ${f.write.before.toFixed(0)} | ${f.write.after.toFixed(0)} | ${mb(f.sizes.before)} | ${mb(f.sizes.after)}` +
      `${f.sizes.sortKeys ? ` (+ sort keys ${mb(f.sizes.sortKeys)})` : ""} | ${mb(f.sizes.table)} | ${f.build.indexes.toFixed(0)} s${f.build.sortKeys ? ` (+ sort keys ${f.build.sortKeys.toFixed(0)} s)` : ""} |`),
    "",
    `Every order, through the list use case at the node (rights, the page, ten documents rendered): the first page, the page at offset ${thousands(OFFSET)} ` +
      `(or the last, when shorter) and the last page, in ms. Targets: a page at offset ≤ ${thousands(OFFSET)} under ${TARGET_PAGE_MS} ms, ` +
      `the last page under ${TARGET_DEEPEST_MS} ms; rows marked "limit" are the documented limits (docs/limits.md), not held to them.`,
    "",
    `| Order | ${figures.map((f) => `${f.name} first | offset | last`).join(" | ")} | Status |`,
    `|---|${figures.map(() => "---|---|---|").join("")}---|`,
  ];
  const orders = figures[0]!.orders;
  for (const [i, { c }] of orders.entries()) {
    const timings = figures.map((f) => f.orders[i]!.timing);
    const met = timings.every((t) => Math.max(t.first, t.offset) < TARGET_PAGE_MS && t.deepest < TARGET_DEEPEST_MS);
    lines.push(`| ${c.label} | ${timings.map((t) => `${ms(t.first)} | ${ms(t.offset)} | ${ms(t.deepest)}`).join(" | ")} | ${c.target ? mark(met) : "limit"} |`);
  }
  const held = orders.map((o, i) => ({ o, i })).filter(({ o }) => o.c.target);
  const missed = held.filter(({ i }) => figures.some((f) => {
    const t = f.orders[i]!.timing;
    return Math.max(t.first, t.offset) >= TARGET_PAGE_MS || t.deepest >= TARGET_DEEPEST_MS;
  }));
  lines.push("", `Targets: ${held.length - missed.length} of ${held.length} orders met on ${figures.map((f) => f.name).join(" and ")}.`);
  return lines.join("\n");
}

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;

async function main(): Promise<void> {
  const started = new Date();
  const loads = [loadavg()[0]!];
  const tempDir = mkdtempSync(join(tmpdir(), "lineage-bench-orders-"));
  try {
    const figures: StoreFigures[] = [];
    if (args.store !== "postgres") figures.push(await runSqlite(tempDir));
    if (args.store !== "sqlite") figures.push(await runPostgres(tempDir));
    loads.push(loadavg()[0]!);
    publishSection(section(figures, started, loads), { heading: SECTION, write: !args["no-docs"] });
  } finally {
    rmSync(tempDir, { recursive: true, force: true });
  }
}

await main();
