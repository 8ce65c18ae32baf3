import { decisiveOrder, type ElementQuery, grantsOwned, readableKeys } from "@lineage/core";
import { filterCondition } from "./filter-sql.ts";
import { sortKey, STRUCTURE } from "./list-indexes.ts";
import { readableCondition } from "./readable-condition.ts";
import { filterList, orderKeys, type ListShape } from "./list-statement.ts";
import { statement, type SqlClient, type Statement } from "./sql-client.ts";

/*
 * Orders whose first key has few values, followed by another key (`owner,title`, `state:desc,mdate`):
 * an index of the first key gives groups as large as the list, which sorting by the next key would
 * read whole. Instead the page is read group by group, in the first key's order, in one snapshot:
 * the groups before it counted on the first key's index (up to the offset), and within a group the
 * next key's own index walked, entries of other groups left out on the index itself (list indexes
 * hold these keys, list-indexes.ts), or the group's rows sorted when PostgreSQL finds that cheaper.
 */

/** The first keys read group by group: their column and how they sort. */
const GROUPED_KEYS: Readonly<Record<string, { column: string; text: boolean; nullable: boolean }>> = {
  owner: { column: "owner", text: false, nullable: false },
  state: { column: "state", text: true, nullable: true },
  revision: { column: "revision", text: false, nullable: false },
  name: { column: "name", text: true, nullable: true },
  fromname: { column: "structure", text: true, nullable: false },
  fromid: { column: "structure_id", text: false, nullable: true },
};

/** Past this many groups before the page, the page is read as one sorted statement (the first key's values barely repeat). */
const MAX_GROUPS = 2_000;

/**
 * This many groups of fewer than MIN_GROUP_ROWS rows end the reading by groups too (the page read
 * as one sorted statement): each group costs two statements, and a key whose values barely repeat
 * (names) would pass MAX_GROUPS of them first. Measured on 30,000 rows, `name:desc,mdate` at offset
 * 2,995: 5.3 s through 2,000 groups of one element each, 0.1 s sorted.
 */
const FEW_GROUPS = 20;
const MIN_GROUP_ROWS = 100;

/**
 * A grouped order's statements; their parameters: $1 status, $2 the structure(s) when the list has
 * some, the rights when it has some, the filter's values when it has one, then their own.
 */
export interface GroupedPage {
  /** The page's ids, or undefined past MAX_GROUPS groups (the caller reads it as one sorted statement). */
  ids(sql: SqlClient, query: ElementQuery): Promise<number[] | undefined>;
}

