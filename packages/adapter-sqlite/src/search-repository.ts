import type { Database } from "better-sqlite3";
import type { SearchDomain, SearchRepository } from "@lineage/core";
import type { DefinitionsCounter } from "./definitions-counter.ts";

/** Search domains and their generations (schema-search.ts), over prepared statements. */
export function createSearchRepository(client: Database, counter: DefinitionsCounter): SearchRepository {
  const allDomains = client.prepare("select definition from search_domains order by name");
  const domainByName = client.prepare("select definition from search_domains where name = ?");
  const upsertDomain = client.prepare(
    "insert into search_domains (name, definition) values (?, ?) on conflict(name) do update set definition = excluded.definition",
  );
  const generationOf = client.prepare("select generation from search_domains where name = ?").pluck();
  const setGeneration = client.prepare("update search_domains set generation = ? where name = ?");
  const parse = (row: unknown) => JSON.parse((row as { definition: string }).definition) as SearchDomain;
  const placeholders = (n: number) => Array.from({ length: n }, () => "?").join(",");

  return {
    async domains() {
      return allDomains.all().map(parse);
    },
    async domain(name) {
      const row = domainByName.get(name);
      return row === undefined ? undefined : parse(row);
    },
    async saveDomain(domain) {
      counter.raise();
      upsertDomain.run(domain.name, JSON.stringify(domain));
    },
    async aliveCounts(structures) {
      if (structures.length === 0) return {};
      const rows = client.prepare(
        `select structure, count(*) as n from elements where status = 'alive' and fixed = 0 and structure in (${placeholders(structures.length)}) group by structure`,
      ).all(...structures) as { structure: string; n: number }[];
      return Object.fromEntries(rows.map((row) => [row.structure, row.n]));
    },
    async aliveInitids(structures) {
      if (structures.length === 0) return [];
      return client.prepare(
        `select initid from elements where status = 'alive' and fixed = 0 and structure in (${placeholders(structures.length)}) order by initid`,
      ).pluck().all(...structures) as number[];
    },
    async generation(domain) {
      return (generationOf.get(domain) as number | undefined) ?? 0;
    },
    async setGeneration(domain, generation) {
      setGeneration.run(generation, domain);
    },
  };
}
