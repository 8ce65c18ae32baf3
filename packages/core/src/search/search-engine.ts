import type { ElementRevision } from "../elements/smart-element.ts";
import { createDefinitionsCache, type Definitions } from "../scope/definitions.ts";
import { createRequestScope } from "../scope/create-request-scope.ts";
import { LineageError } from "../errors/lineage-error.ts";
import { SYSTEM_ACCOUNT, systemPrincipal } from "../bundle/system-principal.ts";
import type { ChangeStamp } from "../ports/change-clock.port.ts";
import type { IndexedDocument, SearchHit, SearchIndex } from "../ports/search-index.port.ts";
import type { Store } from "../ports/store.port.ts";
import { analyzerFor, type Analyzer } from "./analyzer.ts";
import { elementText, indexedDocument, prepareElementTexts, type ElementText, type SearchCallables } from "./element-text.ts";
import { createFileTextCache, type FileTextCache } from "./file-text.ts";
import type { DocumentTextExtractor } from "../ports/document-text.port.ts";
import { createIndexLanes } from "./index-lanes.ts";
import { domainFingerprint, domainStructures, withInheritedConfigs, type SearchDomain } from "./search-domain.ts";
import type { SearchQuery } from "./search-query.ts";

export interface SearchEngineOptions {
  readonly store: Store;
  readonly index: SearchIndex;
  readonly callables?: SearchCallables | undefined;
  /** Where rebuilds and indexing problems are told; console by default. */
  readonly log?: ((message: string) => void) | undefined;
  /** How often changes are applied in the background, in ms (500 by default). */
  readonly intervalMs?: number | undefined;
  /**
   * The definitions element texts are rendered with, as committed now: pass
   * the platform's (`platform.definitions`) to share its cache; by default
   * the engine keeps its own, keyed by the store's change clock.
   */
  readonly definitions?: (() => Promise<Definitions>) | undefined;
  /**
   * How long a search waits for its domain's index while it is first loaded or built, in ms
   * (2000 by default); past it, the search is refused with FSEA0004 (503, retry later).
   */
  readonly openWaitMs?: number | undefined;
  /** Reads the text of attached documents that are not text (PDF, ODT, DOCX); none read when not given. */
  readonly documents?: DocumentTextExtractor | undefined;
}