/** The statements of a grouped order, exported so that tests can check their plans; undefined when the order is not one. */
export function groupedPageSql(query: ListShape) {
  const structures = query.structures;
  const oneStructure = structures?.length === 1;
  const terms = decisiveOrder(query.orderBy, { oneStructure });
  const [first, second] = terms;
  if (first?.kind !== "property" || !Object.hasOwn(GROUPED_KEYS, first.key)) return undefined;
  if (second?.kind !== "property" || second.key === "id" || terms.some((term) => term.kind === "field")) return undefined;
  const how = GROUPED_KEYS[first.key]!;
  const { column } = how;
  const compared = how.text ? `${column} collate "C"` : column;
  const readable = query.readable === undefined ? "" : ` and ${readableCondition(structures ? "$3" : "$2", grantsOwned(query.readable))}`;
  // The filter's values follow the rights: every statement of the order narrows its groups and rows by it.
  const filterValues: unknown[] = [];
  const first$ = (structures ? 3 : 2) + (query.readable === undefined ? 0 : 1);
  const filter = query.filter === undefined ? "" : ` and ${filterCondition(query.filter, "elements", filterList(query), (value) => {
    filterValues.push(value);
    return `$${first$ + filterValues.length - 1}`;
  })}`;
  const live = `status = $1 and not fixed${oneStructure ? ` and ${STRUCTURE} = $2` : structures ? ` and ${STRUCTURE} = any($2::text[])` : ""}${readable}${filter}`;
  const n = first$ + filterValues.length;
  const d = first.direction;
  const select = `select ${column}${first.key === "fromid" ? ", structure" : ""} from elements where ${live}`;
  const ordered = `order by ${sortKey(column, how, d)} limit 1`;
  const rest = orderKeys(terms.slice(1));
  // A group of one structure (fromname, fromid) is that structure's list: its own indexes walk it.
  const byStructure = first.key === "fromname" || first.key === "fromid";
  // The group's value is the next parameter, but for the null group, which has none.
  const inGroup = (isNull: boolean) => `${live} and ${isNull ? `${column} is null` : `${compared} = $${n}`}`;
  const after = (isNull: boolean, i: number) => `$${isNull ? n + i - 1 : n + i}`;
  const page = (isNull: boolean) => `select id from elements where ${byStructure && !isNull ? `${live} and ${STRUCTURE} = $${n}` : inGroup(isNull)}` +
    ` order by ${rest} limit ${after(isNull, 1)} offset ${after(isNull, 2)}`;
  // In the first key's index order, as every statement here, so that PostgreSQL reads them from it, never scans for
  // the first match (`is null` does not make the key a constant of the plan, as `=` does: hence the key in the order).
  const groupOrder = `order by ${sortKey(column, how, "asc")}, id desc`;
  const count = (isNull: boolean) =>
    `select count(*)::int from (select 1 from elements where ${inGroup(isNull)} ${groupOrder} limit ${after(isNull, 1)}) as g`;
  return {
    filterValues,
    direction: d,
    byStructure,
    nullable: how.nullable,
    first: `${select} ${ordered}`,
    next: `${select} and ${compared} ${d === "asc" ? ">" : "<"} $${n} ${ordered}`,
    firstNotNull: `${select} and ${column} is not null ${ordered}`,
    anyNull: `${select} and ${column} is null ${groupOrder} limit 1`,
    count: count(false),
    countNull: count(true),
    page: page(false),
    pageNull: page(true),
  };
}

/** A grouped order's page reader, or undefined when the order is not one. */
export function groupedPage(query: ListShape): GroupedPage | undefined {
  const sql = groupedPageSql(query);
  if (!sql) return undefined;
  const s = (text: string): Statement => statement(text, { unnamed: true });
  const [first, next, firstNotNull, anyNull, count, countNull, page, pageNull] =
    [sql.first, sql.next, sql.firstNotNull, sql.anyNull, sql.count, sql.countNull, sql.page, sql.pageNull].map(s) as Statement[];
  return {
    async ids(client, query) {
      const base: unknown[] = query.structures === undefined ? [query.status] : [query.status, query.structures.length === 1 ? query.structures[0] : query.structures];
      if (query.readable) base.push(readableKeys(query.readable));
      base.push(...sql.filterValues);
      const row = async (s: Statement, values: unknown[] = []) => (await client.rows(s, [...base, ...values]))[0] as [unknown, string?] | undefined;
      // Nulls come first ascending, last descending: the group after a group, nulls included.
      const after = async (value: unknown) => {
        if (value === null) return sql.direction === "asc" ? row(firstNotNull!) : undefined;
        return (await row(next!, [value])) ?? (sql.direction === "desc" && sql.nullable ? row(anyNull!) : undefined);
      };
      const ids: number[] = [];
      let skip = query.offset;
      let take = query.limit ?? Infinity;
      let group = await row(first!);
      let small = 0;
      for (let groups = 0; group && take > 0; groups++) {
        if (groups === MAX_GROUPS || small === FEW_GROUPS) return undefined;
        const [value, structure] = group;
        const counted = skip === 0 ? Infinity : ((await row(value === null ? countNull! : count!, value === null ? [skip + 1] : [value, skip + 1]))![0] as number);
        if (counted <= skip) {
          skip -= counted;
          if (counted < MIN_GROUP_ROWS) small++;
        } else {
          const key = sql.byStructure && value !== null ? structure ?? value : value;
          const limit = take === Infinity ? null : take;
          const found = await client.rows(value === null ? pageNull! : page!, [...base, ...(value === null ? [] : [key]), limit, skip]);
          ids.push(...found.map((r) => r[0] as number));
          take -= found.length;
          skip = 0;
          if (found.length < MIN_GROUP_ROWS) small++;
        }
        group = await after(value);
      }
      return ids;
    },
  };
}
