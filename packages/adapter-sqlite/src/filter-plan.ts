import type { Database } from "better-sqlite3";
import { decisiveOrder, type ElementCountQuery, type ElementQuery, type FilterCondition, type FilterNode, type OrderTerm } from "@lineage/core";
import { filterSeeks, type Seek, type SeekLookups } from "./filter-seeks.ts";
import type { FieldProbes } from "./filter-sql.ts";
import { groupedPageSql, SMALL_GROUP } from "./grouped-page.ts";
import { KEYED_PROPERTIES, keyedIndexName } from "./list-indexes.ts";
import { walkProbes } from "./list-statement.ts";
import { seekProbeSql, seekSampleSql } from "./seek-statements.ts";
import { createStatementCache } from "./statement-cache.ts";

/*
 * How a filtered list is read: walking its order's index (list-statement.ts, grouped-page.ts), the
 * filter tested on each entry the walk passes, or through a seek (filter-seeks.ts): the rows its
 * index finds, read and sorted (seek-statements.ts).
 *
 * The walk stops at the page's end: to reach it, it passes about reach × total / matches entries
 * (reach: offset + limit; total: the list's rows). A seek reads every row it finds, whatever the
 * page. So a seek costs less when found² < reach × total × w, w the walk's cost of an entry over the
 * seek's cost of a row (COSTS): testing a property on an index entry (the order's index holds the
 * grouped keys and the structure, list-indexes.ts) costs an eighth of reading a row, which the walk
 * does for a field's condition (in `values`, parsed too) and the seek for its sort keys. At a million
 * rows, a page of 20 at offset 10,000, a condition on a state: one that keeps 0.01 % seeks its
 * hundred rows; one that keeps half walks (20,000 entries); one that keeps 1 % walks for a first
 * page (2,000 entries) and seeks at offset 10,000 (10,000 rows, where the walk would pass them all).
 * An order read group by group (grouped-page.ts) counts each group's rows up to SMALL_GROUP first:
 * its walk reaches that far at least.
 *
 * What a seek finds is probed, not estimated: its conditions counted on its index (entries only,
 * rights included) up to the bound past which the walk wins, so that a probe costs a fraction of
 * the read it chose. The total is estimated by the highest id, an upper bound (fixed revisions and
 * the trash count too) that errs toward the seek, whose cost the bound keeps in check.
 *
 * The rule takes the filter to keep what its seek finds; when it holds more (an `and` of two
 * conditions, or more), the rest may keep far fewer, and a walk expected to pass a few thousand
 * entries would pass them all. So when every seek finds too many, a sample of the first rows each
 * finds tells how many of them the whole filter keeps (its share), and the seek is probed again up
 * to the bound for found × share matches: the walk is chosen only when the filter keeps enough.
 *
 * Two orders need no probe: when the order's first key is a seek's own (a date range ordered by
 * that date), the walk reads the range from the order's index, in order (other seeks are still
 * probed: they may find fewer rows than the range holds); when the order is the id
 * and a seek is one equality, its index gives its rows in the id's order (status, key, id; one
 * structure's after another's merged), and the seek reads up to the page's end only.
 */

/** How a filtered list or count is read. */
export type FilterPlan =
  /** No element passes (a field condition that holds in no structure of the list), or none is on the page (it starts past the list's end). */
  | { readonly kind: "none" }
  /** The order's index walked (a count: one statement SQLite plans). */
  | { readonly kind: "walk" }
  | { readonly kind: "seek"; readonly seek: Seek };

/** Chooses how filtered lists and counts are read, probing on the connection. */
export interface FilterPlanner {
  /** The plan of a filtered page (the query's filter has no constant part: constant-filter.ts). */
  page(query: ElementQuery): FilterPlan;
  /** The plan of a filtered count: through the seek that finds the fewest rows, if any. */
  count(query: ElementCountQuery): FilterPlan;
}

/** No probe counts past this many rows: a seek sorts at most this many. */
const MAX_PROBE = 200_000;

/** The rows a sample reads from a seek to tell the density of the whole filter. */
const SAMPLE_SIZE = 128;

/**
 * What reading costs, relative to testing an index entry, as measured on 300,000 rows (a file of
 * 870 MB, SQLite's page cache of 16 MB): reading a row, and parsing its values (JSON) as well.
 */
