import type { ElementRevision } from "../element/smart-element.ts";
import type { SearchChange, SearchRepository } from "../ports/search-repository.port.ts";
import type { SearchDomain } from "../search/search-domain.ts";

/** Writes a map entry so that the running transaction can undo it. */
export type JournaledPut = <K, V>(map: Map<K, V>, key: K, value: V) => void;

/** The memory store's search repository: domains and change log in maps written through the store's journal. */
export function createMemorySearchRepository(put: JournaledPut, elements: () => Iterable<ElementRevision>): SearchRepository {
  const domains = new Map<string, SearchDomain>();
  const generations = new Map<string, number>();
  const changes = new Map<number, SearchChange>();
  const lastSeq = () => {
    let last = 0;
    for (const change of changes.values()) if (change.seq > last) last = change.seq;
    return last;
  };
  const aliveLatest = (structures: readonly string[]) => {
    const wanted = new Set(structures);
    return [...elements()].filter((e) => !e.fixed && e.status === "alive" && wanted.has(e.structure));
  };
  return {
    domains: () => [...domains.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    domain: (name) => domains.get(name),
    saveDomain: (domain) => put(domains, domain.name, structuredClone(domain)),
    markChanged: (initid, structure) => put(changes, initid, { initid, structure, seq: lastSeq() + 1 }),
    changesAfter: (seq, limit) => [...changes.values()].filter((c) => c.seq > seq).sort((a, b) => a.seq - b.seq).slice(0, limit),
    lastSeq,
    changedAfterByStructure(seq) {
      const counts: Record<string, number> = {};
      for (const change of changes.values()) if (change.seq > seq) counts[change.structure] = (counts[change.structure] ?? 0) + 1;
      return counts;
    },
    aliveCounts(structures) {
      const counts: Record<string, number> = {};
      for (const element of aliveLatest(structures)) counts[element.structure] = (counts[element.structure] ?? 0) + 1;
      return counts;
    },
    aliveInitids: (structures) => aliveLatest(structures).map((e) => e.initid).sort((a, b) => a - b),
    generation: (domain) => generations.get(domain) ?? 0,
    setGeneration: (domain, generation) => put(generations, domain, generation),
  };
}
