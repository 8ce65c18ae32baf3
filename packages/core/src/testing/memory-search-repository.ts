import type { SearchRepository } from "../ports/search-repository.port.ts";
import type { MemoryContext } from "./memory-context.ts";
import { frozenCopy } from "./memory-tables.ts";

/** The memory store's search domains and their generations; saving a domain raises the definitions counter. */
export function createMemorySearchRepository({ tables, definitionsWritten }: MemoryContext): SearchRepository {
  const aliveLatest = (structures: readonly string[]) => {
    const wanted = new Set(structures);
    return [...tables.elements.values()].filter((e) => !e.fixed && e.status === "alive" && wanted.has(e.structure));
  };
  return {
    async domains() {
      return [...tables.searchDomains.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    },
    async domain(name) {
      return tables.searchDomains.get(name);
    },
    async saveDomain(domain) {
      definitionsWritten();
      tables.searchDomains.set(domain.name, frozenCopy(domain));
    },
    async aliveCounts(structures) {
      const counts: Record<string, number> = {};
      for (const element of aliveLatest(structures)) counts[element.structure] = (counts[element.structure] ?? 0) + 1;
      return counts;
    },
    async aliveInitids(structures) {
      return aliveLatest(structures).map((e) => e.initid).sort((a, b) => a - b);
    },
    async generation(domain) {
      return tables.searchGenerations.get(domain) ?? 0;
    },
    async setGeneration(domain, generation) {
      tables.searchGenerations.set(domain, generation);
    },
  };
}
