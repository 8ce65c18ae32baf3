import type { ElementCountQuery } from "@lineage/core";
import { compileFilter } from "./filter-sql.ts";
import { readableCondition, readableValues } from "./readable-condition.ts";

/** The statement of a count, and how a query fills its parameters. */
export interface CountStatement {
  readonly sql: string;
  bind(query: ElementCountQuery): unknown[];
}

/**
 * The count of the latest revisions a query matches, in one statement SQLite plans: on a list index
 * (they hold the status, the structure, the profile and the keys, list-indexes.ts) when the filter
 * names only what an index holds, entries counted without their rows. Exported so that tests can
 * check its query plan.
 */
export function countSql(query: ElementCountQuery): CountStatement {
  const where = ["status = ?", "fixed = 0"];
  const binders: ((q: ElementCountQuery) => readonly unknown[])[] = [(q) => [q.status]];
  if (query.structures?.length === 1) {
    where.push("structure = ?");
    binders.push((q) => [q.structures![0]]);
  } else if (query.structures) {
    where.push("structure in (select value from json_each(?))");
    binders.push((q) => [JSON.stringify(q.structures)]);
  }
  if (query.readable) {
    where.push(readableCondition(query.readable));
    binders.push((q) => readableValues(q.readable!));
  }
  if (query.filter) {
    where.push(compileFilter(query.filter).sql);
    binders.push((q) => compileFilter(q.filter!).params);
  }
  // A limited count reads at most `countUpTo` entries: the count of a subquery that stops there.
  if (query.countUpTo !== undefined) {
    return { sql: `select count(*) from (select 1 from elements where ${where.join(" and ")} limit ?)`, bind: (q) => [...binders.flatMap((bind) => bind(q)), q.countUpTo] };
  }
  return { sql: `select count(*) from elements where ${where.join(" and ")}`, bind: (q) => binders.flatMap((bind) => bind(q)) };
}
