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
  const { members, documents: documentsOf, collections } = domainDocuments;

  async function applyChanges(state: OpenDomain, limit: number, target: string, touched?: Set<number>): Promise<number> {
    let applied = 0;
    let collectionChanged = false;
    while (applied < limit) {
      const from = index.coverage(target)?.seq ?? 0;
      const changes = await store.search.changesAfter(from, Math.min(BATCH, limit - applied));
      if (changes.length === 0) break;
      const rules = await collections(state.domain);
      if (rules && changes.some((change) => rules.sources.has(change.initid))) collectionChanged = true;
      const relevant = [...new Set(changes.filter((change) => state.structures.has(change.structure)).map((change) => change.initid))];
      const alive = await members(state.domain, relevant);
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
    // A collection's own change (a saved search's filter, a folder renamed away) may let in or out any element.
    if (collectionChanged) await reconcile(state, target, touched);
    return applied;
  }

  /**
   * Applies the changes committed beyond the store's horizon (SearchRepository.changesBeyond), the
   * index's position left where it is: they are applied again once the horizon passes them, which
   * reads the elements as they are then. Answers how many there were.
   */
  async function applyBeyond(state: OpenDomain, limit: number, target: string): Promise<number> {
    if (!store.search.changesBeyond) return 0;
    const changes = await store.search.changesBeyond(index.coverage(target)?.seq ?? 0, limit);
    if (changes.length === 0) return 0;
    const rules = await collections(state.domain);
    const relevant = [...new Set(changes.filter((change) => state.structures.has(change.structure)).map((change) => change.initid))];
    const alive = await members(state.domain, relevant);
    const documents = await documentsOf(state.domain, alive);
    const kept = new Set(alive.map((element) => element.initid));
    const gone = relevant.filter((id) => !kept.has(id));
    if (documents.length > 0) index.upsert(target, documents);
    if (gone.length > 0) index.remove(target, gone);
    state.changedSincePersist += relevant.length;
    if (rules && changes.some((change) => rules.sources.has(change.initid))) await reconcile(state, target);
    return changes.length;
  }

  /** Brings an index's documents in line with the domain's members: the missing indexed, the stray removed. */
  async function reconcile(state: OpenDomain, target: string, touched?: Set<number>): Promise<void> {
    const alive = await store.search.aliveInitids([...state.structures]);
    let wanted: Set<number>;
    if (await collections(state.domain)) {
      wanted = new Set();
      for (let start = 0; start < alive.length; start += BATCH) {
        for (const element of await members(state.domain, alive.slice(start, start + BATCH))) wanted.add(element.initid);
      }
    } else {
      // Without collections every alive element of the structures is a member: no element is read to know it.
      wanted = new Set(alive);
    }
    const missing = [...wanted].filter((id) => !index.has(target, id));
    for (let start = 0; start < missing.length; start += BATCH) {
      index.upsert(target, await documentsOf(state.domain, await members(state.domain, missing.slice(start, start + BATCH))));
    }
    const stray = index.ids(target).filter((id) => !wanted.has(id));
    if (stray.length > 0) index.remove(target, stray);
    state.changedSincePersist += missing.length + stray.length;
    if (touched) for (const id of [...missing, ...stray]) touched.add(id);
  }

  function catchUp(name: string, limit: number): Promise<number> {
    return lanes.run(name, async () => {
      const state = open.get(name);
      if (!state) return 0;
      const applied = await applyChanges(state, limit, name);
      return applied + (await applyBeyond(state, limit, name));
    });
  }

  async function reindex(name: string): Promise<ElementRevision[]> {
    const touched = new Set<number>();
    await lanes.run(name, async () => {
      const state = open.get(name);
      if (!state) return;
      await applyChanges(state, Number.MAX_SAFE_INTEGER, name, touched);
      await reconcile(state, name, touched);
    });
    if (touched.size === 0) return [];
    return (await store.elements.latestMany([...touched])).sort(byInitid);
  }

  return { apply: applyChanges, catchUp, reindex };
}
