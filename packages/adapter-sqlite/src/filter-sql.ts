import type { FieldCondition, FilterCondition, FilterNode, FilterOperator, FilterProperty, FilterValue, PropertyCondition } from "@lineage/core";
import { NEVER_EMPTY_PROPERTIES } from "./constant-filter.ts";
import { FOLD_FUNCTION, HTML_TEXT_FUNCTION } from "./filter-functions.ts";
import { fieldPath, fieldSortExpression, sqlText } from "./field-indexes.ts";

/*
 * A list filter (the core's ElementFilter) as an SQL condition on a row of `elements`, its values
 * bound as parameters (never written into the SQL; structure and field names are, as SQL literals,
 * as the field indexes name them). The meaning is the core's (queries/filter-match.ts), piece by piece:
 *
 * - a condition holds when one of its values holds it (EXISTS over json_each / json_tree for lists),
 *   `neq` and `doesnotcontain` when none does (NOT of the same); an empty value (null, "", no value)
 *   holds `isempty`, `neq` and `doesnotcontain` only: every test of a value first asks it is not empty;
 * - values compare as SQLite compares values without affinity (json_extract's, and the parameters):
 *   numbers numerically, texts by code point (BINARY), a number before any text and never equal to
 *   one, which is the core's order; property columns hold one type, the one their conditions bind;
 * - text operators fold the value with the core's foldCase, `html` compares the text without tags
 *   (filter-functions.ts), and find the folded needle with instr();
 * - every piece is true or false, never NULL, so that a NOT above it stays exact.
 *
 * A single value is written with the expression the field indexes are made on (fieldSortExpression),
 * so that SQLite reads an equality or a range from a field's index; the conditions of an `and` are
 * terms of the WHERE of their own, each one an index may serve. A `single` field is read as the one
 * value its shape says it keeps: a list stored there against its structure's definition (filter-match.ts
 * would read its items) is compared as its JSON text.
 */

/** A compiled filter: the condition, and the values its placeholders take, in order. */
export interface FilterSql {
  readonly sql: string;
  readonly params: readonly unknown[];
}

/**
 * How many values a statement may bind (SQLITE_MAX_VARIABLE_NUMBER, as better-sqlite3 builds SQLite):
 * a statement that tests a filter in several arms binds its values in each, up to this many in all.
 */
export const MAX_BOUND_VALUES = 32_766;

/** Writes the placeholder of the n-th value (`?` by default; `@name` for statements with named parameters). */
export type Placeholder = (index: number) => string;

/** The column of each property. */
const PROPERTY_COLUMNS: Readonly<Record<FilterProperty, string>> = {
  title: "title", name: "name", state: "state", cdate: "created_at", mdate: "modified_at", fromname: "structure",
  initid: "initid", owner: "owner", revision: "revision",
};

/**
 * Compiles a filter to one SQL condition on `elements`. Its constant parts (constant-filter.ts) are
 * written as constants, which a statement with INDEXED BY must not hold: leave them out first.
 */
export function compileFilter(filter: FilterNode, placeholder: Placeholder = () => "?", probes?: FieldProbes): FilterSql {
  const params: unknown[] = [];
  const bind = (value: unknown) => {
    params.push(value);
    return placeholder(params.length - 1);
  };
  return { sql: nodeSql(filter, bind, probes), params };
}

/**
 * The indexes of single fields (field-indexes.ts) of the one structure a walk reads, by field: a
 * condition on such a field is tested on the entry of the walked row in its index (an EXISTS that
 * seeks status, value and id there) rather than on the row, which the walk then need not read nor
 * parse its values. Measured on a million rows, a title order walking 20,000 entries for a condition
 * on an enum field: a third of the time of reading the rows. The condition means the same: the
 * entry is the row's own (same id; the walk's rows are live, of the structure the partial index holds).
 */
export interface FieldProbes {
  readonly structure: string;
  /** The index of a field in the structure, or undefined when it has none. */
  index(field: string): string | undefined;
}

type Bind = (value: unknown) => string;

function nodeSql(node: FilterNode, bind: Bind, probes?: FieldProbes): string {
  if (node.kind === "property") return propertySql(node, bind);
  if (node.kind === "field") return probedFieldSql(node, bind, probes) ?? fieldSql(node, bind);
  if (node.nodes.length === 0) return node.logic === "and" ? "1" : "0";
  if (node.nodes.length === 1) return nodeSql(node.nodes[0]!, bind, probes);
  return `(${node.nodes.map((child) => nodeSql(child, bind, probes)).join(` ${node.logic} `)})`;
}

