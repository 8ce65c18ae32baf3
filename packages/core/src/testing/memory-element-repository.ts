import type { ElementRevision, FieldValue, NewRevision } from "../elements/smart-element.ts";
import type { ElementCountQuery, ElementRepository, OrderTerm } from "../ports/element-repository.port.ts";
import { isReadable } from "../access/element-profile.ts";
import type { MemoryContext } from "./memory-context.ts";
import { compareCodePoints } from "../values/code-point-order.ts";
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
      const rows = matching(query);
      const keys = withTieBreak(query.orderBy).map((term) => ({ term, value: sortValue(term, structureId) }));
      rows.sort((a, b) => {
        for (const { term, value } of keys) {
          const order = compareSql(value(a), value(b));
          if (order !== 0) return term.direction === "asc" ? order : -order;
        }
        return 0;
      });
      return rows.slice(query.offset, query.limit === null ? undefined : query.offset + query.limit);
    },
    async count(query) {
      return matching(query).length;
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

/** Terms closed by `id desc` unless they sort on id already, so every order is total. */
function withTieBreak(terms: readonly OrderTerm[]): readonly OrderTerm[] {
  if (terms.some((t) => t.kind === "property" && t.key === "id")) return terms;
  return [...terms, { kind: "property", key: "id", direction: "desc" }];
}

type SqlValue = string | number | null;

function sortValue(term: OrderTerm, structureId: (name: string) => number | null): (r: ElementRevision) => SqlValue {
  if (term.kind === "field") return (r) => fieldSortValue(r.values[term.key]);
  switch (term.key) {
    case "id": return (r) => r.id;
    case "initid": return (r) => r.initid;
    case "title": return (r) => r.title;
    case "name": return (r) => r.name;
    case "revision": return (r) => r.revision;
    case "owner": return (r) => r.owner;
    case "state": return (r) => r.state;
    case "fromname": return (r) => r.structure;
    case "fromid": return (r) => structureId(r.structure);
    case "cdate": return (r) => r.createdAt;
    case "mdate": return (r) => r.modifiedAt;
    case "status": return (r) => r.status;
    default: throw new Error(`Unknown sort property "${term.key}"`);
  }
}

/** A field's value as the API sorts it: multiple values by their JSON text. */
function fieldSortValue(value: FieldValue | undefined): SqlValue {
  if (value === undefined || value === null) return null;
  return typeof value === "object" ? JSON.stringify(value) : value;
}

/** The API's order of values: NULL, then numbers, then text by code point. */
function compareSql(a: SqlValue, b: SqlValue): number {
  const rank = (v: SqlValue) => (v === null ? 0 : typeof v === "number" ? 1 : 2);
  const byRank = rank(a) - rank(b);
  if (byRank !== 0 || a === null || b === null) return byRank;
  if (typeof a === "number" && typeof b === "number") return a - b;
  return compareCodePoints(String(a), String(b));
}
