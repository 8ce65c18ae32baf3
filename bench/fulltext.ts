import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { openSqliteStore } from "../packages/adapter-sqlite/src/index.ts";
import { createCompactSearchIndex, createMiniSearchIndex } from "../packages/adapter-search/src/index.ts";
import { createPlatform, parseSearchQuery, systemPrincipal, type Store } from "../packages/core/src/index.ts";
import { positive } from "./bench-options.ts";
import { ROOT, statusMb } from "./bench-session.ts";
import { machineLine, mark, ms, publishSection, thousands } from "./benchmarks-doc.ts";
import { COMMON, corpusTexts, RARE, saveBenchDefinitions } from "./fulltext-corpus.ts";

/*
 * The full-text search benchmark (issue 7), run by `pnpm bench:fulltext`:
 *  1. writes N elements (100 000 by default) of 150 to 450 words (about 300) into a fresh SQLite data
 *     directory, straight through the store (an import of that size is timed elsewhere);
 *  2. builds the index of a search domain over them in this process (engine.rebuild, as
 *     `lineage search reindex`: index, then write the snapshot), timing it and reading VmHWM;
 *  3. in a child process (a restart): opens the store and loads the persisted index (engine.start),
 *     timing it, then runs the search use case (parse, index, filter, render 10 items with highlights)
 *     for a common and a rare term, and reads the child's resident memory;
 *  4. writes the adapter's section "## Full-text search: <adapter>" of docs/benchmarks.md.
 * Options: --docs N, --index compact|minisearch (the adapter measured; compact, the default of
 * `lineage serve`, by default), --no-docs. The temp dir is removed whatever happens.
 */

const ADAPTERS: Record<string, string> = { compact: "compact index", minisearch: "MiniSearch" };
const TARGETS = { buildS: 60, restartS: 5, queryP99Ms: 30 };
const DOMAIN = "bench";

const { values: args } = parseArgs({
  options: {
    docs: { type: "string", default: "100000" }, "no-docs": { type: "boolean", default: false },
    phase: { type: "string", default: "all" }, index: { type: "string", default: "compact" }, data: { type: "string" }, queries: { type: "string", default: "300" },
  },
});

// ---- seed -----------------------------------------------------------------------------------

async function seed(store: Store, count: number): Promise<number> {
  await saveBenchDefinitions(store, DOMAIN);
  const texts = corpusTexts({ seed: 7, words: [150, 450], commonShare: 0.5 }, count);
  let words = 0;
  const now = new Date().toISOString();
  for (let start = 0; start < count; start += 5000) {
    await store.transaction(async (tx) => {
      for (let i = start; i < Math.min(count, start + 5000); i++) {
        const { title, body, words: n } = texts.next().value!;
        words += n;
        const created = await tx.elements.insert({
          revision: 0, structure: "BENCH_TEXT", name: null, title, owner: 1, status: "alive", fixed: false, state: null,
          values: { bt_title: title, bt_body: body }, createdAt: now, modifiedAt: now, importKey: null, ownProfile: null, profile: null,
        });
        await tx.events.append({
          type: "element.created", time: now, initid: created.initid, id: created.id, name: null, structure: created.structure,
          revision: 0, state: null, actor: "admin", changes: {},
        });
      }
    });
  }
  return words;
}

// ---- phases ---------------------------------------------------------------------------------

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

function openPlatform(dataDir: string) {
  const store = openSqliteStore({ dataDir });
  const dir = join(dataDir, "search");
  const searchIndex = args.index === "minisearch" ? createMiniSearchIndex({ dir }) : createCompactSearchIndex({ dir });
  const platform = createPlatform({ store, searchIndex, searchLog: (line) => console.error(`[search] ${line}`) });
  return { store, platform };
}

/** The child: a restart on the data directory, then queries. Prints its figures as JSON on the last line. */
async function restartPhase(dataDir: string, queries: number) {
  const started = performance.now();
  const { store, platform } = openPlatform(dataDir);
  await platform.fullsearch.engine.start();
  const restartMs = performance.now() - started;
  await platform.fullsearch.engine.stop();
  globalThis.gc?.();
  const rssMb = statusMb(process.pid, "VmRSS");
  const principal = systemPrincipal();
  const measure = async (q: string) => {
    const times: number[] = [];
    const indexTimes: number[] = [];
    const domain = await platform.fullsearch.engine.domain(DOMAIN);
    const query = parseSearchQuery(q, platform.fullsearch.engine.analyzer(domain));
    let hits = 0;
    for (let i = 0; i < queries + 20; i++) {
      const t0 = performance.now();
      const data = await platform.fullsearch.search(principal, DOMAIN, { q });
      const t1 = performance.now();
      // What the use case takes of the index: the first page of hits.
      const iterator = (await platform.fullsearch.engine.search(domain, query))[Symbol.iterator]();
      for (let taken = 0; taken < 10 && !iterator.next().done; taken++);
      const t2 = performance.now();
      if (i >= 20) {
        times.push(t1 - t0);
        indexTimes.push(t2 - t1);
      }
      if (data.documents.length === 0) throw new Error(`no result for ${q}`);
    }
    hits = [...(await platform.fullsearch.engine.search(domain, query))].length;
    times.sort((a, b) => a - b);
    indexTimes.sort((a, b) => a - b);
    return { q, hits, p50: percentile(times, 50), p99: percentile(times, 99), indexP50: percentile(indexTimes, 50), indexP99: percentile(indexTimes, 99) };
  };
  const results = [await measure(COMMON), await measure(RARE)];
  // What the background work does every 1000 changes: 1000 documents replaced, then the snapshot written.
  const { index } = platform.fullsearch.engine;
  const analyzer = platform.fullsearch.engine.analyzer(await platform.fullsearch.engine.domain(DOMAIN));
  const replaced = index.ids(DOMAIN).slice(0, 1000).map((id) => ({ id, structure: "BENCH_TEXT", terms: { A: analyzer.terms(`replaced ${COMMON} ${id}`) } }));
  const persistStart = performance.now();
  index.upsert(DOMAIN, replaced);
  const written = index.persist(DOMAIN);
  const persistMs = performance.now() - persistStart;
  const writtenMs = (await written, performance.now() - persistStart);
  await store.close();
  console.log(JSON.stringify({ restartMs, rssMb, results, persistMs, writtenMs }));
}

