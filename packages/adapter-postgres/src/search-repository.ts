import type { SearchChange, SearchDomain, SearchRepository } from "@lineage/core";
import type { DefinitionsCounter } from "./definitions-counter.ts";
import { readHorizon } from "./change-horizon.ts";
import { statement, type SqlClient } from "./sql-client.ts";

const DOMAINS = statement(`select definition from search_domains order by name collate "C"`);
const DOMAIN = statement("select definition from search_domains where name = $1");
const UPSERT_DOMAIN = statement(
  "insert into search_domains (name, definition) values ($1, $2) on conflict (name) do update set definition = excluded.definition",
);
// Numbers from lineage_seq, read up to the horizon only (change-horizon.ts): an index that applied
// the log up to N never meets a change below N committed later.
const MARK = statement(
  `insert into search_changes (initid, structure, seq) values ($1, $2, nextval('lineage_seq'))
   on conflict (initid) do update set structure = excluded.structure, seq = excluded.seq`,
);
const AFTER = statement("select initid, structure, seq::float8 from search_changes where seq > $1 and seq <= $3 order by seq limit $2");
const BEYOND = statement("select initid, structure, seq::float8 from search_changes where seq > $1::float8 and seq > $3::float8 order by seq limit $2");
const LAST = statement("select coalesce(max(seq), 0)::float8 from search_changes where seq <= $1");
const COUNT_AFTER = statement("select structure, count(*)::int from search_changes where seq > $1 and seq <= $2 group by structure");
const ALIVE_COUNTS = statement(
  "select structure, count(*)::int from elements where status = 'alive' and not fixed and structure = any($1::text[]) group by structure",
);
const ALIVE_INITIDS = statement(
  "select initid from elements where status = 'alive' and not fixed and structure = any($1::text[]) order by initid",
);
const GENERATION = statement("select generation from search_domains where name = $1");
const SET_GENERATION = statement("update search_domains set generation = $2 where name = $1");

/** Search domains and the search change log (schema.ts), shared by every node. */
export function createSearchRepository(sql: SqlClient, counter: DefinitionsCounter, inTransaction = false): SearchRepository {
  // A transaction reads its own numbers too, and what is committed, in no order promised to anyone else.
  const horizon = () => (inTransaction ? Promise.resolve(Number.MAX_SAFE_INTEGER) : readHorizon(sql));
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
    async markChanged(initid, structure) {
      await sql.run(MARK, [initid, structure]);
    },
    async changesAfter(seq, limit) {
      const upTo = await horizon();
      const rows = await sql.rows(AFTER, [seq, Number.isFinite(limit) ? limit : null, upTo]);
      return rows.map(([initid, structure, n]): SearchChange => ({ initid: initid as number, structure: structure as string, seq: n as number }));
    },
    async changesBeyond(seq, limit) {
      if (inTransaction) return [];
      const upTo = await horizon();
      const rows = await sql.rows(BEYOND, [seq, Number.isFinite(limit) ? limit : null, upTo]);
      return rows.map(([initid, structure, n]): SearchChange => ({ initid: initid as number, structure: structure as string, seq: n as number }));
    },
    async lastSeq() {
      const [row] = await sql.rows(LAST, [await horizon()]);
      return row![0] as number;
    },
    async changedAfterByStructure(seq) {
      return Object.fromEntries(await sql.rows(COUNT_AFTER, [seq, await horizon()]));
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
