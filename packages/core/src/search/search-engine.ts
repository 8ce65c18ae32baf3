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
  open(domain: SearchDomain): void;
  /** Applies up to `limit` pending changes to every open domain; returns how many elements were reindexed or removed. */
  sync(limit?: number): number;
  /** Candidates of a query in a domain (opened and brought up to date first). */
  search(domain: SearchDomain, query: SearchQuery, structures?: readonly string[]): Iterable<SearchHit>;
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
  /** The structures whose elements the domain indexes. */
  readonly structures: ReadonlySet<string>;
  changedSincePersist: number;
  lastPersist: number;
}

const openDomain = (domain: SearchDomain): OpenDomain => ({
  domain, fingerprint: domainFingerprint(domain), structures: new Set(domainStructures(domain)), changedSincePersist: 0, lastPersist: Date.now(),
});

/** The name a domain's next index is built under, so that searches use the current one until it is complete. */
const shadowOf = (name: string) => `${name}\u0000next`;

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
  const rebuilding = new Map<string, Promise<number>>();
  // Raised by stop(): a rebuild started before gives up at its next step.
  let epoch = 0;
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

  /**
   * A build in steps, so it can run at once or yield to the event loop
   * between batches. It fills the domain's shadow index, catches up with the
   * changes made meanwhile, then makes it the domain's index.
   */
  function* buildSteps(state: OpenDomain, generation: number): Generator<[number, number], number> {
    const { domain } = state;
    const shadow = shadowOf(domain.name);
    const structures = domainStructures(domain);
    // Changes after this point are applied once the build is over: none is missed.
    const seq = store.search.lastSeq();
    const all = store.search.aliveInitids(structures);
    const total = all.length;
    index.reset(shadow, { fingerprint: state.fingerprint, generation, seq });
    try {
      let done = 0;
      yield [0, total];
      for (let start = 0; start < all.length; start += BATCH) {
        const elements = all.slice(start, start + BATCH).map((id) => store.elements.latest(id)).filter((e): e is ElementRevision => e?.status === "alive");
        index.upsert(shadow, documentsOf(domain, elements));
        done += elements.length;
        yield [done, total];
      }
      applyChanges(state, Number.MAX_SAFE_INTEGER, shadow);
      index.replace(domain.name, shadow);
      state.changedSincePersist = 0;
      return done;
    } finally {
      // Given up (an error, or stop()): the shadow is forgotten; after the swap this does nothing.
      if (index.coverage(shadow)) index.drop(shadow);
    }
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

  /** Opens a domain from its persisted index; undefined (logged) when there is no usable one, to build. */
  function tryOpen(domain: SearchDomain): OpenDomain | undefined {
    const state = openDomain(domain);
    if (!index.open(domain.name, { fingerprint: state.fingerprint, generation: store.search.generation(domain.name) })) {
      log(`domain "${domain.name}": no usable index, building it`);
      return undefined;
    }
    open.set(domain.name, state);
    return state;
  }

  /** Opens a domain, building its index at once when it has no usable one. */
  function openSync(domain: SearchDomain): OpenDomain {
    const opened = tryOpen(domain);
    if (opened) return opened;
    const state = openDomain(domain);
    const steps = buildSteps(state, store.search.generation(domain.name));
    while (!steps.next().done);
    void persist(state);
    open.set(domain.name, state);
    return state;
  }

  /**
   * The open state of a domain, current with its recorded definition and
   * generation. A domain whose definition changed keeps answering from its
   * index while the new one is built in the background.
   */
  function prepared(domain: SearchDomain): OpenDomain {
    const { name } = domain;
    const state = open.get(name);
    if (!state) return openSync(domain);
    if (rebuilding.has(name)) return state;
    if (state.fingerprint !== domainFingerprint(domain)) {
      log(`domain "${name}" changed: rebuilding its index in the background`);
      rebuild(name).catch((error: unknown) => log(`domain "${name}": rebuilding failed: ${(error as Error).message}`));
      return state;
    }
    const generation = store.search.generation(name);
    if (index.coverage(name)?.generation !== generation) {
      log(`domain "${name}" was rebuilt by another process: loading its index`);
      open.delete(name);
      return openSync(domain);
    }
    return state;
  }

  /**
   * Applies pending changes to the domain's index, or to the index named `name` (its shadow);
   * adds the elements it reindexed or removed to `touched` when given.
   */
  function applyChanges(state: OpenDomain, limit: number, name = state.domain.name, touched?: Set<number>): number {
    const { structures } = state;
    let applied = 0;
    while (applied < limit) {
      const from = index.coverage(name)?.seq ?? 0;
      const changes = store.search.changesAfter(from, Math.min(BATCH, limit - applied));
      if (changes.length === 0) break;
      const relevant = changes.filter((change) => structures.has(change.structure));
      if (touched) for (const change of relevant) touched.add(change.initid);
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
    const domains = store.search.domains();
    for (const domain of domains) applied += applyChanges(prepared(domain), limit);
    const recorded = new Set(domains.map((domain) => domain.name));
    for (const name of open.keys()) {
      if (!recorded.has(name)) {
        open.delete(name);
        index.drop(name);
      }
    }
    return applied;
  }

  /** One rebuild of a domain at a time: asked again meanwhile, the rebuild running answers. */
  function rebuild(name: string, rebuildOptions: RebuildOptions = {}): Promise<number> {
    const running = rebuilding.get(name);
    if (running) return running;
    const task = rebuildNow(name, rebuildOptions).finally(() => rebuilding.delete(name));
    rebuilding.set(name, task);
    return task;
  }

  async function rebuildNow(name: string, rebuildOptions: RebuildOptions): Promise<number> {
    const state = openDomain(domainNamed(name));
    const current = store.search.generation(name);
    const generation = rebuildOptions.announce ? current + 1 : current;
    const startedIn = epoch;
    const steps = buildSteps(state, generation);
    for (;;) {
      const step = steps.next();
      if (step.done) {
        open.set(name, state);
        await persist(state);
        if (rebuildOptions.announce) store.transaction(() => store.search.setGeneration(name, generation));
        return step.value;
      }
      rebuildOptions.onProgress?.(...step.value);
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (epoch !== startedIn) {
        steps.return(0);
        throw new Error(`the rebuild of domain "${name}" was stopped`);
      }
    }
  }

  function tick(): void {
    nextRun = Date.now() + intervalMs;
    try {
      sync();
      for (const state of open.values()) {
        const due = state.changedSincePersist >= PERSIST_AFTER_CHANGES || (state.changedSincePersist > 0 && Date.now() - state.lastPersist > PERSIST_AFTER_MS);
        if (due) void persist(state);
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
      for (const domain of store.search.domains()) if (!tryOpen(domain)) await rebuild(domain.name);
      tick();
      timer ??= setInterval(tick, intervalMs);
      timer.unref?.();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      epoch++;
      for (const state of open.values()) if (state.changedSincePersist > 0) void persist(state);
      await Promise.all([...writing, ...[...rebuilding.values()].map((task) => task.catch(() => {}))]);
    },
    domain: domainNamed,
    domains: () => store.search.domains(),
    analyzer: (domain) => analyzerFor(domain.stem),
    open: (domain) => void prepared(domain),
    sync,
    search(domain, query, structures) {
      const state = prepared(domain);
      // Read-your-writes: what was committed before the search is in its answer.
      applyChanges(state, 2000);
      return index.search(domain.name, query, structures ? { structures } : {});
    },
    rebuild,
    text: (domain, element) => elementText(element, domain, textContext(domain)),
    reindexOutdated() {
      const report: Record<string, ElementRevision[]> = {};
      for (const domain of store.search.domains()) {
        const state = prepared(domain);
        const name = domain.name;
        const structures = domainStructures(domain);
        const touched = new Set<number>();
        applyChanges(state, Number.MAX_SAFE_INTEGER, name, touched);
        const alive = new Set(store.search.aliveInitids(structures));
        const missing = [...alive].filter((id) => !index.has(name, id));
        const stray = index.ids(name).filter((id) => !alive.has(id));
        const elements = missing.map((id) => store.elements.latest(id)).filter((e): e is ElementRevision => e !== undefined);
        if (elements.length > 0) index.upsert(name, documentsOf(domain, elements));
        if (stray.length > 0) index.remove(name, stray);
        state.changedSincePersist += elements.length + stray.length;
        for (const id of [...missing, ...stray]) touched.add(id);
        report[name] = [...touched].sort((a, b) => a - b).map((id) => store.elements.latest(id)).filter((e): e is ElementRevision => e !== undefined);
      }
      return report;
    },
    nextUpdate: () => new Date(timer ? nextRun : Date.now()),
  };
}
