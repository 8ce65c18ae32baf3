import { grantsOwned, readableKeys, type ElementCountQuery, type FieldCondition, type FilterNode, type PropertyCondition } from "@lineage/core";
import { conditionStructures, conjuncts, filterCondition, holdsOnEntries, keyTest, rankOf, sortKeyScope, type Bind, type FilterList } from "./filter-sql.ts";
import { STRUCTURE } from "./list-indexes.ts";
import { readableCondition } from "./readable-condition.ts";

/*
 * How many latest revisions a list's query matches (ElementRepository.count), with its values. The
 * live revisions are counted on a list index (each holds the status, structure, profile and the
 * keys of few values, list-indexes.ts), rows unread for a condition on those. A filter of
 * conditions on one field the core indexes (a value, a range) is counted on the field's sort keys
 * alone: they are the live revisions' values, with their structure, status and profile, so the
 * entries that pass it are the revisions that do, and their index holds them side by side (schema.ts).
 */

/** A count's statement: its text and values. */
export interface CountSql {
  readonly text: string;
  readonly values: unknown[];
}

/** A filter's conditions on one field's sort keys: keyed conditions of the field, each holding on its entries, and conditions on the state. */
export interface KeyedConditions {
  readonly keyed: readonly FieldCondition[];
  readonly states: readonly PropertyCondition[];
}

/**
 * The conditions of a filter's `and` when they all hold on one field's sort keys: keyed conditions
 * of that field that hold on its entries (filter-sql.ts), at least one, and conditions on the state,
 * which each entry holds.
 */
export function onOneField(nodes: readonly FilterNode[]): KeyedConditions | undefined {
  const keyed = nodes.filter((node): node is FieldCondition => node.kind === "field" && holdsOnEntries(node));
  const states = nodes.filter((node): node is PropertyCondition => node.kind === "property" && node.property === "state");
  const one = keyed.length > 0 && keyed.every((node) => node.field === keyed[0]!.field);
  return one && keyed.length + states.length === nodes.length ? { keyed, states } : undefined;
}

/**
 * The sort keys `k` of a list that pass conditions on one field's keys, as the FROM and WHERE of a
 * statement: they are the list's elements that pass them. Undefined when the conditions may hold for
 * none of the list's structures.
 */
export function keyedEntries({ keyed, states }: KeyedConditions, list: FilterList, bind: Bind): string | undefined {
  const structures = conditionStructures(keyed[0]!, list);
  if (structures?.length === 0) return undefined;
  // The rank a condition settles, said once (a range of the field: two bounds of the index), as a page does (list-statement.ts).
  const known = keyed.map(rankOf).find((rank) => rank !== undefined);
  const tests = keyed.map((condition) => {
    const of = condition.structures ? `k.structure collate "C" = any(${bind(conditionStructures(condition, list))}::text[]) and ` : "";
    return `${of}${keyTest(condition, "k", known, bind)}`;
  });
  const state = states.length === 0 ? "" : ` and ${filterCondition({ kind: "group", logic: "and", nodes: states }, "k", list, bind, "k.element_id")}`;
  const rank = known === undefined ? "" : known === 1 ? " and k.rank = 1" : " and k.rank = 2 and k.num is null";
  return `element_sort_keys as k where ${sortKeyScope(keyed[0]!, list, structures, "k", bind)}${rank} and ${tests.join(" and ")}${state}`;
}

/** The statement that counts the latest revisions a query matches; with `countUpTo`, up to that many (the rows read stop there). */
export function countSql(query: ElementCountQuery): CountSql {
  const statement = unlimitedCountSql(query);
  const counted = /^select count\(\*\)::int from (.*)$/s.exec(statement.text);
  if (query.countUpTo === undefined || !counted) return statement;
  const values = [...statement.values, query.countUpTo];
  return { text: `select count(*)::int from (select 1 from ${counted[1]} limit $${values.length}) as limited`, values };
}

function unlimitedCountSql(query: ElementCountQuery): CountSql {
  const values: unknown[] = [];
  const bind: Bind = (value) => {
    values.push(value);
    return `$${values.length}`;
  };
  const keyed = query.filter && onOneField(conjuncts(query.filter));
  if (keyed) {
    const entries = keyedEntries(keyed, query, bind);
    return entries ? { text: `select count(*)::int from ${entries}`, values } : { text: "select 0", values: [] };
  }
  const conditions = [`status = ${bind(query.status)}`, "not fixed"];
  if (query.structures) conditions.push(`${STRUCTURE} = any(${bind(query.structures)}::text[])`);
  if (query.readable) conditions.push(readableCondition(bind(readableKeys(query.readable)), grantsOwned(query.readable)));
  if (query.filter) conditions.push(filterCondition(query.filter, "elements", query, bind));
  return { text: `select count(*)::int from elements where ${conditions.join(" and ")}`, values };
}
