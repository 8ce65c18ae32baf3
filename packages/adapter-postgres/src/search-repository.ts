import type { SearchDomain, SearchRepository } from "@lineage/core";
import type { DefinitionsCounter } from "./definitions-counter.ts";
import { statement, type SqlClient } from "./sql-client.ts";

const DOMAINS = statement(`select definition from search_domains order by name collate "C"`);
const DOMAIN = statement("select definition from search_domains where name = $1");
const UPSERT_DOMAIN = statement(
  "insert into search_domains (name, definition) values ($1, $2) on conflict (name) do update set definition = excluded.definition",
);
const ALIVE_COUNTS = statement(
  "select structure, count(*)::int from elements where status = 'alive' and not fixed and structure = any($1::text[]) group by structure",
);
const ALIVE_INITIDS = statement(
  "select initid from elements where status = 'alive' and not fixed and structure = any($1::text[]) order by initid",
);
const GENERATION = statement("select generation from search_domains where name = $1");
const SET_GENERATION = statement("update search_domains set generation = $2 where name = $1");

/** Search domains and their generations (schema.ts), shared by every node. */
export function createSearchRepository(sql: SqlClient, counter: DefinitionsCounter): SearchRepository {
  return {
    async domains() {
      return (await sql.rows(DOMAINS)).map((row) => row[0] as SearchDomain);
    },
    async domain(name) {
      const [row] = await sql.rows(DOMAIN, [name]);
      return row?.[0] as SearchDomain | undefined;
    },
    async saveDomain(domain) {
      await counter.raise();
      await sql.run(UPSERT_DOMAIN, [domain.name, JSON.stringify(domain)]);
    },
    async aliveCounts(structures) {
      if (structures.length === 0) return {};
      return Object.fromEntries(await sql.rows(ALIVE_COUNTS, [structures]));
    },
    async aliveInitids(structures) {
      if (structures.length === 0) return [];
      return (await sql.rows(ALIVE_INITIDS, [structures])).map((row) => row[0] as number);
    },
    async generation(domain) {
      const [row] = await sql.rows(GENERATION, [domain]);
      return (row?.[0] as number | undefined) ?? 0;
    },
    async setGeneration(domain, generation) {
      await sql.run(SET_GENERATION, [domain, generation]);
    },
  };
}