async function allPhases() {
  const count = positive("docs", args.docs!, 1_000_000);
  const adapter = ADAPTERS[args.index!];
  if (!adapter) throw new Error(`--index takes ${Object.keys(ADAPTERS).join(" or ")}, not "${args.index}"`);
  const heading = `## Full-text search: ${adapter}`;
  const dir = mkdtempSync(join(tmpdir(), "lineage-bench-fulltext-"));
  try {
    const seedStart = performance.now();
    const seedStore = openSqliteStore({ dataDir: dir, synchronous: "normal" });
    const words = await seed(seedStore, count);
    await seedStore.close();
    console.log(`bench: ${thousands(count)} elements, ${thousands(words)} words written in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);

    const { store, platform } = openPlatform(dir);
    const buildStart = performance.now();
    const built = await platform.fullsearch.engine.rebuild(DOMAIN, { announce: true });
    const buildMs = performance.now() - buildStart;
    const buildHwmMb = statusMb(process.pid, "VmHWM");
    await store.close();
    const snapshotBytes = readdirSync(join(dir, "search")).reduce((sum, name) => sum + statSync(join(dir, "search", name)).size, 0);
    console.log(`bench: built ${thousands(built)} in ${(buildMs / 1000).toFixed(1)} s, snapshot ${(snapshotBytes / 2 ** 20).toFixed(0)} MiB`);

    const child = spawnSync(process.execPath, ["--expose-gc", "--import", "tsx", join(ROOT, "bench/fulltext.ts"), "--phase", "restart", "--index", args.index!, "--data", dir, "--queries", args.queries!], {
      cwd: ROOT, encoding: "utf8", maxBuffer: 16 * 2 ** 20,
    });
    if (child.status !== 0) throw new Error(`restart phase failed: ${child.stderr}`);
    const figures = JSON.parse(child.stdout.trim().split("\n").at(-1)!) as {
      restartMs: number; rssMb: number; persistMs: number; writtenMs: number; results: { q: string; hits: number; p50: number; p99: number; indexP50: number; indexP99: number }[];
    };
    const section = [
      heading,
      "",
      `${machineLine()} The machine is shared with other engineers' work: figures vary from run to run.`,
      `Corpus: ${thousands(count)} elements of 150 to 450 words (${thousands(words / count)} on average) drawn from 20 000 pseudo-words with a Zipf law; ` +
        "one search domain (english stemming), title weight A, body weight C. " +
        `Run by \`pnpm bench:fulltext --index ${args.index}\`, in process (no HTTP).`,
      "",
      "| measure | value | target |",
      "|---|---|---|",
      `| full build (index ${thousands(built)} elements + write the snapshot) | ${(buildMs / 1000).toFixed(1)} s | < ${TARGETS.buildS} s: ${mark(buildMs / 1000 < TARGETS.buildS)} |`,
      `| snapshot on disk | ${(snapshotBytes / 2 ** 20).toFixed(0)} MiB | |`,
      `| peak resident memory of the build process | ${thousands(buildHwmMb)} MiB | |`,
      `| restart: open the store, load the persisted index | ${(figures.restartMs / 1000).toFixed(2)} s | < ${TARGETS.restartS} s: ${mark(figures.restartMs / 1000 < TARGETS.restartS)} |`,
      `| resident memory after the restart (index loaded) | ${thousands(figures.rssMb)} MiB | |`,
      `| 1000 documents replaced and the snapshot taken (the event loop waits) / written (in the background) | ${ms(figures.persistMs)} / ${ms(figures.writtenMs)} ms | |`,
      ...figures.results.map((r) =>
        `| query \`${r.q}\` (${r.q === COMMON ? "common" : "rare"}: ${thousands(r.hits)} hits), search use case p50 / p99 | ${ms(r.p50)} / ${ms(r.p99)} ms | p99 < ${TARGETS.queryP99Ms} ms: ${mark(r.p99 < TARGETS.queryP99Ms)} |`),
      ...figures.results.map((r) => `| query \`${r.q}\`, index alone (${adapter}, first 10 hits) p50 / p99 | ${ms(r.indexP50)} / ${ms(r.indexP99)} ms | |`),
      "",
      `- The search use case parses the query, brings the index up to date, ranks every match, keeps the viewable ones and renders 10 with highlights; ${args.queries} runs per term after 20 warm-up runs.`,
      "- The restart runs in a child process, so its resident memory is the loaded index's, not the build's.",
    ].join("\n");
    publishSection(section, { heading, write: !args["no-docs"] });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (args.phase === "restart") await restartPhase(args.data!, positive("queries", args.queries!, 100_000));
else await allPhases();
