import { LineageError } from "../errors/lineage-error.ts";
import type { ChangeFeed } from "./change-feed.ts";
import type { DomainDocuments } from "./domain-documents.ts";
import { BATCH, openDomain, type EngineState, type OpenDomain } from "./engine-state.ts";
import type { IndexPersistence } from "./index-persistence.ts";
import { nextBatchSize, UNPACED, type IndexPacing } from "./index-pacing.ts";
import { domainFingerprint, type SearchDomain } from "./search-domain.ts";

/** Progress of a rebuild: elements done out of total. */
export type RebuildProgress = (done: number, total: number) => void;

export interface RebuildOptions {
  readonly onProgress?: RebuildProgress;
  /** Raise the domain's generation, so that other processes on the same store load the new index. */
  readonly announce?: boolean;
}

export interface IndexOpeningOptions {
  readonly feed: ChangeFeed;
  readonly documents: DomainDocuments;
  readonly persistence: IndexPersistence;
  /** A recorded domain, or FSEA0002. */
  readonly domain: (name: string) => Promise<SearchDomain>;
  /** How long a search waits for its domain's first opening, in ms: past it, FSEA0004. */
  readonly openWaitMs: number;
  /** How builds share the event loop with requests; unpaced by default. */
  readonly pacing?: IndexPacing | undefined;
}

/** Opens the domains' indexes (loading their snapshots, or building them) and rebuilds them. */
export interface IndexOpening {
  /**
   * The open state of a domain, current with its recorded definition and
   * generation. A domain whose definition changed keeps answering from its
   * index while the new one is built in the background.
   */
  prepared(domain: SearchDomain): Promise<OpenDomain>;
  /** A domain's first opening, waited for at most `openWaitMs`: past it FSEA0004, the opening going on. */
  firstOpening(domain: SearchDomain): Promise<OpenDomain>;
  /** Rebuilds a domain's index from the store, then persists it; returns the elements indexed. */
  rebuild(name: string, options?: RebuildOptions): Promise<number>;
  /** The domains whose index is being loaded or built (a first opening, or a rebuild), by name. */
  building(): string[];
  /** Makes the rebuilds running give up at their next step. */
  halt(): void;
  /** Settles once every opening and build running has, failed or not. */
  settled(): Promise<unknown>;
}

/** The name a domain's next index is built under, so that searches use the current one until it is complete. */
const shadowOf = (name: string) => `${name}\u0000next`;


/** The openings and builds of a search engine's domains, one at a time per domain. */
export function createIndexOpening(shared: EngineState, options: IndexOpeningOptions): IndexOpening {
  const { store, index, lanes, open, log } = shared;
  const { persist } = options.persistence;
  const { apply: applyChanges } = options.feed;
  const { members, documents: documentsOf } = options.documents;
  const { domain: domainNamed, openWaitMs } = options;
  const pacing = options.pacing ?? UNPACED;
  // Loading or building a domain that has no index open yet (or must reload): one at a time per domain.
  const opening = new Map<string, Promise<OpenDomain>>();
  const rebuilding = new Map<string, Promise<number>>();
  // Raised by halt(), as the engine stops: a rebuild started before gives up at its next step.
  let epoch = 0;

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
    const seq = await store.events.lastSeq();
    const all = await store.search.aliveInitids([...state.structures]);
    index.reset(shadow, { fingerprint: state.fingerprint, generation, seq });
    try {
      let done = 0;
      onProgress?.(0, all.length);
      let size = Number.isFinite(pacing.sliceMs) ? 50 : BATCH;
      let worked = 0;
      for (let start = 0; start < all.length;) {
        await pacing.rest(worked);
        stopped();
        const began = performance.now();
        const elements = await members(state.domain, all.slice(start, start + size));
        index.upsert(shadow, await documentsOf(state.domain, elements));
        start += size;
        done += elements.length;
        onProgress?.(done, all.length);
        worked = performance.now() - began;
        size = nextBatchSize(size, worked, pacing, BATCH);
      }
      await pacing.rest(worked);
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
  function buildOnce(name: string, task: () => Promise<number>): Promise<number> {
    const running = rebuilding.get(name);
    if (running) return running;
    const started = task().finally(() => rebuilding.delete(name));
    rebuilding.set(name, started);
    return started;
  }

  /** Loads a domain's persisted index, or builds it (persisted in the background) when there is no usable one. */
  async function openNow(domain: SearchDomain): Promise<OpenDomain> {
    const { name } = domain;
    const state = openDomain(domain);
    const generation = await store.search.generation(name);
    const loaded = await lanes.run(name, async () => {
      if (!(await index.open(name, { fingerprint: state.fingerprint, generation }))) return false;
      if (await options.feed.outrun(name)) {
        log(`domain "${name}": the event log no longer holds every change since its index was written`);
        return false;
      }
      open.set(name, state);
      return true;
    });
    if (loaded) return state;
    log(`domain "${name}": no usable index, building it`);
    await buildOnce(name, async () => {
      const count = await build(state, generation);
      void persist(state);
      return count;
    });
    return open.get(name) ?? state;
  }

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

  function rebuild(name: string, rebuildOptions: RebuildOptions = {}): Promise<number> {
    return buildOnce(name, () => rebuildNow(name, rebuildOptions));
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

  return {
    prepared,
    firstOpening,
    rebuild,
    building: () => [...new Set([...opening.keys(), ...rebuilding.keys()])].sort(),
    halt() {
      epoch++;
    },
    settled: () => Promise.all([...rebuilding.values(), ...opening.values()].map((task) => task.catch(() => {}))),
  };
}
