import type { Database, Statement } from "better-sqlite3";
import { decisiveOrder, type ElementQuery, type OrderTerm } from "@lineage/core";
import { compileFilter } from "./filter-sql.ts";
import { ID_INDEX, INITID_INDEX, KEYED_PROPERTIES, keyedIndexName, type KeyedProperty, type ListScope } from "./list-indexes.ts";
import { READABLE_CONDITION, readableKeys } from "./readable-condition.ts";

/*
 * Orders whose first key has few values, followed by another key (`owner,title`, `state:desc,mdate`):
 * an index of the first key gives groups as large as the list, which sorting by the next key would
 * read whole. Instead the page is read group by group, in the first key's order: the groups before
 * it counted on the first key's index (up to the offset), and within a group the next key's own
 * index walked, entries of other groups left out on the index itself (list indexes hold these keys,
 * list-indexes.ts). A group of a few rows is sorted instead, which costs less than the walk.
 * A filter is tested on the rows counted, walked and sorted in a group; the groups are found on the
 * first key's index unfiltered (a group none of whose rows passes counts none, and is skipped).
 */

/** The first keys read group by group, and their column. */
const GROUPED_KEYS: Readonly<Record<string, string>> = {
  owner: "owner", state: "state", revision: "revision", name: "name", fromname: "structure", fromid: "structure_id",
};

/** A group of fewer rows than this is sorted; a larger one walks the next key's index. */
export const SMALL_GROUP = 2_000;
/** Past this many groups before the page, the page is read as one sorted statement (the first key's values barely repeat). */
const MAX_GROUPS = 2_000;

/** The values a grouped statement binds, by name; the structure of a group when the first key is fromname or fromid. */
interface Parameters {
  readonly status: string;
  readonly structure?: string;
  readonly structures?: string;
  readonly readable?: string;
  readonly value?: unknown;
  readonly group?: unknown;
  readonly limit?: number;
  readonly offset?: number;
  readonly cap?: number;
  /** The filter's values (filter-sql.ts), `@filter0` on. */
  readonly [filterValue: `filter${number}`]: unknown;
}

/** The named placeholder of a filter's n-th value. */
const filterPlaceholder = (index: number) => `@filter${index}`;

/** The statements of a grouped order; exported so that tests can check their query plans. */
export interface GroupedPageSql {
  /** The first group's value (and structure), then the next after `@value`. */
  readonly first: string;
  readonly next: string;
  /** For the values around the nulls, which come first ascending and last descending. */
  readonly firstNotNull: string;
  readonly anyNull: string;
  /** How many rows of the group `@value` there are, counted up to `@cap`. */
  readonly count: string;
  /** The ids of the group `@value` in the rest of the order: walking the next key's index, or sorting the group. */
  readonly walk: string;
  readonly sort: string;
  /** The null group is sorted: fromid's holds the revisions of structures not in the catalog, no one structure's index walks it. */
  readonly sortsNullGroup: boolean;
  /** The first key's direction: nulls come first ascending, last descending. */
  readonly direction: "asc" | "desc";
}

/** The statements of a grouped order, or undefined when the order is not one (list-statement.ts answers it). */
export function groupedPageSql(query: Pick<ElementQuery, "orderBy" | "structures" | "readable" | "filter">): GroupedPageSql | undefined {
  const structures = query.structures;
  const oneStructure = structures?.length === 1;
  const terms = decisiveOrder(query.orderBy, { oneStructure });
  const [first, second] = terms;
  if (first?.kind !== "property" || !Object.hasOwn(GROUPED_KEYS, first.key)) return undefined;
  if (second?.kind !== "property" || second.key === "id" || terms.some((term) => term.kind === "field")) return undefined;
  const rest = terms.slice(1);
  const scope: ListScope = oneStructure ? "structure" : "all";
  // Groups of one structure (fromname, fromid) walk that structure's indexes.
  const byStructure = first.key === "fromname" || first.key === "fromid";
  const walkIndex = indexOfRest(rest, byStructure ? "structure" : scope);
  if (!walkIndex) return undefined;
  const column = GROUPED_KEYS[first.key]!;
  // Any index of the first key finds its groups, read backward descending.
  const keyIndex = first.key === "fromname" ? ID_INDEX.structure : keyedIndexName(first.key as KeyedProperty, "asc", scope);
  const where = ["status = @status", "fixed = 0"];
  if (oneStructure) where.push("structure = @structure");
  // Written `+structure`: a filter on the entries, never a set of ranges to seek (which SQLite would then sort).
  else if (structures) where.push("+structure in (select value from json_each(@structures))");
  if (query.readable) where.push(READABLE_CONDITION.replace("?", "@readable"));
  const live = where.join(" and ");
  const d = first.direction;
  const select = `select ${column}${first.key === "fromid" ? ", structure" : ""} from elements indexed by ${keyIndex} where ${live}`;
  const order = rest.map((term) => `${PROPERTY_COLUMNS[term.key]!} ${term.direction}`).join(", ");
  const filtered = query.filter ? `${live} and ${compileFilter(query.filter, filterPlaceholder).sql}` : live;
  const inGroup = `${filtered} and ${column} is @value`;
  return {
    first: `${select} order by ${column} ${d} limit 1`,
    next: `${select} and ${column} ${d === "asc" ? ">" : "<"} @value order by ${column} ${d} limit 1`,
    firstNotNull: `${select} and ${column} is not null order by ${column} ${d} limit 1`,
    anyNull: `${select} and ${column} is null limit 1`,
    count: `select count(*) from (select 1 from elements indexed by ${keyIndex} where ${inGroup} limit @cap)`,
    walk: `select id from elements indexed by ${walkIndex} where ${byStructure ? `${filtered} and structure = @group` : inGroup}` +
      ` order by ${order} limit @limit offset @offset`,
    sort: `select id from elements indexed by ${keyIndex} where ${inGroup} order by ${order} limit @limit offset @offset`,
    sortsNullGroup: first.key === "fromid",
    direction: first.direction,
  };
}

