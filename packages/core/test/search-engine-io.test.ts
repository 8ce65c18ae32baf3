import { afterEach, describe, expect, it } from "vitest";
import { importBundle } from "../src/bundle/import-bundle.ts";
import { createPlatform } from "../src/platform.ts";
import type { Store } from "../src/ports/store.port.ts";
import { createMemorySearchIndex } from "../src/search/memory-search-index.ts";
import { createSearchEngine, type SearchEngine } from "../src/search/search-engine.ts";
import { createMemoryStore } from "../src/testing/index.ts";
import { bytes, countingHasher, folder, tickingClock, type RawBundle } from "../src/testing/bundle-helpers.ts";

const BOOKS = 12;

/** Books whose indexed text needs other elements (authors), an enumerate (genres) and vault files (notes). */
function libraryBundle(): RawBundle {
  return {
    accounts: { users: [{ login: "admin", roles: ["admin"] }] },
    enumerates: { GENRES: [{ key: "sf", label: "Science fiction" }, { key: "crime", label: "Crime novel" }] },
    structures: [
      { name: "AUTHOR", titleField: "au_name", fields: [{ id: "au_name", type: "text" }] },
      {
        name: "BOOK", titleField: "bk_title",
        fields: [
          { id: "bk_title", type: "text" },
          { id: "bk_author", type: "docid", structure: "AUTHOR" },
          { id: "bk_genre", type: "enum", enum: "GENRES" },
          { id: "bk_notes", type: "file" },
        ],
      },
    ],
    elements: [
      { structure: "AUTHOR", name: "A_ANN", values: { au_name: "Ann Leckie" } },
      { structure: "AUTHOR", name: "A_IAN", values: { au_name: "Ian Rankin" } },
      ...Array.from({ length: BOOKS }, (_, i) => ({
        structure: "BOOK", name: `B_${i}`,
        values: { bk_title: `Book number ${i}`, bk_author: i % 2 ? "A_IAN" : "A_ANN", bk_genre: i % 2 ? "crime" : "sf", bk_notes: { file: `files/notes-${i}.md` } },
      })),
    ],
    searchDomains: [{
      name: "books", lang: "en", stem: "english",
      configs: [{
        structure: "BOOK",
        fields: [{ field: "bk_title", weight: "A" }, { field: "bk_author", weight: "B" }, { field: "bk_genre", weight: "C" }],
        files: [{ field: "bk_notes", weight: "D" }], callables: [],
      }],
    }],
  };
}

const libraryFiles = () => Object.fromEntries(Array.from({ length: BOOKS }, (_, i) => [`files/notes-${i}.md`, bytes(`Notes on volume ${i}`)]));

/**
 * A store counting the calls made on its own repositories (not a
 * transaction's), whose event log reads can be held at a gate or made to fail.
 */
