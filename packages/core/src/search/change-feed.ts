import type { ElementRevision } from "../elements/smart-element.ts";
import { byInitid, type DomainDocuments } from "./domain-documents.ts";
import { BATCH, type EngineState, type OpenDomain } from "./engine-state.ts";

/** Catches the open domains' indexes up with the store's change log. */
export interface ChangeFeed {
  /**
   * Applies pending changes to the index named `target` (the domain's, or its
   * shadow), a batch at a time; adds the elements it reindexed or removed to
   * `touched` when given. The caller holds the target's lane, or owns the shadow.
   */
  apply(state: OpenDomain, limit: number, target: string, touched?: Set<number>): Promise<number>;
  /** Applies pending changes to a domain's index in place, in its lane. */
  catchUp(name: string, limit: number): Promise<number>;
  /** Reindexes what is outdated in an open domain's index: pending changes, missing and stray documents; answers those elements. */
  reindex(name: string): Promise<ElementRevision[]>;
}

/** The change feed of a search engine's open domains. */
export function createChangeFeed(shared: EngineState, domainDocuments: DomainDocuments): ChangeFeed {
  const { store, index, lanes, open } = shared;
  const { aliveLatest, documents: documentsOf } = domainDocuments;

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

  function catchUp(name: string, limit: number): Promise<number> {
    return lanes.run(name, async () => {
      const state = open.get(name);
      return state ? applyChanges(state, limit, name) : 0;
    });
  }

  async function reindex(name: string): Promise<ElementRevision[]> {
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

  return { apply: applyChanges, catchUp, reindex };
}
