import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createRequire } from "node:module";
import { openSqliteStore } from "../packages/adapter-sqlite/src/index.ts";
import { READABLE_CONDITION, readableKeys } from "../packages/adapter-sqlite/src/readable-condition.ts";
import { createCompactSearchIndex } from "../packages/adapter-search/src/index.ts";
import { createPlatform, parseSearchQuery, systemPrincipal, type Principal, type Store } from "../packages/core/src/index.ts";
import { positive } from "./bench-options.ts";
import { statusMb } from "./bench-session.ts";
import { machineLine, ms, publishSection, thousands } from "./benchmarks-doc.ts";
import { COMMON, corpusTexts, RARE, saveBenchDefinitions } from "./fulltext-corpus.ts";

/*
 * Our compact index held against SQLite's FTS5, run by `pnpm bench:fts5` (FTS5 ships inside
 * better-sqlite3):
 *  1. writes N elements of the full-text corpus (fulltext-corpus.ts) into a fresh SQLite store, one
 *     element in ten under a profile of its own, which a second reader may view (the "one in ten");
 *  2. builds the compact index of the search domain (engine.rebuild, as `lineage search reindex`)
 *     and an FTS5 table of the same texts (porter stemming, as the domain's english stemming), in a
 *     file of its own attached to the store, timing each and taking their sizes;
 *  3. runs a common term, a rare term and a phrase, for each reader: the compact index through the
 *     search use case (rank, rights, ten documents rendered with highlights) and FTS5 through one SQL
 *     statement (bm25 with the domain's weights, snippets, the store's own rights condition joined);
 *     and each index alone (its first ten hits, no rights);
 *  4. writes "## Full-text search: compact index and SQLite FTS5" of docs/benchmarks.md.
 * Options: --docs N (100,000), --words MIN,MAX (150,450: the search benchmarks' bodies; 30,50 for
 * the million elements of the import benchmark), --queries N (200), --no-docs, --heading.
 */

interface Statement {
  all(...params: unknown[]): unknown[];
  get(...params: unknown[]): unknown;
  pluck(): Statement;
}
interface SqliteDatabase {
  prepare(sql: string): Statement;
  exec(sql: string): void;
  pragma(sql: string): unknown;
  close(): void;
}
// better-sqlite3 is the SQLite adapter's dependency, not the workspace root's.
const Database = createRequire(new URL("../packages/adapter-sqlite/package.json", import.meta.url))("better-sqlite3") as new (file: string) => SqliteDatabase;

const DOMAIN = "bench";
const ROW_PROFILE = "PRF_ROW";

const { values: args } = parseArgs({
  options: {
    docs: { type: "string", default: "100000" }, words: { type: "string", default: "150,450" },
    queries: { type: "string", default: "200" }, "no-docs": { type: "boolean", default: false },
    heading: { type: "string", default: "## Full-text search: compact index and SQLite FTS5" },
  },
});

const count = positive("docs", args.docs!, 2_000_000);
const queries = positive("queries", args.queries!, 100_000);
const [fewest, most] = args.words!.split(",").map((w) => positive("words", w, 10_000)) as [number, number];
if (!(fewest <= most)) throw new Error("--words takes MIN,MAX with MIN ≤ MAX");

/** Writes the elements, the profile of one in ten and its reader; answers the words written and a phrase of the corpus. */
async function seed(store: Store): Promise<{ words: number; phrase: string }> {
  await saveBenchDefinitions(store, DOMAIN);
  await store.transaction(async (tx) => {
    await tx.accounts.saveRole({ id: "r_ROW" });
    await tx.catalog.saveProfile({ name: ROW_PROFILE, grants: { view: ["role:r_ROW"] } });
  });
  await createPlatform({ store }).accounts.add({ login: "readerRow", password: "reader-pw", roles: ["r_ROW"] });
  const texts = corpusTexts({ seed: 7, words: [fewest, most], commonShare: 0.5 }, count);
  let words = 0;
  let phrase = "";
  const now = new Date().toISOString();
  for (let start = 0; start < count; start += 5000) {
    await store.transaction(async (tx) => {
      for (let i = start; i < Math.min(count, start + 5000); i++) {
        const { title, body, words: n } = texts.next().value!;
        words += n;
        // Two neighbouring words of the first body: a phrase the corpus holds, of the common words Zipf draws most.
        if (i === 0) phrase = body.split(" ").slice(2, 4).join(" ");
        await tx.elements.insert({
          revision: 0, structure: "BENCH_TEXT", name: null, title, owner: 1, status: "alive", fixed: false, state: null,
          values: { bt_title: title, bt_body: body }, createdAt: now, modifiedAt: now, importKey: null,
          ownProfile: i % 10 === 0 ? ROW_PROFILE : null, profile: i % 10 === 0 ? ROW_PROFILE : null,
        });
      }
    });
  }
  return { words, phrase };
}

