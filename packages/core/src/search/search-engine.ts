import type { ElementFilter } from "../queries/element-filter.ts";
import type { ElementRevision } from "../elements/smart-element.ts";
import { createDefinitionsCache, type Definitions } from "../scope/definitions.ts";
import { LineageError } from "../errors/lineage-error.ts";
import type { ChangeStamp } from "../ports/change-clock.port.ts";
import type { SearchHit, SearchIndex } from "../ports/search-index.port.ts";
import type { Store } from "../ports/store.port.ts";
import { analyzerFor, type Analyzer } from "./analyzer.ts";
import { createChangeFeed } from "./change-feed.ts";
import { createDomainDocuments } from "./domain-documents.ts";
import type { ElementText, SearchCallables } from "./element-text.ts";
import type { EngineState } from "./engine-state.ts";
import { createFileTextCache, type FileTextCache } from "./file-text.ts";
import type { DocumentTextExtractor } from "../ports/document-text.port.ts";
import { createIndexLanes } from "./index-lanes.ts";
import { createIndexOpening, type RebuildOptions } from "./index-opening.ts";
import { createIndexPersistence } from "./index-persistence.ts";
import type { IndexPacing } from "./index-pacing.ts";
import { withInheritedConfigs, type SearchDomain } from "./search-domain.ts";
import type { SearchQuery } from "./search-query.ts";

/** What createSearchEngine is given. */
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
   * the platform's (its context's `definitions`) to share its cache; by default
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
  /** How index builds share the event loop with requests (a server's); unpaced by default. */
  readonly pacing?: IndexPacing | undefined;
}

export interface StartOptions {
  /**
   * Open the domains (load snapshots, build what has none) in the background and return at once:
   * a server listens meanwhile, and searches of a domain not open yet wait `openWaitMs` for it.
   */
  readonly background?: boolean;
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
  /**
   * True when a search of this stamp already found the domain's index open and holding every change
   * committed before the stamp: a search of the same stamp would search the very same index.
   */
  current(name: string, stamp: ChangeStamp | undefined): boolean;
  /** Rebuilds a domain's index from the store, then persists it; returns the elements indexed. */
  rebuild(name: string, options?: RebuildOptions): Promise<number>;
  /**
   * Brings a domain's index current with the store (loading its snapshot or building it, then
   * applying every change committed since) and writes its snapshot, so that the next process on the
   * same data loads it and has nothing to build: what `lineage import` leaves. Answers the
   * documents the index holds.
   */
  refresh(name: string): Promise<number>;
  /** The domain's members as a list filter, when its configs name collections (domain-collections.ts); undefined when they name none. */
  members(domain: SearchDomain): Promise<ElementFilter | undefined>;
  /** The texts elements have in a domain, in their order (read in a few batch calls). */
  texts(domain: SearchDomain, elements: readonly ElementRevision[], omit?: (structure: string) => ReadonlySet<string>): Promise<ElementText[]>;
  /** Reindexes what is outdated in each domain: pending changes, missing and stray documents. */
  reindexOutdated(): Promise<Record<string, ElementRevision[]>>;
  readonly index: SearchIndex;
  readonly store: Store;
  readonly fileTexts: FileTextCache;
  /** When the background work runs next. */
  nextUpdate(): Date;
}

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
  const shared: EngineState = { store, index, lanes, open: new Map(), log };
  const { open } = shared;
  let timer: ReturnType<typeof setInterval> | undefined;
  let ticking: Promise<void> | undefined;
  let nextRun = Date.now();

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
  const isCurrent = (name: string, stamp: ChangeStamp | undefined) =>
    stamp?.data !== undefined && stamp.data !== "" && currentAt.get(name) === stamp.data && open.has(name);

  const documents = createDomainDocuments({ store, definitions: definitionsOf, fileTexts, callables, log, folderMembers: (folder) => store.folders.members(folder.initid) });
  const feed = createChangeFeed(shared, documents);
  const persistence = createIndexPersistence(shared);
  const opening = createIndexOpening(shared, { feed, documents, persistence, domain: domainNamed, openWaitMs, pacing: options.pacing });
  const { prepared, firstOpening, rebuild } = opening;
  const { apply: applyChanges, catchUp } = feed;

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

  async function reindexDomain(domain: SearchDomain): Promise<ElementRevision[]> {
    await prepared(domain);
    return feed.reindex(domain.name);
  }

  async function runTick(): Promise<void> {
    nextRun = Date.now() + intervalMs;
    try {
      await sync();
      persistence.persistDue();
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
        await persistence.written();
        await tick();
      }
      timer ??= setInterval(() => void tick(), intervalMs);
      timer.unref?.();
    },
    building: opening.building,
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      opening.halt();
      await ticking;
      await opening.settled();
      await lanes.idle();
      persistence.persistChanged();
      await persistence.written();
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
      const current = isCurrent(name, stamp);
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
    current: isCurrent,
    rebuild,
    async refresh(name) {
      await prepared(await domainNamed(name));
      // A definition changed: the index in place is rebuilt in the background, waited for here.
      await opening.settled();
      const limit = 10_000;
      while ((await catchUp(name, limit)) >= limit);
      const state = open.get(name);
      if (state && state.changedSincePersist > 0) await persistence.persist(state);
      await persistence.written();
      return index.ids(name).length;
    },
    texts: documents.texts,
    members: async (domain) => (await documents.collections(domain))?.filter,
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