function instrumented(inner: Store) {
  const calls = new Map<string, number>();
  let gate: Promise<void> | undefined;
  let failure: Error | undefined;
  let inFlight = 0;
  let mostInFlight = 0;
  const count = (name: string) => calls.set(name, (calls.get(name) ?? 0) + 1);
  const wrap = <T extends object>(area: string, repo: T): T => new Proxy(repo, {
    get(target, key) {
      const value = Reflect.get(target, key) as unknown;
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        count(`${area}.${String(key)}`);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  const search = wrap("search", inner.search);
  const store: Store = {
    ...inner,
    elements: wrap("elements", inner.elements),
    vault: wrap("vault", inner.vault),
    search,
    events: {
      ...inner.events,
      async after(seq, limit, filter) {
        count("events.after");
        inFlight++;
        mostInFlight = Math.max(mostInFlight, inFlight);
        try {
          await gate;
          if (failure) throw failure;
          return await inner.events.after(seq, limit, filter);
        } finally {
          inFlight--;
        }
      },
    },
  };
  return {
    store,
    calls: (name: string) => calls.get(name) ?? 0,
    reset: () => calls.clear(),
    hold() {
      let open = () => {};
      gate = new Promise<void>((resolve) => (open = resolve));
      return () => {
        gate = undefined;
        open();
      };
    },
    fail: (error: Error | undefined) => void (failure = error),
    inFlight: () => inFlight,
    mostInFlight: () => mostInFlight,
  };
}

async function library() {
  const io = instrumented(createMemoryStore());
  const platform = createPlatform({ store: io.store, clock: tickingClock(), hasher: countingHasher(), searchLog: () => {} });
  await platform.bundles.import(libraryBundle(), { readFile: folder(libraryFiles()) });
  const admin = (await platform.accounts.principal("admin"))!;
  return { io, platform, admin };
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("search engine reads in batches", () => {
  it("indexes docid display values, enumerate labels and file texts of a batch in a few reads, whatever its size", async () => {
    const { io, platform, admin } = await library();
    const { engine } = platform.fullsearch;
    io.reset();
    await engine.start();
    await engine.stop();
    expect(io.calls("elements.latest")).toBe(0);
    expect(io.calls("elements.latestMany")).toBe(1);
    expect(io.calls("elements.byIds")).toBe(1);
    expect(io.calls("vault.files")).toBe(1);
    // Contents one by one (the vault reads no batch), each once.
    expect(io.calls("vault.read")).toBe(BOOKS);
    const titles = async (q: string) => (await platform.fullsearch.search(admin, "books", { q, slice: "all" })).documents.map((d) => d.properties?.title);
    expect(await titles("rankin crime")).toHaveLength(BOOKS / 2);
    expect(await titles('"science fiction" leckie')).toHaveLength(BOOKS / 2);
    expect(await titles("volume 7")).toEqual(["Book number 7"]);

    for (let i = 0; i < BOOKS; i++) await platform.elements.update(admin, `B_${i}`, { values: { bk_title: `Volume ${i}` } });
    io.reset();
    await engine.sync();
    expect(io.calls("elements.latest")).toBe(0);
    expect(io.calls("elements.latestMany")).toBe(1);
    expect(io.calls("elements.byIds")).toBe(1);
    expect(io.calls("vault.read")).toBe(0);
    expect(await titles("volume 3 rankin")).toEqual(["Volume 3"]);
  });

  it("reads a page of hits in one batch and renders it with one more per scope", async () => {
    const { io, platform, admin } = await library();
    await platform.fullsearch.engine.start();
    io.reset();
    const page = await platform.fullsearch.search(admin, "books", { q: "book", slice: "5", offset: "2" });
    expect(page.documents).toHaveLength(5);
    expect(page.documents.every((d) => d.highlights.includes("[[[Book]]]"))).toBe(true);
    expect(io.calls("elements.latest")).toBe(0);
    expect(io.calls("elements.latestMany")).toBe(1);
    // The reader's scope (display values of the page) and the domain's (its texts, for highlights).
    expect(io.calls("elements.byIds")).toBe(2);
    io.reset();
    const phrases = await platform.fullsearch.search(admin, "books", { q: '"crime novel" book' });
    expect(phrases.documents).toHaveLength(BOOKS / 2);
    expect(io.calls("elements.latestMany")).toBe(1);
    expect(io.calls("elements.byIds")).toBe(2);
    await platform.fullsearch.engine.stop();
  });
});

describe("search engine background work", () => {
  let engine: SearchEngine | undefined;
  afterEach(async () => {
    await engine?.stop();
    engine = undefined;
  });

  it("never runs two ticks at once, and stop() waits for the one in flight", async () => {
    const { io } = await library();
    const log: string[] = [];
    engine = createSearchEngine({ store: io.store, index: createMemorySearchIndex(), log: (line) => log.push(line), intervalMs: 5 });
    await engine.start();
    const ticks = () => io.calls("search.domains");
    const started = ticks();
    const release = io.hold();
    try {
      await wait(60);
      expect(io.inFlight()).toBe(1);
      expect(ticks() - started).toBe(1);
      let stopped = false;
      const stopping = engine.stop().then(() => (stopped = true));
      await wait(20);
      expect(stopped).toBe(false);
      release();
      await stopping;
    } finally {
      release();
    }
    expect(io.mostInFlight()).toBe(1);
    const before = io.calls("events.after");
    await wait(30);
    expect(io.calls("events.after")).toBe(before);
  });

  it("logs a tick that fails and goes on at the next one", async () => {
    const { io, platform, admin } = await library();
    const log: string[] = [];
    engine = createSearchEngine({ store: io.store, index: createMemorySearchIndex(), log: (line) => log.push(line), intervalMs: 5 });
    await engine.start();
    const before = engine.index.coverage("books")!.seq;
    io.fail(new Error("connection lost"));
    await wait(30);
    expect(log).toContain("applying changes failed: connection lost");
    io.fail(undefined);
    await platform.elements.update(admin, "B_1", { values: { bk_title: "Iceberg" } });
    await wait(30);
    expect(engine.index.coverage("books")!.seq).toBeGreaterThan(before);
  });
});

describe("search engine started in the background", () => {
  it("returns at once; a search waits a while for the index being built, then FSEA0004; the index is there after", async () => {
    const io = instrumented(createMemoryStore());
    const platform = createPlatform({ store: io.store, clock: tickingClock(), hasher: countingHasher(), searchLog: () => {}, searchOpenWaitMs: 30 });
    await platform.bundles.import(libraryBundle(), { readFile: folder(libraryFiles()) });
    const admin = (await platform.accounts.principal("admin"))!;
    const { engine } = platform.fullsearch;
    const release = io.hold();
    await engine.start({ background: true });
    expect(engine.building()).toEqual(["books"]);
    await expect(platform.fullsearch.search(admin, "books", { q: "rankin" })).rejects.toMatchObject({ code: "FSEA0004", status: 503 });
    release();
    while (engine.building().length > 0) await wait(5);
    expect((await platform.fullsearch.search(admin, "books", { q: "rankin" })).documents).toHaveLength(BOOKS / 2);
    await engine.stop();
  });
});