export interface StartOptions {
  /**
   * Open the domains (load snapshots, build what has none) in the background and return at once:
   * a server listens meanwhile, and searches of a domain not open yet wait `openWaitMs` for it.
   */
  readonly background?: boolean;
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
  start(options?: StartOptions): Promise<void>;
  /** The domains whose index is being loaded or built (a first opening, or a rebuild), by name. */
  building(): string[];
  /**
   * Stops the background work (waiting for the work in flight, a rebuild
   * giving up at its next step) and persists what changed; settles once
   * every snapshot is written.
   */
  stop(): Promise<void>;
  /** A recorded domain, or FSEA0002 (400); with the request's stamp, read again only once definitions changed. */
  domain(name: string, stamp?: ChangeStamp): Promise<SearchDomain>;
  domains(): Promise<SearchDomain[]>;
  analyzer(domain: SearchDomain): Analyzer;
  /** Opens a domain's index (loading or building it) without applying pending changes. */
  open(domain: SearchDomain): Promise<void>;
  /** Applies up to `limit` pending changes to every open domain; answers how many changes were applied. */
  sync(limit?: number): Promise<number>;
  /**
   * Candidates of a query in a domain (opened and brought up to date first),
   * taken from the index when asked: iterating them while awaiting reads is safe.
   * With the request's stamp, the store is not asked again for what is pending
   * while nothing was committed since the last search asked it.
   */
  search(domain: SearchDomain, query: SearchQuery, structures?: readonly string[], stamp?: ChangeStamp): Promise<Iterable<SearchHit>>;
  /** Rebuilds a domain's index from the store, then persists it; returns the elements indexed. */
  rebuild(name: string, options?: RebuildOptions): Promise<number>;
  /** The texts elements have in a domain, in their order (read in a few batch calls). */
  texts(domain: SearchDomain, elements: readonly ElementRevision[]): Promise<ElementText[]>;
  /** Reindexes what is outdated in each domain: pending changes, missing and stray documents. */
  reindexOutdated(): Promise<Record<string, ElementRevision[]>>;
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

const isAlive = (element: ElementRevision) => element.status === "alive";
const byInitid = (a: ElementRevision, b: ElementRevision) => a.initid - b.initid;
/** A macrotask: timers and I/O run between two batches of a build, however fast the store answers. */
const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * The search engine over a store and an index.
 *
 * Work that reads the store between changes to an index (applying the change
 * log, opening a snapshot, swapping in a rebuilt index, dropping a domain)
 * runs one task at a time per index (IndexLanes), and changes an index only
 * in synchronous steps, so a snapshot captured between two awaits always
 * matches its sequence number. Builds run one per domain, in batches.
 */
export function createSearchEngine(options: SearchEngineOptions): SearchEngine {
  const { store, index } = options;
  const log = options.log ?? ((message: string) => console.log(`[search] ${message}`));
  const intervalMs = options.intervalMs ?? 500;
  const openWaitMs = options.openWaitMs ?? 2000;
  const callables = options.callables ?? {};
  const definitionsOf = options.definitions ?? definitionsOfStore(store);
  const fileTexts = createFileTextCache(undefined, options.documents);
  const lanes = createIndexLanes();
  const open = new Map<string, OpenDomain>();
  // Loading or building a domain that has no index open yet (or must reload): one at a time per domain.
  const opening = new Map<string, Promise<OpenDomain>>();
  const rebuilding = new Map<string, Promise<number>>();
  let timer: ReturnType<typeof setInterval> | undefined;
  let ticking: Promise<void> | undefined;
  let nextRun = Date.now();
  // Snapshots being written in the background: stop() waits for them.
  const writing = new Set<Promise<void>>();
  // Raised by stop(): a rebuild started before gives up at its next step.
  let epoch = 0;
  const warned = new Set<string>();
  const warn = (message: string) => {
    if (warned.has(message)) return;
    warned.add(message);
    log(message);
  };

  // A domain's configs cover the descendants of their structures: applied whenever a domain is read.
  const storedDomain = async (name: string): Promise<SearchDomain | undefined> => {
    const found = await store.search.domain(name);
    return found && withInheritedConfigs(found, await definitionsOf());
  };
  const storedDomains = async (): Promise<SearchDomain[]> => {
    const [domains, definitions] = await Promise.all([store.search.domains(), definitionsOf()]);
    return domains.map((domain) => withInheritedConfigs(domain, definitions));
  };

  // Domains are definitions: kept while the definitions stamp stays (a search asks for its domain first).
  let knownDomains: { definitions: string; byName: Map<string, SearchDomain> } | undefined;
  const domainNamed = async (name: string, stamp?: ChangeStamp): Promise<SearchDomain> => {
    if (stamp?.definitions && knownDomains?.definitions !== stamp.definitions) knownDomains = { definitions: stamp.definitions, byName: new Map() };
    const known = stamp?.definitions ? knownDomains?.byName.get(name) : undefined;
    if (known) return known;
    const found = await storedDomain(name);
    if (!found) throw new LineageError("FSEA0002", [name]);
    if (stamp?.definitions && knownDomains?.definitions === stamp.definitions) knownDomains.byName.set(name, found);
    return found;
  };
  /**
   * The data stamp each domain's index was last brought up to date at (read before it was): while
   * the stamp of a search is the same, nothing was committed since, so the generation and the
   * change log need not be read again. On a networked database, that is two round trips a search.
   */
  const currentAt = new Map<string, string>();

  async function textsOf(domain: SearchDomain, elements: readonly ElementRevision[]): Promise<ElementText[]> {
    if (elements.length === 0) return [];
    const principal = { ...systemPrincipal(), account: { ...SYSTEM_ACCOUNT, locale: domain.lang } };
    const scope = createRequestScope(store, principal, await definitionsOf());
    const files = await prepareElementTexts(domain, elements, scope, fileTexts);
    const context = { scope, files, callables, warn };
    return elements.map((element) => elementText(element, domain, context));
  }

  async function documentsOf(domain: SearchDomain, elements: readonly ElementRevision[]): Promise<IndexedDocument[]> {
    const texts = await textsOf(domain, elements);
    const analyzer = analyzerFor(domain.stem);
    return elements.map((element, i) => indexedDocument(element, texts[i]!, analyzer));
  }

  /** The latest revisions of these lineages that are alive, by initid, in one read. */
  async function aliveLatest(initids: readonly number[]): Promise<ElementRevision[]> {
    if (initids.length === 0) return [];
    return (await store.elements.latestMany([...new Set(initids)])).filter(isAlive).sort(byInitid);
  }

  /**
   * Applies pending changes to the index named `target` (the domain's, or its
   * shadow), a batch at a time; adds the elements it reindexed or removed to
   * `touched` when given. The caller holds the target's lane, or owns the shadow.
   */
  async function applyChanges(state: OpenDomain, limit: number, target: string, touched?: Set<number>): Promise<number> {
    let applied = 0;
    while (applied < limit) {
      const from = index.coverage(target)?.seq ?? 0;
      const changes = await store.search.changesAfter(from, Math.min(BATCH, limit - applied));
      if (changes.length === 0) break;
      const relevant = [...new Set(changes.filter((change) => state.structures.has(change.structure)).map((change) => change.initid))];
      const alive = await aliveLatest(relevant);
      const documents = await documentsOf(state.domain, alive);
      const kept = new Set(alive.map((element) => element.initid));
      const gone = relevant.filter((id) => !kept.has(id));
      // In one synchronous step: the index never shows a sequence number without the documents it stands for.
      if (documents.length > 0) index.upsert(target, documents);
      if (gone.length > 0) index.remove(target, gone);
      index.advance(target, changes[changes.length - 1]!.seq);
      applied += changes.length;
      state.changedSincePersist += relevant.length;
      if (touched) for (const id of relevant) touched.add(id);
    }
    return applied;
  }

  /** Applies pending changes to a domain's index in place, in its lane. */
  function catchUp(name: string, limit: number): Promise<number> {
    return lanes.run(name, async () => {
      const state = open.get(name);
      return state ? applyChanges(state, limit, name) : 0;
    });
  }

  /**
   * Builds a domain's index under its shadow name, in batches, then catches
   * it up with the changes made meanwhile and makes it the domain's index.
   */
  async function build(state: OpenDomain, generation: number, onProgress?: RebuildProgress): Promise<number> {
    const { name } = state.domain;
    const shadow = shadowOf(name);
    const startedIn = epoch;
    const stopped = () => {
      if (epoch !== startedIn) throw new Error(`the rebuild of domain "${name}" was stopped`);
    };
    // Changes after this point are applied once the build is over: none is missed.
    const seq = await store.search.lastSeq();
    const all = await store.search.aliveInitids([...state.structures]);
    index.reset(shadow, { fingerprint: state.fingerprint, generation, seq });
    try {
      let done = 0;
      onProgress?.(0, all.length);
      for (let start = 0; start < all.length; start += BATCH) {
        await nextTurn();
        stopped();
        const elements = await aliveLatest(all.slice(start, start + BATCH));
        index.upsert(shadow, await documentsOf(state.domain, elements));
        done += elements.length;
        onProgress?.(done, all.length);
      }
      await nextTurn();
      stopped();
      // Most of the catching up outside the lane, so that searches go on meanwhile; the rest with the swap.
      await applyChanges(state, Number.MAX_SAFE_INTEGER, shadow);
      await lanes.run(name, async () => {
        stopped();
        await applyChanges(state, Number.MAX_SAFE_INTEGER, shadow);
        index.replace(name, shadow);
        state.changedSincePersist = 0;
        open.set(name, state);
      });
      return done;
    } finally {
      // Given up (an error, or stop()): the shadow is forgotten; after the swap this does nothing.
      if (index.coverage(shadow)) index.drop(shadow);
    }
  }

  /** One build of a domain at a time: asked again meanwhile, the build running answers. */
  function building(name: string, task: () => Promise<number>): Promise<number> {
    const running = rebuilding.get(name);
    if (running) return running;
    const started = task().finally(() => rebuilding.delete(name));
    rebuilding.set(name, started);
    return started;
  }

  /** Persists a domain; the answer rejects if the snapshot could not be written (which is also logged). */
  function persist(state: OpenDomain): Promise<void> {
    const name = state.domain.name;
    state.changedSincePersist = 0;
    state.lastPersist = Date.now();
    let written: Promise<void>;
    try {
      // Captured now, whatever happens to the index while it is written.
      written = Promise.resolve(index.persist(name));
    } catch (error) {
      written = Promise.reject(error as Error);
    }
    const settled = written.catch((error: unknown) => {
      log(`domain "${name}": writing its snapshot failed: ${(error as Error).message}`);
      // What the snapshot missed is written next time.
      state.changedSincePersist = Math.max(state.changedSincePersist, 1);
    });
    writing.add(settled);
    void settled.finally(() => writing.delete(settled));
    return written;
  }

  /** Loads a domain's persisted index, or builds it (persisted in the background) when there is no usable one. */
  async function openNow(domain: SearchDomain): Promise<OpenDomain> {
    const { name } = domain;
    const state = openDomain(domain);
    const generation = await store.search.generation(name);
    const loaded = await lanes.run(name, async () => {
      if (!(await index.open(name, { fingerprint: state.fingerprint, generation }))) return false;
      open.set(name, state);
      return true;
    });
    if (loaded) return state;
    log(`domain "${name}": no usable index, building it`);
    await building(name, async () => {
      const count = await build(state, generation);
      void persist(state);
      return count;
    });
    return open.get(name) ?? state;
  }

  /** A domain's first opening, waited for at most `openWaitMs`: past it FSEA0004, the opening going on. */
  async function firstOpening(domain: SearchDomain): Promise<OpenDomain> {
    const task = prepared(domain);
    let timeout: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<undefined>((resolve) => {
      timeout = setTimeout(() => resolve(undefined), openWaitMs);
    });
    try {
      const state = await Promise.race([task, late]);
      if (state) return state;
      task.catch(() => {});
      throw new LineageError("FSEA0004", [domain.name]);
    } finally {
      clearTimeout(timeout);
    }
  }

  /** Opens a domain once, however many ask meanwhile. */
  function opened(domain: SearchDomain): Promise<OpenDomain> {
    const running = opening.get(domain.name);
    if (running) return running;
    const task = openNow(domain).finally(() => opening.delete(domain.name));
    opening.set(domain.name, task);
    return task;
  }

  /**
   * The open state of a domain, current with its recorded definition and
   * generation. A domain whose definition changed keeps answering from its
   * index while the new one is built in the background.
   */
  async function prepared(domain: SearchDomain): Promise<OpenDomain> {
    const { name } = domain;
    const state = open.get(name);
    if (!state) return opened(domain);
    if (rebuilding.has(name) || opening.has(name)) return state;
    if (state.fingerprint !== domainFingerprint(domain)) {
      log(`domain "${name}" changed: rebuilding its index in the background`);
      rebuild(name).catch((error: unknown) => log(`domain "${name}": rebuilding failed: ${(error as Error).message}`));
      return state;
    }
    const generation = await store.search.generation(name);
    // Replaced meanwhile (by a rebuild of ours, which records its generation after the swap): that index is current.
    const now = open.get(name);
    if (now !== state || rebuilding.has(name) || opening.has(name)) return now ?? opened(domain);
    if (index.coverage(name)?.generation !== generation) {
      log(`domain "${name}" was rebuilt by another process: loading its index`);
      return opened(domain);
    }
    return state;
  }

  async function sync(limit = 10_000): Promise<number> {
    let applied = 0;
    const domains = await storedDomains();
    for (const domain of domains) {
      await prepared(domain);
      applied += await catchUp(domain.name, limit);
    }
    const recorded = new Set(domains.map((domain) => domain.name));
    for (const name of [...open.keys()]) {
      if (recorded.has(name)) continue;
      await lanes.run(name, async () => {
        // Recorded since the list was read, and opened by a search meanwhile: kept.
        if (await store.search.domain(name)) return;
        open.delete(name);
        index.drop(name);
      });
    }
    return applied;
  }

  function rebuild(name: string, rebuildOptions: RebuildOptions = {}): Promise<number> {
    return building(name, () => rebuildNow(name, rebuildOptions));
  }

  async function rebuildNow(name: string, rebuildOptions: RebuildOptions): Promise<number> {
    const state = openDomain(await domainNamed(name));
    const current = await store.search.generation(name);
    const generation = rebuildOptions.announce ? current + 1 : current;
    const count = await build(state, generation, rebuildOptions.onProgress);
    await persist(state);
    if (rebuildOptions.announce) await store.search.setGeneration(name, generation);
    return count;
  }

  async function reindexDomain(domain: SearchDomain): Promise<ElementRevision[]> {
    await prepared(domain);
    const { name } = domain;
    const touched = new Set<number>();
    await lanes.run(name, async () => {
      const state = open.get(name);
      if (!state) return;
      await applyChanges(state, Number.MAX_SAFE_INTEGER, name, touched);
      const alive = new Set(await store.search.aliveInitids([...state.structures]));
      const missing = [...alive].filter((id) => !index.has(name, id));
      const elements = await aliveLatest(missing);
      const documents = await documentsOf(state.domain, elements);
      const stray = index.ids(name).filter((id) => !alive.has(id));
      if (documents.length > 0) index.upsert(name, documents);
      if (stray.length > 0) index.remove(name, stray);
      state.changedSincePersist += documents.length + stray.length;
      for (const id of [...missing, ...stray]) touched.add(id);
    });
    if (touched.size === 0) return [];
    return (await store.elements.latestMany([...touched])).sort(byInitid);
  }

  async function runTick(): Promise<void> {
    nextRun = Date.now() + intervalMs;
    try {
      await sync();
      for (const state of open.values()) {
        const due = state.changedSincePersist >= PERSIST_AFTER_CHANGES || (state.changedSincePersist > 0 && Date.now() - state.lastPersist > PERSIST_AFTER_MS);
        if (due) void persist(state);
      }
    } catch (error) {
      log(`applying changes failed: ${(error as Error).message}`);
    }
  }

  /** The background work: a tick still running when the next is due is not doubled, the next one is skipped. */
  function tick(): Promise<void> {
    ticking ??= runTick().finally(() => {
      ticking = undefined;
    });
    return ticking;
  }

  return {
    index,
    store,
    fileTexts,
    async start(startOptions = {}) {
      const domains = await storedDomains();
      if (startOptions.background) {
        for (const domain of domains) {
          prepared(domain).catch((error: unknown) => log(`domain "${domain.name}": opening its index failed: ${(error as Error).message}`));
        }
      } else {
        for (const domain of domains) await prepared(domain);
        // The snapshots of the indexes just built are in place once started (a failed write is logged, and retried later).
        await Promise.all(writing);
        await tick();
      }
      timer ??= setInterval(() => void tick(), intervalMs);
      timer.unref?.();
    },
    building: () => [...new Set([...opening.keys(), ...rebuilding.keys()])].sort(),
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      epoch++;
      await ticking;
      await Promise.all([...rebuilding.values(), ...opening.values()].map((task) => task.catch(() => {})));
      await lanes.idle();
      for (const state of open.values()) if (state.changedSincePersist > 0) void persist(state);
      await Promise.all(writing);
    },
    domain: domainNamed,
    domains: storedDomains,
    analyzer: (domain) => analyzerFor(domain.stem),
    async open(domain) {
      await prepared(domain);
    },
    sync,
    async search(domain, query, structures, stamp) {
      const { name } = domain;
      const current = stamp?.data !== undefined && stamp.data !== "" && currentAt.get(name) === stamp.data && open.has(name);
      if (!current) await (open.has(name) ? prepared(domain) : firstOpening(domain));
      // Read-your-writes: what was committed before the search is in its answer.
      return lanes.run(name, async () => {
        const state = open.get(name);
        if (state && !current) {
          const applied = await applyChanges(state, 2000, name);
          // Fewer than the batch: the index covers every change committed before the stamp was read.
          if (stamp?.data && applied < 2000) currentAt.set(name, stamp.data);
          else currentAt.delete(name);
        }
        return index.search(name, query, structures ? { structures } : {});
      });
    },
    rebuild,
    texts: textsOf,
    async reindexOutdated() {
      const report: Record<string, ElementRevision[]> = {};
      for (const domain of await storedDomains()) report[domain.name] = await reindexDomain(domain);
      return report;
    },
    nextUpdate: () => new Date(timer ? nextRun : Date.now()),
  };
}

/** Definitions as committed now, kept while the store's change clock says they have not changed. */
function definitionsOfStore(store: Store): () => Promise<Definitions> {
  const cache = createDefinitionsCache();
  return () => cache.get(store);
}