/** A single field's condition tested on its index's entry of the row (FieldProbes); undefined when it has none. */
function probedFieldSql(condition: FieldCondition, bind: Bind, probes: FieldProbes | undefined): string | undefined {
  if (!probes || condition.shape !== "single" || condition.comparison === "html") return undefined;
  if (condition.structures && !condition.structures.includes(probes.structure)) return undefined;
  const index = probes.index(condition.field);
  if (!index) return undefined;
  // Unqualified, `values` and `structure` in the condition are the probe's: the same row's, as the index holds it.
  return `exists (select 1 from elements as probe indexed by "${index}" where probe.status = elements.status and probe.fixed = 0` +
    ` and probe.structure = ${sqlText(probes.structure)} and probe.id = elements.id and ${fieldSql(condition, bind)})`;
}

/**
 * Where a condition finds its values: one expression (`single`), or the rows of a table-valued
 * function (`list`, `nested`) in an EXISTS, each row's `atom` a value (null for a list inside).
 */
interface Values {
  /** The test that one of the values passes `test` (given the compared form of a value). */
  any(test: (value: string) => string): string;
  /** The test that the condition has no value at all. */
  empty(): string;
}

const notEmpty = (value: string) => `coalesce(${value}, '') <> ''`;

function propertySql(condition: PropertyCondition, bind: Bind): string {
  const column = PROPERTY_COLUMNS[condition.property];
  const mayBeEmpty = !NEVER_EMPTY_PROPERTIES.has(condition.property);
  const values: Values = {
    any: (test) => (mayBeEmpty ? `(${notEmpty(column)} and ${test(column)})` : test(column)),
    empty: () => (mayBeEmpty ? `coalesce(${column}, '') = ''` : "0"),
  };
  return conditionSql(condition, values, bind);
}

function fieldSql(condition: FieldCondition, bind: Bind): string {
  const compared = (value: string) => (condition.comparison === "html" ? `${HTML_TEXT_FUNCTION}(${value})` : value);
  let values: Values;
  if (condition.shape === "single") {
    const value = fieldSortExpression(condition.field);
    values = {
      any: (test) => `(${notEmpty(value)} and ${test(compared(value))})`,
      empty: () => `coalesce(${value}, '') = ''`,
    };
  } else {
    // A list's values are its items; a list of lists' (a multiple column) are its items' items, json_tree's leaves.
    const source = `${condition.shape === "list" ? "json_each" : "json_tree"}(elements."values", ${fieldPath(condition.field)})`;
    const exists = (test: string) => `exists (select 1 from ${source} as item where ${notEmpty("item.atom")}${test ? ` and ${test}` : ""})`;
    values = {
      any: (test) => exists(test(compared("item.atom"))),
      empty: () => `not ${exists("")}`,
    };
  }
  const sql = conditionSql(condition, values, bind);
  // A condition on a field some structures of the list lack holds for the others' elements only.
  const structures = condition.structures;
  if (!structures) return sql;
  const scope = structures.length === 1 ? `structure = ${sqlText(structures[0]!)}` : `structure in (${structures.map(sqlText).join(", ")})`;
  return `(${scope} and ${sql})`;
}

/** The comparison operators, as SQL. */
const COMPARISONS: Partial<Readonly<Record<FilterOperator, string>>> = { eq: "=", lt: "<", lte: "<=", gt: ">", gte: ">=" };

function conditionSql(condition: FilterCondition, values: Values, bind: Bind): string {
  const wanted: readonly FilterValue[] = condition.values;
  const text = () => bind(String(wanted[0]));
  switch (condition.operator) {
    case "isempty": return values.empty();
    case "isnotempty": return `not (${values.empty()})`;
    case "neq": return `not (${values.any((value) => `${value} = ${bind(wanted[0])}`)})`;
    // One JSON array, whatever the count (FILTER_LIMITS allows more values than SQLite binds): each value keeps its type.
    case "in": return values.any((value) => `${value} in (select value from json_each(${bind(JSON.stringify(wanted))}))`);
    case "startswith": return values.any((value) => `instr(${FOLD_FUNCTION}(${value}), ${text()}) = 1`);
    case "contains": return values.any((value) => `instr(${FOLD_FUNCTION}(${value}), ${text()}) > 0`);
    case "doesnotcontain": return `not (${values.any((value) => `instr(${FOLD_FUNCTION}(${value}), ${text()}) > 0`)})`;
    case "eq": case "lt": case "lte": case "gt": case "gte":
      return values.any((value) => `${value} ${COMPARISONS[condition.operator]} ${bind(wanted[0])}`);
  }
}
