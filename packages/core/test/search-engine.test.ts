import { describe, expect, it } from "vitest";
import { isLineageError } from "../src/errors/lineage-error.ts";
import { createMemorySearchIndex } from "../src/search/memory-search-index.ts";
import { folder } from "../src/testing/bundle-helpers.ts";
import { SEARCH_FILES, searchBundle, searchWorld } from "../src/testing/search-world.ts";
import { createMemoryStore } from "../src/testing/index.ts";
import { countingStore } from "../src/testing/counting-store.ts";

const codeOf = async (answer: Promise<unknown>) => {
  try {
    await answer;
  } catch (error) {
    return isLineageError(error) ? `${error.code} ${error.status}` : String(error);
  }
  return "no error";
};

describe("full-text search", () => {
  it("ranks by weight: a title (A) match before a body (C) match, with highlights", async () => {
    const { platform, as } = await searchWorld();
    const data = await platform.fullsearch.search(await as("admin"), "news", { q: "volcano" });
    expect(data.documents.map((d) => d.properties?.title)).toEqual(["Volcano eruption", "Secret volcano base", "Weekly digest"]);
    expect(data.documents.map((d) => d.highlights)).toEqual([
      "[[[Volcano]]] eruption Lava flows, Nothing else",
      "Secret [[[volcano]]] base",
      "Weekly digest Various topics, A small [[[volcano]]] woke",
    ]);
    expect(data.requestParameters).toEqual({ slice: 10, offset: 0, length: 3, orderBy: "relevance desc, id asc", q: "volcano", searchDomain: "news" });
    expect(data.uri).toBe("/api/v2/fullsearch/domains/news/smart-elements/");
  });

  it("shows only elements the principal may view, paging after that filter", async () => {
    const { platform, as } = await searchWorld();
    const reader = await as("reader");
    expect((await platform.fullsearch.search(reader, "news", { q: "volcano" })).documents.map((d) => d.properties?.title))
      .toEqual(["Volcano eruption", "Weekly digest"]);
    const second = await platform.fullsearch.search(reader, "news", { q: "volcano", slice: "1", offset: "1" });
    expect(second.documents.map((d) => d.properties?.title)).toEqual(["Weekly digest"]);
    expect(second.requestParameters.length).toBe(1);
    expect((await platform.fullsearch.search(await as("outsider"), "news", { q: "volcano" })).documents).toEqual([]);
  });

  it("follows PUT, DELETE, restore and state changes", async () => {
    const { platform, as } = await searchWorld();
    const admin = await as("admin");
    const titles = async (q: string) => (await platform.fullsearch.search(admin, "news", { q })).documents.map((d) => d.properties?.title);
    await platform.elements.update(admin, "N_BODY", { values: { nw_summary: "A tsunami warning" } });
    expect(await titles("tsunami")).toEqual(["Weekly digest"]);
    await platform.elements.delete(admin, "N_BODY");
    expect(await titles("tsunami")).toEqual([]);
    await platform.trash.restore(admin, "N_BODY", { document: { properties: { status: "alive" } } });
    expect(await titles("tsunami")).toEqual(["Weekly digest"]);
    expect(await titles("published")).toEqual([]);
    await platform.lifecycle.runTransition(admin, "N_TITLE", "publish", {});
    expect(await titles("published")).toEqual(["Volcano eruption"]);
  });

  it("asks the store for pending changes only once per change stamp, and finds a change under the next stamp", async () => {
    const counted = countingStore(createMemoryStore());
    const { platform, as } = await searchWorld({ store: counted.store });
    const admin = await as("admin");
    const search = async (q: string) => {
      const stamp = await counted.store.changes.read();
      counted.reset();
      const titles = (await platform.fullsearch.search(admin, "news", { q, stamp })).documents.map((d) => d.properties?.title);
      return { titles, asked: counted.reads().filter((call) => call === "events.after" || call === "search.generation" || call === "search.domain") };
    };
    expect((await search("volcano")).titles).toHaveLength(3);
    // Nothing committed since: the index is known to be current, its domain known.
    expect(await search("volcano")).toEqual({ titles: ["Volcano eruption", "Secret volcano base", "Weekly digest"], asked: [] });
    await platform.elements.update(admin, "N_BODY", { values: { nw_summary: "A tsunami warning" } });
    const after = await search("tsunami");
    expect(after.titles).toEqual(["Weekly digest"]);
    // Asked again under the new stamp; the domain is a definition, which did not change.
    expect(new Set(after.asked)).toEqual(new Set(["search.generation", "events.after"]));
  });

  it("keeps an answer until the next write, per reader and request, once the index is known current at the stamp", async () => {
    const counted = countingStore(createMemoryStore());
    const { platform, as } = await searchWorld({ store: counted.store });
    const admin = await as("admin");
    const reader = await as("reader");
    const search = async (principal: typeof admin, q: string, slice?: string) => {
      const stamp = await counted.store.changes.read();
      counted.reset();
      const answer = await platform.fullsearch.search(principal, "news", { q, stamp, ...(slice ? { slice } : {}) });
      return { answer, titles: answer.documents.map((d) => d.properties?.title), read: counted.reads().includes("elements.latestMany") };
    };
    // The first search of a stamp brings the index current; the second is kept, the third served from it.
    await search(admin, "volcano");
    const kept = await search(admin, "volcano");
    const again = await search(admin, "volcano");
    expect(again).toEqual({ ...kept, read: false });
    expect(again.answer).toBe(kept.answer);
    // Another reader, another request: answered on their own.
    expect((await search(reader, "volcano")).titles).toEqual(["Volcano eruption", "Weekly digest"]);
    expect((await search(reader, "volcano")).titles).toEqual(["Volcano eruption", "Weekly digest"]);
    expect((await search(admin, "volcano", "1")).titles).toEqual(["Volcano eruption"]);
    // A write: the next stamp is answered afresh.
    await search(admin, "tsunami");
    expect((await search(admin, "tsunami")).titles).toEqual([]);
    await platform.elements.update(admin, "N_BODY", { values: { nw_summary: "A tsunami warning" } });
    expect((await search(admin, "tsunami")).titles).toEqual(["Weekly digest"]);
  });

  it("checks phrases on the text and supports the whole query language", async () => {
    const { platform, as } = await searchWorld();
    const admin = await as("admin");
    const titles = async (q: string) => (await platform.fullsearch.search(admin, "news", { q })).documents.map((d) => d.properties?.title);
    expect(await titles('"small volcano"')).toEqual(["Weekly digest"]);
    expect(await titles('"volcano small"')).toEqual([]);
    expect(await titles("volcano -lava")).toEqual(["Secret volcano base", "Weekly digest"]);
    expect(await titles("geyser or photo")).toEqual(["Photo", "Attached report"]);
    expect(await titles("geys*")).toEqual(["Attached report"]);
    expect(await titles("volc* -lava")).toEqual(["Secret volcano base", "Weekly digest"]);
    expect(await titles("the")).toEqual([]);
  });

  it("stems french and folds accents in a french domain", async () => {
    const { platform, as } = await searchWorld();
    const data = await platform.fullsearch.search(await as("admin"), "notes", { q: "lionne SAUMONS" });
    expect(data.documents.map((d) => d.highlights)).toEqual(["[[[lionnes]]] chassent le [[[saumon]]]"]);
  });

  it("lists the domain's elements in orderBy order without q", async () => {
    const { platform, as } = await searchWorld();
    const data = await platform.fullsearch.search(await as("reader"), "news", { orderBy: "title:desc", slice: "2" });
    expect(data.documents.map((d) => d.properties?.title)).toEqual(["Weekly digest", "Volcano eruption"]);
    expect(data.requestParameters.orderBy).toBe("title desc, id desc");
  });

  it("refuses an unknown domain (FSEA0002) and a malformed query (FSEA0003) with 400", async () => {
    const { platform, as } = await searchWorld();
    const admin = await as("admin");
    expect(await codeOf(platform.fullsearch.search(admin, "nope", { q: "x" }))).toBe("FSEA0002 400");
    expect(await codeOf(platform.fullsearch.search(admin, "news", { q: '"open' }))).toBe("FSEA0003 400");
  });

  it("indexes text files and reports the others as failing", async () => {
    const { platform, as } = await searchWorld();
    const data = await platform.fullsearch.describeDomains(await as("searcher"));
    const news = data.config.find((d) => d.name === "news")!;
    expect(news.database.files).toEqual([
      { status: "D", count: 1, label: "Succeed" },
      { status: "K", count: 1, label: "Failing" },
      { status: "W", count: 0, label: "Waiting" },
    ]);
  });
});

