import type { ElementRevision } from "../element/smart-element.ts";
import { createReadScope } from "../elements/read-scope.ts";
import { LineageError } from "../errors/lineage-error.ts";
import { SYSTEM_ACCOUNT, systemPrincipal } from "../bundle/system-principal.ts";
import type { SearchHit, SearchIndex } from "../ports/search-index.port.ts";
import type { Store } from "../ports/store.port.ts";
import { analyzerFor, type Analyzer } from "./analyzer.ts";
import { elementText, indexedDocument, type ElementText, type SearchCallables } from "./element-text.ts";
import { createFileTextCache, type FileTextCache } from "./file-text.ts";
import { domainFingerprint, domainStructures, type SearchDomain } from "./search-domain.ts";
import type { SearchQuery } from "./search-query.ts";

export interface SearchEngineOptions {
  readonly store: Store;
  readonly index: SearchIndex;
  readonly callables?: SearchCallables;
  /** Where rebuilds and indexing problems are told; console by default. */
  readonly log?: (message: string) => void;
  /** How often changes are applied in the background, in ms (500 by default). */
  readonly intervalMs?: number;
}

/** Progress of a rebuild: elements done out of total. */
export type RebuildProgress = (done: number, total: number) => void;

export interface RebuildOptions {
  readonly onProgress?: RebuildProgress;
  /** Raise the domain's generation, so that other processes on the same store load the new index. */
  readonly announce?: boolean;
}

/**
 * Keeps the search domains' indexes current: opens (loads or builds) them,
 * applies the store's change log in the background and before each search,
 * persists them now and then, and notices another process's rebuild.
 */
export interface SearchEngine {
  /** Opens every domain (loading snapshots, building what has none) and starts applying changes in the background. */
  start(): Promise<void>;
  /** Stops the background work and persists what changed; settles once every snapshot is written. */
  stop(): Promise<void>;
  /** A recorded domain, or FSEA0002 (400). */
  domain(name: string): SearchDomain;
  domains(): SearchDomain[];
  analyzer(domain: SearchDomain): Analyzer;
  /** Opens a domain's index (loading or building it) without applying pending changes. */
  open(name: string): void;
  /** Applies up to `limit` pending changes to every open domain; returns how many elements were reindexed or removed. */
  sync(limit?: number): number;
  /** Candidates of a query in a domain (opened and brought up to date first). */
  search(name: string, query: SearchQuery, structures?: readonly string[]): Iterable<SearchHit>;
  /** Rebuilds a domain's index from the store, then persists it; returns the elements indexed. */
  rebuild(name: string, options?: RebuildOptions): Promise<number>;
  /** The text an element has in a domain. */
  text(domain: SearchDomain, element: ElementRevision): ElementText;
  /** Reindexes what is outdated in each domain: pending changes, missing and stray documents. */
  reindexOutdated(): Record<string, ElementRevision[]>;
  readonly index: SearchIndex;
  readonly store: Store;
  readonly fileTexts: FileTextCache;
  /** When the background work runs next. */
  nextUpdate(): Date;
}

interface OpenDomain {
  readonly domain: SearchDomain;
  readonly fingerprint: string;
  building: boolean;
  changedSincePersist: number;
  lastPersist: number;
}

const BATCH = 500;
const PERSIST_AFTER_CHANGES = 1000;
const PERSIST_AFTER_MS = 5 * 60_000;

