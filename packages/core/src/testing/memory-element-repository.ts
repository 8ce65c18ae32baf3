import type { ElementRevision, FieldValue, NewRevision } from "../elements/smart-element.ts";
import type { ElementCountQuery, ElementRepository, OrderTerm } from "../ports/element-repository.port.ts";
import { isReadable } from "../access/element-profile.ts";
import type { MemoryContext } from "./memory-context.ts";
import { compareSql, revisionOrder } from "../elements/revision-order.ts";
import { matchesFilter } from "../queries/filter-match.ts";
import { freeze, frozenCopy } from "./memory-tables.ts";

/**
 * The memory store's element revisions and history. List orders follow the HTTP API's (as the
 * SQLite store gives them): NULL, then numbers, then text by code point.
 */
export function createMemoryElementRepository({ tables, nextId }: MemoryContext): ElementRepository {
  const all = () => [...tables.elements.values()];
  const matching = (query: ElementCountQuery) => {
    const wanted = query.structures && new Set(query.structures);
    return all().filter((r) => !r.fixed && r.status === query.status && (!wanted || wanted.has(r.structure)) && isReadable(query.readable, r)
      && (!query.filter || matchesFilter(query.filter, r)));
  };
  const lineage = (initid: number) => all().filter((r) => r.initid === initid);
  const structureId = (name: string): number | null => tables.structures.get(name)?.id ?? null;

  return {
    async insert(revision) {
      const id = nextId("element");
      const stored = toRevision(id, revision.initid ?? id, revision);
      tables.elements.set(id, stored);
      return stored;
    },
    async save(revision) {
      if (!tables.elements.has(revision.id)) throw new Error(`No revision ${revision.id} to save`);
      tables.elements.set(revision.id, toRevision(revision.id, revision.initid, revision));
    },
    async byId(id) {
      return tables.elements.get(id);
    },
    async byIds(ids) {
      const wanted = new Set(ids);
      return all().filter((r) => wanted.has(r.id));
    },
    async latestByName(name) {
      return pickLatest(all().filter((r) => r.name === name && !r.fixed), true);
    },
    async latestByNames(names) {
      const wanted = new Set(names);
      return latestOfEach(all().filter((r) => r.name !== null && wanted.has(r.name) && !r.fixed), (r) => r.name, true);
    },
    async latest(initid) {
      return pickLatest(lineage(initid), false);
    },
    async latestMany(initids) {
      const wanted = new Set(initids);
      return latestOfEach(all().filter((r) => wanted.has(r.initid)), (r) => r.initid, false);
    },
    async revisions(initid) {
      return lineage(initid).sort(newestFirst);
    },
    async byImportKey(key) {
      return pickLatest(all().filter((r) => r.importKey === key), false);
    },
    async countOwnedBy(accountId) {
      return new Set(all().filter((r) => r.owner === accountId).map((r) => r.initid)).size;
    },
    async countByStructure(status, readable) {
      const counts: Record<string, number> = {};
      for (const r of all()) if (!r.fixed && r.status === status && isReadable(readable, r)) counts[r.structure] = (counts[r.structure] ?? 0) + 1;
      return counts;
    },
    async profilesInUse(profiles) {
      const used = new Set(all().filter((r) => !r.fixed && r.profile !== null).map((r) => r.profile));
      return profiles.filter((profile) => used.has(profile));
    },
    async structuresOwned(owner, structures) {
      const owned = new Set(all().filter((r) => !r.fixed && r.owner === owner).map((r) => r.structure));
      return structures.filter((structure) => owned.has(structure));
    },
    async setLineageStatus(initid, status, modifiedAt) {
      const revisions = lineage(initid);
      const latest = pickLatest([...revisions], false);
      for (const revision of revisions) {
        // Fixed revisions are snapshots: only the live one records when the lineage moved.
        const stamp = revision === latest ? modifiedAt : revision.modifiedAt;
        tables.elements.set(revision.id, freeze({ ...revision, status, modifiedAt: stamp }));
      }
    },
    async list(query) {
      const rows = matching(query).sort(revisionOrder(query.orderBy, structureId));
      return rows.slice(query.offset, query.limit === null ? undefined : query.offset + query.limit);
    },
    async count(query) {
      const found = matching(query).length;
      return query.countUpTo === undefined ? found : Math.min(found, query.countUpTo);
    },
    async appendHistory(entry) {
      const seq = nextId("history");
      tables.history.set(seq, { seq, entry: frozenCopy(entry) });
    },
    async history(initid) {
      return [...tables.history.values()]
        .filter(({ entry }) => entry.initid === initid)
        .sort((a, b) => b.entry.revision - a.entry.revision || compareSql(b.entry.date, a.entry.date) || b.seq - a.seq)
        .map(({ entry }) => entry);
    },
  };
}

/** Picks the stored fields only: callers may pass richer objects (e.g. a revision with an id to insert). */
function toRevision(id: number, initid: number, r: NewRevision): ElementRevision {
  return freeze({
    id, initid, revision: r.revision, structure: r.structure, name: r.name, title: r.title, owner: r.owner,
    status: r.status, fixed: r.fixed, state: r.state, values: frozenCopy(r.values),
    createdAt: r.createdAt, modifiedAt: r.modifiedAt, importKey: r.importKey, ownProfile: r.ownProfile, profile: r.profile,
  });
}

/** The live revision when there is one, else the highest; `aliveFirst` prefers a lineage not in the trash. */
function pickLatest(candidates: ElementRevision[], aliveFirst: boolean): ElementRevision | undefined {
  const rank = (r: ElementRevision) => (r.fixed ? 0 : 2) + (aliveFirst && r.status === "alive" ? 1 : 0);
  return candidates.sort((a, b) => rank(b) - rank(a) || newestFirst(a, b))[0];
}

/** pickLatest of each group of candidates sharing a key. */
function latestOfEach<K>(candidates: ElementRevision[], key: (r: ElementRevision) => K, aliveFirst: boolean): ElementRevision[] {
  const groups = new Map<K, ElementRevision[]>();
  for (const candidate of candidates) {
    const group = groups.get(key(candidate));
    if (group) group.push(candidate);
    else groups.set(key(candidate), [candidate]);
  }
  return [...groups.values()].map((group) => pickLatest(group, aliveFirst)!);
}

function newestFirst(a: ElementRevision, b: ElementRevision): number {
  return b.revision - a.revision || b.id - a.id;
}