describe("search administration", () => {
  it("describes domains with real counts, dirty ones included", async () => {
    const { platform, as } = await searchWorld();
    const admin = await as("admin");
    await platform.fullsearch.describeDomains(admin);
    await platform.elements.update(admin, "N_BODY", { values: { nw_summary: "changed" } });
    const data = await platform.fullsearch.describeDomains(await as("searcher"));
    expect(data.config.map((d) => d.name)).toEqual(["news", "notes"]);
    const news = data.config[0]!;
    expect(news).toMatchObject({ lang: "en", stem: "english", description: "News" });
    expect(news.configs[0]).toEqual({
      structure: "NEWS",
      fields: [{ field: "nw_title", weight: "A" }, { field: "nw_summary", weight: "B" }, { field: "nw_body", weight: "C" }],
      files: [{ field: "nw_file", weight: "D" }],
      callables: [{ name: "state", weight: "B" }],
    });
    expect(news.database.structures).toEqual({
      NEWS: { totalToIndex: 4, totalIndexed: 4, totalDirty: 1 },
      SECRET: { totalToIndex: 1, totalIndexed: 1, totalDirty: 0 },
    });
    expect(Number(news.database.size.size)).toBeGreaterThan(0);
    expect(data.fileCacheSize.prettySize).toMatch(/^\d+ bytes$/);
    expect(data.nextUpdateDate).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it("counts the files of changed elements as waiting", async () => {
    const { platform, as } = await searchWorld();
    const admin = await as("admin");
    await platform.fullsearch.describeDomains(admin);
    await platform.elements.update(admin, "N_FILE", { values: { nw_title: "Attached report, revised" } });
    const news = (await platform.fullsearch.describeDomains(admin)).config[0]!;
    expect(news.database.files.find((f) => f.status === "W")?.count).toBe(1);
  });

  it("reindexes what is outdated and tells what per domain", async () => {
    const { platform, store, as } = await searchWorld();
    const admin = await as("admin");
    await platform.fullsearch.describeDomains(admin);
    await platform.elements.update(admin, "N_BODY", { values: { nw_summary: "changed" } });
    // A document the index lost, and one it should not hold.
    const index = platform.fullsearch.engine.index;
    index.remove("news", [(await store.elements.latestByName("N_TITLE"))!.initid]);
    index.upsert("news", [{ id: 999, structure: "NEWS", terms: { A: ["ghost"] } }]);
    const report = await platform.fullsearch.reindexOutdated(await as("searcher"));
    expect(report.news?.map((e) => e.title).sort()).toEqual(["Volcano eruption", "Weekly digest"]);
    expect(report.notes).toEqual([]);
    expect(index.has("news", 999)).toBe(false);
    expect(await platform.fullsearch.reindexOutdated(admin)).toEqual({ news: [], notes: [] });
  });

  it("is for fullsearch_administrator and admin only (403 ROUTES0131)", async () => {
    const { platform, as } = await searchWorld();
    expect(await codeOf(platform.fullsearch.describeDomains(await as("reader")))).toBe("ROUTES0131 403");
    expect(await codeOf(platform.fullsearch.reindexOutdated(await as("outsider")))).toBe("ROUTES0131 403");
  });
});

describe("search index lifecycle", () => {
  it("loads a persisted index after a restart instead of rebuilding, then applies later changes", async () => {
    const disk = new Map<string, string>();
    const first = await searchWorld({ searchIndex: createMemorySearchIndex({ disk }) });
    await first.platform.fullsearch.engine.start();
    await first.platform.fullsearch.engine.stop();
    expect(first.log).toEqual(['domain "news": no usable index, building it', 'domain "notes": no usable index, building it']);
    // Same store, new process: an element changes while nothing runs.
    const store = first.store;
    await first.platform.elements.update(await first.as("admin"), "N_IMAGE", { values: { nw_title: "Photo of an iceberg" } });
    const { createPlatform } = await import("../src/platform.ts");
    const log: string[] = [];
    const second = createPlatform({
      store, searchIndex: createMemorySearchIndex({ disk }), searchLog: (line) => log.push(line), searchCallables: { state: () => "" },
    });
    await second.fullsearch.engine.start();
    await second.fullsearch.engine.stop();
    expect(log).toEqual([]);
    const admin = (await second.accounts.principal("admin"))!;
    expect((await second.fullsearch.search(admin, "news", { q: "iceberg" })).documents.map((d) => d.properties?.title)).toEqual(["Photo of an iceberg"]);
  });

  it("builds an index again when the retention pruned events it had not applied", async () => {
    const disk = new Map<string, string>();
    const first = await searchWorld({ searchIndex: createMemorySearchIndex({ disk }) });
    await first.platform.fullsearch.engine.start();
    await first.platform.fullsearch.engine.stop();
    // While nothing runs, an element changes and its event is pruned.
    await first.platform.elements.update(await first.as("admin"), "N_IMAGE", { values: { nw_title: "Photo of an iceberg" } });
    expect(await first.store.events.prune("9999-01-01T00:00:00.000Z")).toBeGreaterThan(0);
    const { createPlatform } = await import("../src/platform.ts");
    const log: string[] = [];
    const second = createPlatform({
      store: first.store, searchIndex: createMemorySearchIndex({ disk }), searchLog: (line) => log.push(line), searchCallables: { state: () => "" },
    });
    await second.fullsearch.engine.start();
    await second.fullsearch.engine.stop();
    expect(log).toContain('domain "news": the event log no longer holds every change since its index was written');
    const admin = (await second.accounts.principal("admin"))!;
    expect((await second.fullsearch.search(admin, "news", { q: "iceberg" })).documents.map((d) => d.properties?.title)).toEqual(["Photo of an iceberg"]);
  });

  it("rebuilds when the domain definition changes, and when another process announces a rebuild", async () => {
    const disk = new Map<string, string>();
    const world = await searchWorld({ searchIndex: createMemorySearchIndex({ disk }) });
    const admin = await world.as("admin");
    await world.platform.fullsearch.search(admin, "news", { q: "x" });
    world.log.length = 0;
    const bundle = searchBundle();
    bundle.searchDomains[0].configs[0].fields.push({ field: "nw_body", weight: "A" });
    const { importBundle } = await import("../src/bundle/import-bundle.ts");
    const before = world.platform.fullsearch.engine.index.coverage("news")!.fingerprint;
    await world.platform.bundles.import(bundle, { readFile: folder(SEARCH_FILES) });
    // The index in place answers while the new one is built in the background.
    expect((await world.platform.fullsearch.search(admin, "news", { q: "volcano" })).documents).not.toEqual([]);
    expect(world.log).toEqual(['domain "news" changed: rebuilding its index in the background']);
    expect(world.platform.fullsearch.engine.index.coverage("news")!.fingerprint).toBe(before);
    await world.platform.fullsearch.engine.rebuild("news");
    expect(world.platform.fullsearch.engine.index.coverage("news")!.fingerprint).not.toBe(before);
    await world.platform.fullsearch.search(admin, "news", { q: "x" });
    expect(world.log).toHaveLength(1);
    // Another process (lineage search reindex) rebuilds with the next generation.
    const { createPlatform } = await import("../src/platform.ts");
    const other = createPlatform({
      store: world.store, searchIndex: createMemorySearchIndex({ disk }), searchLog: () => {}, searchCallables: { state: () => "" },
    });
    await other.fullsearch.engine.rebuild("news", { announce: true });
    world.log.length = 0;
    await world.platform.fullsearch.search(admin, "news", { q: "x" });
    expect(world.log).toEqual(['domain "news" was rebuilt by another process: loading its index']);
    expect(world.platform.fullsearch.engine.index.coverage("news")?.generation).toBe(1);
  });

  it("catches a background rebuild up with the writes made meanwhile, and gives it up on stop", async () => {
    const world = await searchWorld();
    const { engine } = world.platform.fullsearch;
    const admin = await world.as("admin");
    const titles = async (q: string) => (await world.platform.fullsearch.search(admin, "news", { q })).documents.map((d) => d.properties?.title);
    await titles("x");
    const redefine = async (weight: "A" | "B") => {
      const bundle = searchBundle();
      bundle.searchDomains[0].configs[0].fields.push({ field: "nw_body", weight });
      const { importBundle } = await import("../src/bundle/import-bundle.ts");
      await world.platform.bundles.import(bundle, { readFile: folder(SEARCH_FILES) });
    };
    await redefine("A");
    await titles("x");
    await world.platform.elements.update(admin, "N_IMAGE", { values: { nw_title: "Photo of an iceberg" } });
    await engine.rebuild("news");
    expect(await titles("iceberg")).toEqual(["Photo of an iceberg"]);
    const before = engine.index.coverage("news")!.fingerprint;
    await redefine("B");
    await titles("x");
    await engine.stop();
    expect(engine.index.coverage("news")!.fingerprint).toBe(before);
    expect(engine.index.coverage("news\u0000next")).toBeUndefined();
    expect(world.log.at(-1)).toMatch(/rebuilding failed: the rebuild of domain "news" was stopped/);
  });

  it("tells when a snapshot cannot be written, writes it again later, and fails a rebuild that cannot keep it", async () => {
    const memory = createMemorySearchIndex();
    let failing = false;
    const searchIndex = { ...memory, persist: (domain: string) => (failing ? Promise.reject(new Error("disk full")) : memory.persist(domain)) };
    const world = await searchWorld({ searchIndex });
    const { engine } = world.platform.fullsearch;
    await engine.start();
    const expected = { fingerprint: engine.index.coverage("news")!.fingerprint, generation: 0 };
    await world.platform.elements.update(await world.as("admin"), "N_IMAGE", { values: { nw_title: "Photo of an iceberg" } });
    await engine.sync();
    failing = true;
    await engine.stop();
    expect(world.log).toContain('domain "news": writing its snapshot failed: disk full');
    failing = false;
    await engine.stop();
    const applied = engine.index.coverage("news")!.seq;
    expect((await memory.open("news", expected))?.seq).toBe(applied);
    failing = true;
    await expect(engine.rebuild("news", { announce: true })).rejects.toThrow("disk full");
    expect(await world.store.search.generation("news")).toBe(0);
  });
});