const COSTS = { entry: 1, row: 8, values: 8, probe: 6 } as const;

/** The properties every order index holds besides its key (list-indexes.ts): the grouped keys and the structure. */
const HELD_PROPERTIES: ReadonlySet<string> = new Set(["owner", "state", "revision", "name", "fromname"]);

/** The bound of a probe: the rows found past which walking to `reach` entries kept costs less than reading them all. */
function probeCap(reach: number, total: number, walkCost: number): number {
  return Math.min(MAX_PROBE, Math.max(1, Math.ceil(Math.sqrt(reach * total * walkCost))));
}

/** Every condition of a filter. */
function conditionsOf(node: FilterNode): FilterCondition[] {
  return node.kind === "group" ? node.nodes.flatMap(conditionsOf) : [node];
}

/**
 * The walk's cost of an entry over the seek's cost of a row. An order's index by a property (its
 * own key's, or initid's) holds the grouped keys and the structure, on which a filter of those is
 * tested without reading rows; any other condition, or order, reads them, and a field's condition
 * parses their values. The seek reads its rows for their sort keys, a field's in their values.
 */
function walkCost(filter: FilterNode, terms: readonly OrderTerm[], probes: FieldProbes | undefined): number {
  const [first] = terms;
  const conditions = conditionsOf(filter);
  const indexed = first?.kind === "property" && (first.key === "initid" || Object.hasOwn(KEYED_PROPERTIES, first.key));
  const held = (c: FilterCondition) => indexed && c.kind === "property" && (HELD_PROPERTIES.has(c.property) || c.property === first.key);
  // A single field's condition a walk of one structure tests on the field's index (list-statement.ts, FieldProbes), its row unread.
  const probed = (c: FilterCondition) => c.kind === "field" && probes !== undefined && c.shape === "single" && c.comparison !== "html" &&
    (!c.structures || c.structures.includes(probes.structure)) && probes.index(c.field) !== undefined;
  const parses = (yes: boolean) => COSTS.row + (yes ? COSTS.values : 0);
  const readsRows = conditions.some((c) => !held(c) && !probed(c));
  const walk = readsRows ? parses(conditions.some((c) => c.kind === "field" && !probed(c))) : conditions.some(probed) ? COSTS.probe : COSTS.entry;
  return walk / parses(terms.some((term) => term.kind === "field"));
}

/** True when walking the order's index reads the seek's rows in order (its first key is the seek's, then the id). */
function walksSeek(seek: Seek, terms: readonly OrderTerm[], query: Pick<ElementQuery, "structures">): boolean {
  const [first, second] = terms;
  if (!first || second?.kind !== "property" || second.key !== "id") return false;
  // A field's index orders one structure's list (several merge theirs, which a seek reads as well).
  if (seek.kind === "field") return first.kind === "field" && first.key === seek.field && query.structures?.length === 1;
  return first.kind === "property" && first.key === seek.property;
}

/**
 * True when the seek's index gives its rows in the order (the id's: its entries are status, key,
 * id), so that it reads up to the page's end only; several structures' indexes are merged in order.
 */
function seeksInOrder(seek: Seek, terms: readonly OrderTerm[]): boolean {
  const [first] = terms;
  const [condition, more] = seek.conditions;
  return first?.kind === "property" && first.key === "id" && !more && condition?.operator === "eq";
}

/**
 * The plan of a seek its probe counted whole: none when the page starts past that count, since the
 * seek's conditions are ones every element the filter keeps meets (at a million, reading and sorting
 * the 10,000 rows of a page past the end took 40 to 70 ms).
 */
function sought({ seek, found }: { seek: Seek; found: number }, offset: number): FilterPlan {
  return found <= offset ? { kind: "none" } : { kind: "seek", seek };
}

/** What resolving seeks looks up on a connection (filter-seeks.ts), its statements prepared once. */
export function seekLookups(client: Database): SeekLookups {
  const catalog = client.prepare("select name from structures order by name").pluck();
  // The revisions of a structure the catalog lacks have no structure id (element-repository.ts): found on the fromid index.
  const orphans = client.prepare(
    `select exists (select 1 from elements indexed by ${keyedIndexName("fromid", "asc", "all")} where status = ? and fixed = 0 and structure_id is null)`,
  ).pluck();
  const index = client.prepare("select exists (select 1 from sqlite_master where type = 'index' and name = ?)").pluck();
  return {
    everyStructure: (status) => (orphans.get(status) ? undefined : (catalog.all() as string[])),
    hasIndex: (name) => index.get(name) === 1,
  };
}