/** The column of each property a grouped order names after its first key. */
const PROPERTY_COLUMNS: Readonly<Record<string, string>> = {
  id: "id", initid: "initid", title: "title", name: "name", revision: "revision", owner: "owner", state: "state",
  fromname: "structure", fromid: "structure_id", cdate: "created_at", mdate: "modified_at",
};

/** The index of the order after the first key (a keyed property or initid, then the rest), as list-statement.ts picks it. */
function indexOfRest(rest: readonly OrderTerm[], scope: ListScope): string | undefined {
  const [key, next] = rest;
  if (key?.kind !== "property") return undefined;
  if (key.key === "initid") return INITID_INDEX[scope];
  if (!Object.hasOwn(KEYED_PROPERTIES, key.key) || (scope === "structure" && key.key === "fromid")) return undefined;
  const followedById = next?.kind === "property" && next.key === "id";
  const variant = (followedById ? next.direction !== key.direction : key.direction === "asc") ? "asc" : "desc";
  return keyedIndexName(key.key as KeyedProperty, variant, scope);
}

/** A grouped order's statements, prepared. */
export interface GroupedPage {
  /** The page's ids, or undefined past MAX_GROUPS groups (the caller reads it as one sorted statement). */
  ids(query: ElementQuery): number[] | undefined;
}

/** Prepares a grouped order's statements on the connection; run it in a read transaction (one snapshot). */
export function prepareGroupedPage(client: Database, sql: GroupedPageSql): GroupedPage {
  const { direction } = sql;
  const row = (text: string) => client.prepare(text).raw(true) as Statement<[Parameters], [unknown, string?]>;
  const first = row(sql.first);
  const next = row(sql.next);
  const firstNotNull = row(sql.firstNotNull);
  const anyNull = row(sql.anyNull);
  const count = client.prepare(sql.count).pluck() as Statement<[Parameters], number>;
  const walk = client.prepare(sql.walk).pluck() as Statement<[Parameters], number>;
  const sort = client.prepare(sql.sort).pluck() as Statement<[Parameters], number>;
  return {
    ids(query) {
      const base: Parameters = {
        status: query.status,
        ...(query.structures?.length === 1 ? { structure: query.structures[0] } : query.structures ? { structures: JSON.stringify(query.structures) } : {}),
        ...(query.readable ? { readable: readableKeys(query.readable) } : {}),
        ...(query.filter ? Object.fromEntries(compileFilter(query.filter, filterPlaceholder).params.map((value, i) => [`filter${i}`, value])) : {}),
      };
      // Nulls come first ascending, last descending (as SQLite sorts them): the value after a group, nulls included.
      const after = (value: unknown) => {
        if (value === null) return direction === "asc" ? firstNotNull.get(base) : undefined;
        return next.get({ ...base, value }) ?? (direction === "desc" ? anyNull.get(base) : undefined);
      };
      const ids: number[] = [];
      let skip = query.offset;
      let take = query.limit ?? Infinity;
      let group = first.get(base);
      for (let groups = 0; group && take > 0; groups++) {
        if (groups === MAX_GROUPS) return undefined;
        const [value, structure] = group;
        const counted = count.get({ ...base, value, cap: Math.max(skip + 1, SMALL_GROUP) })!;
        if (counted <= skip) {
          skip -= counted;
        } else {
          const parameters = { ...base, value, group: structure ?? value, offset: skip, limit: take === Infinity ? -1 : take };
          const page = counted < SMALL_GROUP || (value === null && sql.sortsNullGroup) ? sort.all(parameters) : walk.all(parameters);
          ids.push(...page);
          take -= page.length;
          skip = 0;
        }
        group = after(value);
      }
      return ids;
    },
  };
}
