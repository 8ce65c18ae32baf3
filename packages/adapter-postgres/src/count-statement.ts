import { readableKeys, type ElementCountQuery } from "@lineage/core";
import { conditionStructures, conjuncts, filterCondition, holdsOnEntries, keyTest, sortKeyScope, type Bind } from "./filter-sql.ts";
import { STRUCTURE } from "./list-indexes.ts";
import { readableCondition } from "./readable-condition.ts";

/*
 * How many latest revisions a list's query matches (ElementRepository.count), with its values. The
 * live revisions are counted on a list index (each holds the status, structure, profile and the
 * keys of few values, list-indexes.ts), rows unread for a condition on those. A filter of one
 * condition on a field the core indexes is counted on the field's sort keys alone: they are the
 * live revisions' values, with their structure, status and profile, so the entries that pass it
 * are the revisions that do, and their index holds them side by side (schema.ts).
 */

/** A count's statement: its text and values. */
export interface CountSql {
  readonly text: string;
  readonly values: unknown[];
}

/** The statement that counts the latest revisions a query matches. */
export function countSql(query: ElementCountQuery): CountSql {
  const values: unknown[] = [];
  const bind: Bind = (value) => {
    values.push(value);
    return `$${values.length}`;
  };
  const [only, ...more] = query.filter ? conjuncts(query.filter) : [];
  if (only?.kind === "field" && more.length === 0 && holdsOnEntries(only)) {
    const structures = conditionStructures(only, query);
    if (structures?.length === 0) return { text: "select 0", values: [] };
    // Without structures the field's entries are not together in the index (it leads with the structure): the elements are counted.
    if (structures) {
      return { text: `select count(*)::int from element_sort_keys as k where ${sortKeyScope(only, query, structures, "k", bind)} and ${keyTest(only, "k", undefined, bind)}`, values };
    }
  }
  const conditions = [`status = ${bind(query.status)}`, "not fixed"];
  if (query.structures) conditions.push(`${STRUCTURE} = any(${bind(query.structures)}::text[])`);
  if (query.readable) conditions.push(readableCondition(bind(readableKeys(query.readable))));
  if (query.filter) conditions.push(filterCondition(query.filter, "elements", query, bind));
  return { text: `select count(*)::int from elements where ${conditions.join(" and ")}`, values };
}