const percentile = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** p50 and p99 of `run` over `queries` runs after 20 warm-up runs; `run` answers how many it found, which must not be 0. */
async function timed(label: string, run: () => Promise<number> | number): Promise<{ p50: number; p99: number }> {
  const times: number[] = [];
  for (let i = 0; i < queries + 20; i++) {
    const started = performance.now();
    const found = await run();
    const took = performance.now() - started;
    if (found === 0) throw new Error(`${label}: nothing found`);
    if (i >= 20) times.push(took);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

const directorySize = (dir: string) => readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);

/** The FTS5 query of a search text: a term as it is, a phrase quoted. */
const ftsQuery = (q: string) => (q.includes(" ") ? `"${q}"` : q);

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "lineage-bench-fts5-"));
  const loads = [loadavg()[0] ?? NaN];
  try {
    const seedStart = performance.now();
    const seedStore = openSqliteStore({ dataDir: dir, synchronous: "normal" });
    const { words, phrase } = await seed(seedStore);
    await seedStore.close();
    console.log(`bench: ${thousands(count)} elements, ${thousands(words)} words written in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);

    // The compact index: built as `lineage search reindex` does, then queried through the search use case.
    const store = openSqliteStore({ dataDir: dir });
    const searchDir = join(dir, "search");
    const platform = createPlatform({ store, searchIndex: createCompactSearchIndex({ dir: searchDir }) });
    const compactStart = performance.now();
    await platform.fullsearch.engine.rebuild(DOMAIN, { announce: true });
    const compactMs = performance.now() - compactStart;
    const compactBytes = directorySize(searchDir);
    loads.push(loadavg()[0] ?? NaN);
    console.log(`bench: compact index built in ${(compactMs / 1000).toFixed(1)} s, ${(compactBytes / 2 ** 20).toFixed(0)} MiB`);

    // FTS5: the same texts in a file of its own, attached to a connection of the store's database so that rights join.
    const db = new Database(join(dir, "lineage.sqlite"));
    const ftsFile = join(dir, "fts5.db");
    db.exec(`attach database '${ftsFile}' as fts`);
    db.pragma("fts.journal_mode = off");
    const ftsStart = performance.now();
    db.exec("create virtual table fts.texts using fts5(title, body, tokenize = 'porter unicode61')");
    db.exec(`insert into fts.texts (rowid, title, body)
      select id, json_extract("values", '$.bt_title'), json_extract("values", '$.bt_body') from main.elements where structure = 'BENCH_TEXT'`);
    db.exec("insert into fts.texts (texts) values ('optimize')");
    const ftsMs = performance.now() - ftsStart;
    const ftsBytes = statSync(ftsFile).size;
    loads.push(loadavg()[0] ?? NaN);
    console.log(`bench: FTS5 built in ${(ftsMs / 1000).toFixed(1)} s, ${(ftsBytes / 2 ** 20).toFixed(0)} MiB`);

    const readers: { name: string; principal: Principal; keys: string | null }[] = [
      { name: "every right", principal: systemPrincipal(), keys: null },
      { name: "one in ten", principal: (await platform.accounts.principal("readerRow"))!, keys: readableKeys({ profiles: [ROW_PROFILE], structures: [], owned: undefined } as never) },
    ];
    // bm25's weights as the domain's: title A (1.0), body C (0.2), PostgreSQL's default weights of A and C.
    const ftsPage = (keys: string | null) => db.prepare(`
      select e.id, e.title, snippet(texts, 1, '<mark>', '</mark>', '…', 12) as fragment
      from fts.texts join main.elements e on e.id = texts.rowid
      where texts match ? and e.status = 'alive' and e.fixed = 0 ${keys === null ? "" : `and ${READABLE_CONDITION}`}
      order by bm25(texts, 1.0, 0.2) limit 10`);
    const ftsAlone = db.prepare("select rowid from fts.texts where texts match ? order by bm25(texts, 1.0, 0.2) limit 10").pluck();
    const ftsHits = db.prepare("select count(*) from fts.texts where texts match ?").pluck();
    const domain = await platform.fullsearch.engine.domain(DOMAIN);

    const rows: string[] = [];
    for (const [kind, q] of [["common", COMMON], ["rare", RARE], ["phrase", phrase]] as const) {
      const hits = ftsHits.get(ftsQuery(q)) as number;
      for (const reader of readers) {
        const statement = ftsPage(reader.keys);
        const params = (text: string) => (reader.keys === null ? [text] : [text, reader.keys]);
        const compact = await timed(`compact ${q}`, async () => (await platform.fullsearch.search(reader.principal, DOMAIN, { q })).documents.length);
        const fts5 = await timed(`FTS5 ${q}`, () => statement.all(...params(ftsQuery(q))).length);
        rows.push(`| \`${q}\` (${kind}, ${thousands(hits)} hits) | ${reader.name} | ${ms(compact.p50)} / ${ms(compact.p99)} | ${ms(fts5.p50)} / ${ms(fts5.p99)} |`);
      }
      const parsed = parseSearchQuery(q, platform.fullsearch.engine.analyzer(domain));
      const compactAlone = await timed(`compact alone ${q}`, async () => {
        const iterator = (await platform.fullsearch.engine.search(domain, parsed))[Symbol.iterator]();
        let taken = 0;
        while (taken < 10 && !iterator.next().done) taken++;
        return taken;
      });
      const ftsAloneTimes = await timed(`FTS5 alone ${q}`, () => ftsAlone.all(ftsQuery(q)).length);
      rows.push(`| \`${q}\`, the index alone (first 10 hits, no rights) | | ${ms(compactAlone.p50)} / ${ms(compactAlone.p99)} | ${ms(ftsAloneTimes.p50)} / ${ms(ftsAloneTimes.p99)} |`);
    }
    loads.push(loadavg()[0] ?? NaN);
    const rssMb = statusMb(process.pid, "VmRSS");
    db.close();
    await store.close();

    const section = [
      args.heading!,
      "",
      `Run on ${new Date().toISOString().slice(0, 10)}: \`pnpm bench:fts5 --docs ${count} --words ${fewest},${most}\`, in process (no HTTP). ${machineLine()} ` +
        `Load (1-minute average, \`uptime\`) ${loads.map((l) => l.toFixed(1)).join(", ")} at the start, after each build and at the end.`,
      `Corpus: ${thousands(count)} elements (fulltext-corpus.ts), a 5-word title and a body of ${fewest} to ${most} words (${thousands(words / count)} words on average), ` +
        "pseudo-words drawn with a Zipf law; one search domain (english stemming), title weight A, body weight C. One element in ten is under a profile of its own, which the reader \"one in ten\" may view.",
      "",
      "| build | compact index | SQLite FTS5 |",
      "|---|---|---|",
      `| time (index every element, then write it) | ${(compactMs / 1000).toFixed(1)} s | ${(ftsMs / 1000).toFixed(1)} s |`,
      `| size on disk | ${thousands(compactBytes / 2 ** 20)} MiB | ${thousands(ftsBytes / 2 ** 20)} MiB |`,
      "",
      "| query | reader | compact index p50 / p99 ms | SQLite FTS5 p50 / p99 ms |",
      "|---|---|---|---|",
      ...rows,
      "",
      `- ${queries} runs per query after 20 warm-up runs; the process's resident memory at the end ${thousands(rssMb)} MiB (the compact index loaded).`,
      "- Compact index: the search use case, as the route runs it: the query parsed, every match ranked, the hits' rows read in chunks, rights and phrases checked on them, ten documents rendered with highlights.",
      "- FTS5: one statement: `match`, `bm25` with weights 1.0 (title) and 0.2 (body), `snippet` of the body, joined to the elements with the store's own rights condition (readable-condition.ts) for the reader of one in ten; it renders no document, so its figures are a lower bound of a route over it.",
      "- The index alone: the first ten hits in rank order, without rights or rendering.",
    ].join("\n");
    publishSection(section, { heading: args.heading!, write: !args["no-docs"] });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