/** The planner of a connection, its lookups prepared once, its probes by their SQL. */
export function createFilterPlanner(client: Database): FilterPlanner {
  const lookups = seekLookups(client);
  const highestId = client.prepare("select coalesce(max(id), 0) from elements").pluck();
  const prepared = createStatementCache(client);
  const probe = (query: ElementCountQuery, seek: Seek, cap: number): number => {
    const { sql, params } = seekProbeSql(query, seek, cap);
    return prepared(sql).pluck().get(...params) as number;
  };
  /** The share of a seek's rows the whole filter keeps, from a sample of its first rows (less than one in the sample: half of one). */
  const density = (query: ElementCountQuery, seek: Seek): number => {
    const { sql, params } = seekSampleSql(query, seek, SAMPLE_SIZE);
    const [read, kept] = prepared(sql).raw(true).get(...params) as [number, number];
    return read === 0 ? 1 : Math.max(kept, 0.5) / read;
  };
  /** The seek that finds the fewest rows, fewer than `cap`, with their count; undefined when each finds `cap` or more. */
  const fewest = (query: ElementCountQuery, seeks: readonly Seek[], cap: number) => {
    let best: { seek: Seek; found: number } | undefined;
    for (const seek of seeks) {
      const found = probe(query, seek, best ? best.found : cap);
      if (found < (best ? best.found : cap)) best = { seek, found };
    }
    return best;
  };
  return {
    page(query) {
      const seeks = filterSeeks(query, lookups);
      if (seeks === "none") return { kind: "none" };
      const terms = decisiveOrder(query.orderBy, { oneStructure: query.structures?.length === 1 });
      // A seek the walk reads in order needs no reading of its own; the others may still find fewer rows than the walk passes.
      const candidates = seeks.filter((seek) => !walksSeek(seek, terms, query));
      if (candidates.length === 0) return { kind: "walk" };
      const inOrder = candidates.find((seek) => seeksInOrder(seek, terms));
      if (inOrder) return { kind: "seek", seek: inOrder };
      const total = highestId.get() as number;
      const reach = query.offset + (query.limit ?? total);
      // A grouped order counts its groups' rows up to SMALL_GROUP, filtered: its walk reaches that far.
      // A grouped order's walk reads rows (grouped-page.ts): its filter's fields are not probed.
      const grouped = groupedPageSql(query);
      const probes = grouped ? undefined : walkProbes(query, lookups.hasIndex);
      const cap = probeCap(grouped ? Math.max(reach, SMALL_GROUP) : reach, total, walkCost(query.filter!, terms, probes));
      const best = fewest(query, candidates, cap);
      if (best) return sought(best, query.offset);
      // Each seek finds too many for the rule, if the filter keeps what it finds; one whose rows it keeps few of may not.
      const filtered = conditionsOf(query.filter!).length;
      let sparse: { seek: Seek; found: number } | undefined;
      for (const seek of candidates) {
        // A filter of the seek's conditions only keeps every row it finds.
        if (seek.conditions.length === filtered) continue;
        const share = density(query, seek);
        // Keeping a quarter or more at most doubles the bound: not worth a second probe.
        if (share >= 0.25) continue;
        const bound = Math.min(MAX_PROBE, Math.ceil(cap / Math.sqrt(share)), sparse ? sparse.found : Infinity);
        const found = probe(query, seek, bound);
        if (found < bound) sparse = { seek, found };
      }
      return sparse ? sought(sparse, query.offset) : { kind: "walk" };
    },
    count(query) {
      const seeks = filterSeeks(query, lookups);
      if (seeks === "none") return { kind: "none" };
      if (seeks.length <= 1) return seeks[0] ? { kind: "seek", seek: seeks[0] } : { kind: "walk" };
      return { kind: "seek", seek: fewest(query, seeks, MAX_PROBE)?.seek ?? seeks[0]! };
    },
  };
}
