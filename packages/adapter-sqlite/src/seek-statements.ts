import { decisiveOrder, type ElementCountQuery, type ElementQuery } from "@lineage/core";
import { sqlText } from "./field-indexes.ts";
import { compileFilter, type FilterSql } from "./filter-sql.ts";
import type { Seek } from "./filter-seeks.ts";
import { sortExpression } from "./list-statement.ts";
import { readableCondition, readableValues } from "./readable-condition.ts";

/*
 * The statements that read a filtered list through a seek (filter-seeks.ts): the rows its index
 * finds, the rest of the filter and the rights tested on them (rights on the index entries: every
 * list and field index holds the profile, and the structure, as a column or as the constant of its
 * partial index), then sorted. One arm per index read: a property seek reads one, a field seek one
 * per structure, each naming its structure written out as its partial index does.
 */

/** A statement written for one query, with the values it binds. */
export interface BoundStatement {
  readonly sql: string;
  readonly params: readonly unknown[];
}

/** The FROM and WHERE of each arm of a seek, and the values of all the arms, in order. */
interface Arms {
  readonly sql: readonly string[];
  readonly params: readonly unknown[];
}

function seekArms(query: ElementCountQuery, seek: Seek, condition: FilterSql): Arms {
  const readable = query.readable ? readableValues(query.readable) : [];
  const tail = `${query.readable ? ` and ${readableCondition(query.readable)}` : ""} and ${condition.sql}`;
  if (seek.kind === "field") {
    return {
      sql: seek.arms.map((arm) => `from elements indexed by "${arm.index}" where status = ? and fixed = 0 and structure = ${sqlText(arm.structure)}${tail}`),
      params: seek.arms.flatMap(() => [query.status, ...readable, ...condition.params]),
    };
  }
  const structures = query.structures;
  const scope = structures === undefined ? [] : [structures.length === 1 ? structures[0] : JSON.stringify(structures)];
  const where = structures === undefined ? "" : structures.length === 1 ? " and structure = ?" : " and structure in (select value from json_each(?))";
  return {
    sql: [`from elements indexed by ${seek.index} where status = ? and fixed = 0${where}${tail}`],
    params: [query.status, ...scope, ...readable, ...condition.params],
  };
}

/** The statement of a probe: how many rows the seek's conditions find (rights applied), counted up to `cap`. */
export function seekProbeSql(query: ElementCountQuery, seek: Seek, cap: number): BoundStatement {
  const arms = seekArms(query, seek, compileFilter({ kind: "group", logic: "and", nodes: seek.conditions }));
  return { sql: `select count(*) from (${arms.sql.map((arm) => `select 1 ${arm}`).join(" union all ")} limit ?)`, params: [...arms.params, cap] };
}

/** The statement of the ids of a filtered page through a seek: the rows it finds that pass the filter, sorted. */
export function seekPageSql(query: ElementQuery, seek: Seek): BoundStatement {
  const limit = query.limit ?? -1;
  if (!Number.isSafeInteger(limit)) throw new RangeError(`A list limit must be a whole number, not ${limit}`);
  const arms = seekArms(query, seek, compileFilter(query.filter!));
  // The sort keys are columns of each arm, the id first; a compound SELECT sorts by their positions.
  const columns = ["id"];
  const order = decisiveOrder(query.orderBy, { oneStructure: query.structures?.length === 1 }).map((term) => {
    const expression = sortExpression(term);
    if (!columns.includes(expression)) columns.push(expression);
    return `${columns.indexOf(expression) + 1} ${term.direction}`;
  });
  const select = `select ${columns.join(", ")}`;
  return {
    sql: `${arms.sql.map((arm) => `${select} ${arm}`).join(" union all ")} order by ${order.join(", ")} limit ${limit} offset ?`,
    params: [...arms.params, query.offset],
  };
}

/**
 * The statement of a sample: of the first `size` rows the seek finds (rights applied), how many,
 * and how many pass the whole filter. Each arm's rows are those of `elements`, and named so, that
 * the filter's condition reads them as it reads the table.
 */
export function seekSampleSql(query: ElementCountQuery, seek: Seek, size: number): BoundStatement {
  const arms = seekArms(query, seek, compileFilter({ kind: "group", logic: "and", nodes: seek.conditions }));
  const filter = compileFilter(query.filter!);
  const rows = arms.sql.map((arm) => `select * ${arm}`).join(" union all ");
  return {
    sql: `select count(*), coalesce(sum(${filter.sql}), 0) from (${rows} limit ?) as elements`,
    params: [...filter.params, ...arms.params, size],
  };
}

/** The statement of a filtered count through a seek: each arm counted on its own (a compound SELECT costs more per row), summed. */
export function seekCountSql(query: ElementCountQuery, seek: Seek): BoundStatement {
  const arms = seekArms(query, seek, compileFilter(query.filter!));
  if (query.countUpTo === undefined) return { sql: `select ${arms.sql.map((arm) => `(select count(*) ${arm})`).join(" + ")}`, params: arms.params };
  // Limited: each arm stops at the limit, and their sum at it too.
  return {
    sql: `select min(${arms.sql.map((arm) => `(select count(*) from (select 1 ${arm} limit ?))`).join(" + ")}, ?)`,
    params: [...arms.sql.flatMap((_arm, i) => {
      // Every arm takes as many values, in the arms' order.
      const each = arms.params.length / arms.sql.length;
      return [...arms.params.slice(i * each, (i + 1) * each), query.countUpTo];
    }), query.countUpTo],
  };
}
