import type { ElementEvent } from "../events/element-event.ts";
import type { ElementRevision } from "../elements/smart-element.ts";
import { byInitid, type DomainDocuments } from "./domain-documents.ts";
import { BATCH, type EngineState, type OpenDomain } from "./engine-state.ts";
import type { CollectionRules } from "./domain-collections.ts";

/** Catches the open domains' indexes up with the store's event log. */
export interface ChangeFeed {
  /**
   * Applies the events after the position of the index named `target` (the domain's, or its
   * shadow), a batch at a time; adds the elements it reindexed or removed to `touched` when given.
   * The caller holds the target's lane, or owns the shadow.
   */
  apply(state: OpenDomain, limit: number, target: string, touched?: Set<number>): Promise<number>;
  /** Applies pending changes to a domain's index in place, in its lane. */
  catchUp(name: string, limit: number): Promise<number>;
  /** Reindexes what is outdated in an open domain's index: pending changes, missing and stray documents; answers those elements. */
  reindex(name: string): Promise<ElementRevision[]>;
  /**
   * True when the log no longer holds every event after the index's position (the retention
   * pruned some it had not applied): the index must be built again.
   */
  outrun(target: string): Promise<boolean>;
}

/** What a batch of events changed for a domain's index. */
interface EventBatch {
  /** The elements whose document may have changed, with their structure when the event names it. */
  readonly elements: Map<number, string | undefined>;
  /** The elements whose own change may let others in or out of a collection (a saved search, a folder renamed). */
  readonly sources: Set<number>;
}

/**
 * The elements a batch of events changed. A folder's membership event is the folder's own: what it
 * changes for an index is the element added or removed (whose structure the event does not tell).
 */
function eventBatch(events: readonly ElementEvent[]): EventBatch {
  const elements = new Map<number, string | undefined>();
  const sources = new Set<number>();
  for (const event of events) {
    if (event.type === "folder.added" || event.type === "folder.removed") {
      if (event.element !== undefined && !elements.has(event.element)) elements.set(event.element, undefined);
      continue;
    }
    elements.set(event.initid, event.structure);
    sources.add(event.initid);
  }
  return { elements, sources };
}

/** The change feed of a search engine's open domains. */
export function createChangeFeed(shared: EngineState, domainDocuments: DomainDocuments): ChangeFeed {
  const { store, index, lanes, open } = shared;
  const { members, documents: documentsOf, collections } = domainDocuments;

  /**
   * Indexes the batch's elements that are the domain's, removes those no longer are; answers the
   * initids it looked at. In one synchronous step after the reads, with `advance` when given: the
   * index never shows a position without the documents it stands for.
   */
  async function applyBatch(state: OpenDomain, batch: EventBatch, target: string, advance?: number): Promise<number[]> {
    const relevant = [...batch.elements].filter(([, structure]) => structure === undefined || state.structures.has(structure)).map(([initid]) => initid);
    const alive = (await members(state.domain, relevant)).filter((element) => state.structures.has(element.structure));
    const documents = await documentsOf(state.domain, alive);
    const kept = new Set(alive.map((element) => element.initid));
    // An element added to a folder is read to learn its structure: one of another structure is not the index's.
    const changed = relevant.filter((id) => kept.has(id) || batch.elements.get(id) !== undefined || index.has(target, id));
    const gone = changed.filter((id) => !kept.has(id));
    if (documents.length > 0) index.upsert(target, documents);
    if (gone.length > 0) index.remove(target, gone);
    if (advance !== undefined) index.advance(target, advance);
    state.changedSincePersist += changed.length;
    return changed;
  }

  const touchesSources = (rules: CollectionRules | undefined, batch: EventBatch) => rules !== undefined && [...batch.sources].some((id) => rules.sources.has(id));

  async function applyChanges(state: OpenDomain, limit: number, target: string, touched?: Set<number>): Promise<number> {
    let applied = 0;
    let collectionChanged = false;
    while (applied < limit) {
      const from = index.coverage(target)?.seq ?? 0;
      const events = await store.events.after(from, Math.min(BATCH, limit - applied));
      if (events.length === 0) break;
      const batch = eventBatch(events);
      if (touchesSources(await collections(state.domain), batch)) collectionChanged = true;
      const changed = await applyBatch(state, batch, target, events[events.length - 1]!.seq);
      applied += events.length;
      if (touched) for (const id of changed) touched.add(id);
    }
    // A collection's own change (a saved search's filter, a folder renamed away) may let in or out any element.
    if (collectionChanged) await reconcile(state, target, touched);
    return applied;
  }

  /**
   * Applies the events committed beyond the store's horizon (EventLog.beyond), the index's position
   * left where it is: they are applied again once the horizon passes them, which reads the
   * elements as they are then. Answers how many there were.
   */
  async function applyBeyond(state: OpenDomain, limit: number, target: string): Promise<number> {
    if (!store.events.beyond) return 0;
    const events = await store.events.beyond(index.coverage(target)?.seq ?? 0, limit);
    if (events.length === 0) return 0;
    const batch = eventBatch(events);
    await applyBatch(state, batch, target);
    if (touchesSources(await collections(state.domain), batch)) await reconcile(state, target);
    return events.length;
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

  async function outrun(target: string): Promise<boolean> {
    const coverage = index.coverage(target);
    if (!coverage) return false;
    return coverage.seq < (await store.events.oldestSeq()) - 1;
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

  return { apply: applyChanges, catchUp, reindex, outrun };
}