/** The search engine over a store and an index. */
export function createSearchEngine(options: SearchEngineOptions): SearchEngine {
  const { store, index } = options;
  const log = options.log ?? ((message: string) => console.log(`[search] ${message}`));
  const intervalMs = options.intervalMs ?? 500;
  const callables = options.callables ?? {};
  const fileTexts = createFileTextCache();
  const open = new Map<string, OpenDomain>();
  let timer: ReturnType<typeof setInterval> | undefined;
  let nextRun = Date.now();
  // Snapshots being written in the background: stop() waits for them.
  const writing = new Set<Promise<void>>();
  const warned = new Set<string>();
  const warn = (message: string) => {
    if (warned.has(message)) return;
    warned.add(message);
    log(message);
  };

  const domainNamed = (name: string): SearchDomain => {
    const found = store.search.domain(name);
    if (!found) throw new LineageError("FSEA0002", [name]);
    return found;
  };

  const textContext = (domain: SearchDomain) => {
    const principal = { ...systemPrincipal(), account: { ...SYSTEM_ACCOUNT, locale: domain.lang } };
    return { scope: createReadScope(store, principal), files: fileTexts, callables, warn };
  };

  const documentsOf = (domain: SearchDomain, elements: readonly ElementRevision[]) => {
    const context = textContext(domain);
    const analyzer = analyzerFor(domain.stem);
    return elements.map((element) => indexedDocument(element, elementText(element, domain, context), analyzer));
  };

  /** A rebuild in steps, so it can run at once or yield to the event loop between batches. */
  function* buildSteps(state: OpenDomain, generation: number): Generator<[number, number], number> {
    const { domain } = state;
    const structures = domainStructures(domain);
    // Changes after this point are applied once the build is over: none is missed.
    const seq = store.search.lastSeq();
    const all = store.search.aliveInitids(structures);
    const total = all.length;
    index.reset(domain.name, { fingerprint: state.fingerprint, generation, seq });
    let done = 0;
    yield [0, total];
    for (let start = 0; start < all.length; start += BATCH) {
      const elements = all.slice(start, start + BATCH).map((id) => store.elements.latest(id)).filter((e): e is ElementRevision => e?.status === "alive");
      index.upsert(domain.name, documentsOf(domain, elements));
      done += elements.length;
      yield [done, total];
    }
    return done;
  }

  /** Persists a domain; the answer rejects if the snapshot could not be written (which is also logged). */
  function persist(state: OpenDomain): Promise<void> {
    const name = state.domain.name;
    state.changedSincePersist = 0;
    state.lastPersist = Date.now();
    const written = Promise.resolve(index.persist(name));
    const settled = written.catch((error: unknown) => {
      log(`domain "${name}": writing its snapshot failed: ${(error as Error).message}`);
      // What the snapshot missed is written next time.
      state.changedSincePersist = Math.max(state.changedSincePersist, 1);
    });
    writing.add(settled);
    void settled.finally(() => writing.delete(settled));
    return written;
  }

  function openSync(domain: SearchDomain): OpenDomain {
    const state: OpenDomain = { domain, fingerprint: domainFingerprint(domain), building: false, changedSincePersist: 0, lastPersist: Date.now() };
    const generation = store.search.generation(domain.name);
    if (!index.open(domain.name, { fingerprint: state.fingerprint, generation })) {
      log(`domain "${domain.name}": no usable index, building it`);
      const steps = buildSteps(state, generation);
      while (!steps.next().done);
      void persist(state);
    }
    open.set(domain.name, state);
    return state;
  }

  /** The open state of a domain, current with its recorded definition and generation. */
  function prepared(name: string): OpenDomain {
    const domain = domainNamed(name);
    const state = open.get(name);
    if (!state) return openSync(domain);
    if (state.building) return state;
    if (state.fingerprint !== domainFingerprint(domain)) {
      log(`domain "${name}" changed: rebuilding its index`);
      open.delete(name);
      return openSync(domain);
    }
    const generation = store.search.generation(name);
    if (index.coverage(name)?.generation !== generation) {
      log(`domain "${name}" was rebuilt by another process: loading its index`);
      open.delete(name);
      return openSync(domain);
    }
    return state;
  }

  function applyChanges(state: OpenDomain, limit: number): number {
    const name = state.domain.name;
    const structures = new Set(domainStructures(state.domain));
    let applied = 0;
    while (applied < limit) {
      const from = index.coverage(name)?.seq ?? 0;
      const changes = store.search.changesAfter(from, Math.min(BATCH, limit - applied));
      if (changes.length === 0) break;
      const relevant = changes.filter((change) => structures.has(change.structure));
      const latest = relevant.map((change) => store.elements.latest(change.initid));
      const alive = latest.filter((e): e is ElementRevision => e?.status === "alive");
      const gone = relevant.filter((_, i) => latest[i]?.status !== "alive").map((change) => change.initid);
      if (alive.length > 0) index.upsert(name, documentsOf(state.domain, alive));
      if (gone.length > 0) index.remove(name, gone);
      index.advance(name, changes[changes.length - 1]!.seq);
      applied += changes.length;
      state.changedSincePersist += relevant.length;
    }
    return applied;
  }

  function sync(limit = 10_000): number {
    let applied = 0;
    for (const domain of store.search.domains()) {
      const state = prepared(domain.name);
      if (!state.building) applied += applyChanges(state, limit);
    }
    for (const name of open.keys()) {
      if (!store.search.domain(name)) {
        open.delete(name);
        index.drop(name);
      }
    }
    return applied;
  }

  async function rebuild(name: string, rebuildOptions: RebuildOptions = {}): Promise<number> {
    const domain = domainNamed(name);
    const current = store.search.generation(name);
    const generation = rebuildOptions.announce ? current + 1 : current;
    const state: OpenDomain = { domain, fingerprint: domainFingerprint(domain), building: true, changedSincePersist: 0, lastPersist: Date.now() };
    open.set(name, state);
    try {
      const steps = buildSteps(state, generation);
      for (;;) {
        const step = steps.next();
        if (step.done) {
          state.building = false;
          applyChanges(state, Number.MAX_SAFE_INTEGER);
          await persist(state);
          if (rebuildOptions.announce) store.transaction(() => store.search.setGeneration(name, generation));
          return step.value;
        }
        rebuildOptions.onProgress?.(...step.value);
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
    } catch (error) {
      open.delete(name);
      throw error;
    }
  }

  function tick(): void {
    nextRun = Date.now() + intervalMs;
    try {
      sync();
      for (const state of open.values()) {
        const due = state.changedSincePersist >= PERSIST_AFTER_CHANGES || (state.changedSincePersist > 0 && Date.now() - state.lastPersist > PERSIST_AFTER_MS);
        if (due && !state.building) void persist(state);
      }
    } catch (error) {
      log(`applying changes failed: ${(error as Error).message}`);
    }
  }

  return {
    index,
    store,
    fileTexts,
    async start() {
      for (const domain of store.search.domains()) {
        const generation = store.search.generation(domain.name);
        const fingerprint = domainFingerprint(domain);
        if (index.open(domain.name, { fingerprint, generation })) {
          open.set(domain.name, { domain, fingerprint, building: false, changedSincePersist: 0, lastPersist: Date.now() });
        } else {
          log(`domain "${domain.name}": no usable index, building it`);
          await rebuild(domain.name);
        }
      }
      tick();
      timer ??= setInterval(tick, intervalMs);
      timer.unref?.();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      for (const state of open.values()) if (state.changedSincePersist > 0 && !state.building) void persist(state);
      await Promise.all(writing);
    },
    domain: domainNamed,
    domains: () => store.search.domains(),
    analyzer: (domain) => analyzerFor(domain.stem),
    open: (name) => void prepared(name),
    sync,
    search(name, query, structures) {
      const state = prepared(name);
      // Read-your-writes: what was committed before the search is in its answer.
      if (!state.building) applyChanges(state, 2000);
      return index.search(name, query, structures ? { structures } : {});
    },
    rebuild,
    text: (domain, element) => elementText(element, domain, textContext(domain)),
    reindexOutdated() {
      const report: Record<string, ElementRevision[]> = {};
      for (const domain of store.search.domains()) {
        const state = prepared(domain.name);
        if (state.building) continue;
        const name = domain.name;
        const structures = domainStructures(domain);
        const pending = new Set(store.search.changesAfter(index.coverage(name)?.seq ?? 0, Number.MAX_SAFE_INTEGER)
          .filter((c) => structures.includes(c.structure)).map((c) => c.initid));
        applyChanges(state, Number.MAX_SAFE_INTEGER);
        const alive = new Set(store.search.aliveInitids(structures));
        const missing = [...alive].filter((id) => !index.has(name, id));
        const stray = index.ids(name).filter((id) => !alive.has(id));
        const elements = missing.map((id) => store.elements.latest(id)).filter((e): e is ElementRevision => e !== undefined);
        if (elements.length > 0) index.upsert(name, documentsOf(domain, elements));
        if (stray.length > 0) index.remove(name, stray);
        state.changedSincePersist += elements.length + stray.length;
        const touched = new Set([...pending, ...missing, ...stray]);
        report[name] = [...touched].sort((a, b) => a - b).map((id) => store.elements.latest(id)).filter((e): e is ElementRevision => e !== undefined);
      }
      return report;
    },
    nextUpdate: () => new Date(timer ? nextRun : Date.now()),
  };
}
