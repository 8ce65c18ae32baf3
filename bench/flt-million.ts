import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import pg from "pg";
import { startPostgresServer, type PostgresServer } from "@lineage/postgres-server";
import { openSqliteStore } from "../packages/adapter-sqlite/src/index.ts";
import { openPostgresStore } from "../packages/adapter-postgres/src/index.ts";
import { createPlatform, type Store } from "../packages/core/src/index.ts";
import { thousands } from "./benchmarks-doc.ts";

/*
 * The structure FLT at a million elements, as `pnpm bench:filters` and `pnpm bench:console-list`
 * seed it: a text, an enum, a date and a long text, a profile and a reader of one element in ten;
 * N elements written by bulk SQL with the store's indexes dropped, then indexed (as an import of
 * that size would leave them) and analyzed, on SQLite or on PostgreSQL.
 */

interface SqliteDatabase {
  prepare(sql: string): { all(...params: unknown[]): unknown[] };
  exec(sql: string): void;
  pragma(sql: string): unknown;
  transaction(fn: () => void): () => void;
  close(): void;
}
const Database = createRequire(new URL("../packages/adapter-sqlite/package.json", import.meta.url))("better-sqlite3") as new (file: string) => SqliteDatabase;

/** The profile of one element in ten, the one `FLT_ROW_READER` may view. */
export const FLT_ROW_PROFILE = "PRF_FLT_ROW";
/** The database a kept seed lives in (`--keep`), shared by the benchmarks that seed FLT. */
export const FLT_KEPT_DATABASE = "lineage_bench_flt_kept";
/** The login of the reader of one element in ten. */
export const FLT_ROW_READER = "readerRow";

/** How long the seed took: the bulk insert, then the indexes (and sort keys), in seconds. */
export interface SeedSeconds {
  readonly seed: number;
  readonly indexes: number;
}

async function saveDefinitions(store: Store): Promise<void> {
  await store.transaction(async (tx) => {
    await tx.catalog.saveEnumerate({ name: "FLT_ENUM", items: ["half", "one", "rare", "other"].map((key) => ({ key, label: key })) });
    await tx.accounts.saveRole({ id: "r_FLT" });
    await tx.accounts.saveRole({ id: "r_ROW" });
    await tx.catalog.saveProfile({ name: "PRF_FLT", grants: { view: ["role:r_FLT"] } });
    await tx.catalog.saveProfile({ name: FLT_ROW_PROFILE, grants: { view: ["role:r_ROW"] } });
    await tx.catalog.saveStructure({
      name: "FLT", profile: "PRF_FLT", titleField: "f_title",
      fields: [
        { id: "f_title", type: "text" }, { id: "f_enum", type: "enum", enum: "FLT_ENUM" }, { id: "f_date", type: "date" }, { id: "f_body", type: "longtext" },
      ],
    });
  });
  await createPlatform({ store }).accounts.add({ login: FLT_ROW_READER, password: "reader-pw", roles: ["r_ROW"] });
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
    profile: `case when i % 10 = 5 then '${FLT_ROW_PROFILE}' end`,
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

/**
 * A SQLite store in `dataDir` holding `count` FLT elements; `prepare` runs on the store before the
 * bulk insert (accounts, definitions of the benchmark's own). Answers how long the seed took. With
 * `keep`, a store seeded before in `dataDir` is used as it is (seeding a million takes minutes).
 */
export async function seedFltSqlite(dataDir: string, count: number, prepare?: (store: Store) => Promise<void>, keep = false): Promise<SeedSeconds> {
  const marker = join(dataDir, "seeded");
  if (keep && existsSync(marker)) {
    console.log(`bench: sqlite: the ${thousands(count)} elements seeded before in ${dataDir}`);
    return JSON.parse(readFileSync(marker, "utf8")) as SeedSeconds;
  }
  const store = openSqliteStore({ dataDir });
  await saveDefinitions(store);
  await prepare?.(store);
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
  if (keep) writeFileSync(marker, JSON.stringify({ seed, indexes: built }));
  return { seed, indexes: built };
}

/**
 * A PostgreSQL database named `database` holding `count` FLT elements, on the server at `base` or
 * on one started in `tempDir`; `measure` runs with its URL, then the database is dropped (and the
 * server stopped). `prepare` runs on the store before the bulk insert. With `keep`, the database
 * stays, and a later call with `keep` measures it as it is.
 */
export async function withFltPostgres<T>(
  settings: { tempDir: string; base: string | undefined; database: string; count: number; prepare?: (store: Store) => Promise<void>; keep?: boolean },
  measure: (url: string, seconds: SeedSeconds) => Promise<T>,
): Promise<T> {
  const { tempDir, database, count } = settings;
  let server: PostgresServer | undefined;
  let base = settings.base;
  if (!base) {
    chmodSync(tempDir, 0o755);
    server = await startPostgresServer({ dir: join(tempDir, "postgres"), port: 0 });
    base = server.url;
  }
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  const marker = join(tempDir, `${database}-seeded`);
  const kept = settings.keep === true && existsSync(marker);
  if (!kept) {
    await admin.query(`drop database if exists ${database} with (force)`);
    await admin.query(`create database ${database}`);
  }
  const url = new URL(base);
  url.pathname = `/${database}`;
  try {
    if (kept) {
      console.log(`bench: postgres: the ${thousands(count)} elements seeded before in ${database}`);
      return await measure(url.toString(), JSON.parse(readFileSync(marker, "utf8")) as SeedSeconds);
    }
    const store = await openPostgresStore({ url: url.toString() });
    await saveDefinitions(store);
    await settings.prepare?.(store);
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
    if (settings.keep) writeFileSync(marker, JSON.stringify({ seed, indexes: built }));
    return await measure(url.toString(), { seed, indexes: built });
  } finally {
    if (!settings.keep) await admin.query(`drop database if exists ${database} with (force)`);
    await admin.end();
    await server?.stop();
  }
}
