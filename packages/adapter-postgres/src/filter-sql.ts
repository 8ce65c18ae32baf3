import {
  type ElementQuery, type FieldCondition, type FilterNode, type FilterOperator, type FilterProperty, type FilterValue,
  type PropertyCondition,
} from "@lineage/core";
import { boundSortKeyRights } from "./readable-condition.ts";

/*
 * A list filter (core's ElementFilter) as an SQL condition on a row of `elements`, meaning what
 * core's queries/filter-match.ts means (the filter contract suite holds it to that): a condition
 * holds when one of the values holds it, `neq` and `doesnotcontain` when none does; null and ""
 * are no value; texts compare by code point (`collate "C"`), numbers numerically, a number below
 * any text; the text operators compare lineage_fold's text (migration 0008: JavaScript's
 * toLowerCase), html's without its tags. Every value of the filter, field ids included, is bound.
 *
 * Properties are columns, which the list indexes hold (list-indexes.ts): a page walks its order's
 * index with the condition checked on the entries, or PostgreSQL reads the few rows an index of
 * the condition's column finds. A field the core indexes (`indexed`: a single scalar) is read in
 * element_sort_keys, whose entries hold the value's sort key (rank, num, txt: schema.ts): one
 * lookup per row on its primary key (which includes the key, migration 0008), or, when the
 * condition is selective, the matching entries straight from its index of values, with the
 * structures, status and rights of the list on them. Other fields are read in `values` (json).
 */

/** Adds a value to the statement's parameters; gives its placeholder. */
export type Bind = (value: unknown) => string;

/**
 * The list a filter narrows: its sort-key lookups name the same structures, status and rights, so
 * that their index may be walked. `walked`: the list is read by walking its order's index, each
 * entry's sort keys looked up as it passes, never the entries of a condition read first (which
 * PostgreSQL prefers when it takes them for few, list-statement.ts knows when they are not).
 */
export type FilterList = Pick<ElementQuery, "status" | "structures" | "readable"> & { readonly walked?: boolean };

/** What each property is stored as: its column and whether it holds numbers. */
const PROPERTY_COLUMNS: Readonly<Record<FilterProperty, { readonly column: string; readonly numeric: boolean }>> = {
  title: { column: "title", numeric: false }, name: { column: "name", numeric: false }, initid: { column: "initid", numeric: true },
  state: { column: "state", numeric: false }, owner: { column: "owner", numeric: true }, cdate: { column: "created_at", numeric: false },
  mdate: { column: "modified_at", numeric: false }, revision: { column: "revision", numeric: true }, fromname: { column: "structure", numeric: false },
};

/** The operators that hold when no value holds their positive form. */
const NEGATIVE: Readonly<Partial<Record<FilterOperator, FilterOperator>>> = { neq: "eq", doesnotcontain: "contains" };

const TEXT_OPERATORS: ReadonlySet<FilterOperator> = new Set(["startswith", "contains", "doesnotcontain"]);

/**
 * The SQL condition of a filter on the elements row `row`; `id`, the expression of its id, when
 * the row is another table's that has the element's id, structure and state (a filter of keyed
 * conditions alone, `keyedOnly`, on a page of sort keys).
 */
export function filterCondition(filter: FilterNode, row: string, list: FilterList, bind: Bind, id = `${row}.id`): string {
  if (filter.kind === "group") {
    if (filter.nodes.length === 0) return filter.logic === "and" ? "true" : "false";
    return `(${filter.nodes.map((node) => filterCondition(node, row, list, bind, id)).join(` ${filter.logic} `)})`;
  }
  if (filter.kind === "property") return propertyCondition(filter, row, bind);
  const structures = conditionStructures(filter, list);
  if (structures?.length === 0) return "false";
  // Only the rows of the structures that have the field as the condition means it, whatever its operator.
  const ofStructures = filter.structures ? `${row}.structure collate "C" = any(${bind(filter.structures)}::text[]) and ` : "";
  const holds = isKeyed(filter) ? sortKeyCondition(filter, id, list, structures, bind) : valuesCondition(filter, row, bind);
  return `(${ofStructures}${holds})`;
}

/**
 * True when a filter reads nothing but sort keys: keyed field conditions, and conditions on the
 * state, which each entry holds (migration 0019); it needs no row of `elements`.
 */
export function keyedOnly(filter: FilterNode): boolean {
  if (filter.kind === "group") return filter.nodes.every(keyedOnly);
  return filter.kind === "field" ? isKeyed(filter) : filter.property === "state";
}

/** The conditions a filter's rows must all pass: the nodes of its `and` groups, as deep as they nest. */
export function conjuncts(filter: FilterNode): FilterNode[] {
  return filter.kind === "group" && filter.logic === "and" ? filter.nodes.flatMap(conjuncts) : [filter];
}

/**
 * True when a field condition is answered on element_sort_keys: a field the core indexes, an
 * operator that compares whole values (the text operators fold them, which no key holds).
 */
export function isKeyed(condition: FieldCondition): boolean {
  return condition.indexed && !TEXT_OPERATORS.has(condition.operator);
}

/** True when a keyed condition holds only for elements with a value (an entry of the sort keys that passes it). */
export function holdsOnEntries(condition: FieldCondition): boolean {
  return isKeyed(condition) && condition.operator !== "neq" && condition.operator !== "isempty";
}

/** The structures whose sort keys a condition reads: those of the condition and of the list; undefined when neither names any. */
export function conditionStructures(condition: FieldCondition, list: FilterList): readonly string[] | undefined {
  if (!condition.structures) return list.structures;
  if (!list.structures) return condition.structures;
  return condition.structures.filter((name) => list.structures!.includes(name));
}

/* ---------- properties ---------- */

function propertyCondition(condition: PropertyCondition, row: string, bind: Bind): string {
  const { column, numeric } = PROPERTY_COLUMNS[condition.property];
  const c = `${row}.${column}`;
  const scalar: Scalar = numeric
    ? { isNumber: "true", number: c, integer: true, isText: null, text: null, asText: `${c}::text` }
    : { isNumber: null, number: null, integer: false, isText: `${c} <> ''`, text: `${c} collate "C"`, asText: c };
  return scalarCondition(condition.operator, condition.values, scalar, bind);
}

/**
 * One value as SQL: the conditions that it is a number, or a text that is not "" (null: it never
 * is), its number (`integer`: an integer column) and its text (null when it is not one), and its
 * text for the text operators.
 */
interface Scalar {
  readonly isNumber: string | null;
  readonly number: string | null;
  readonly integer: boolean;
  readonly isText: string | null;
  readonly text: string | null;
  readonly asText: string;
}

const or = (parts: readonly string[]) => (parts.length === 0 ? "false" : parts.length === 1 ? parts[0]! : `(${parts.join(" or ")})`);
const present = (scalar: Scalar) => or([scalar.isNumber, scalar.isText].filter((part): part is string => part !== null));

/** A condition on a value that is one value or none: a property's column. */
function scalarCondition(operator: FilterOperator, values: readonly FilterValue[], scalar: Scalar, bind: Bind): string {
  if (operator === "isempty") return `not coalesce(${present(scalar)}, false)`;
  if (operator === "isnotempty") return present(scalar);
  const positive = NEGATIVE[operator];
  if (positive) return `not coalesce(${valueTest(positive, values, scalar, bind)}, false)`;
  return valueTest(operator, values, scalar, bind);
}

/**
 * The SQL of `compare(value, wanted) OP 0` (filter-match.ts) for the value `scalar`: numbers
 * numerically, texts by code point, a number below every text; the text operators on its folded
 * text. False, or null, when there is no value.
 */
function valueTest(operator: FilterOperator, values: readonly FilterValue[], scalar: Scalar, bind: Bind): string {
  const { number, text } = scalar;
  const wanted = values[0]!;
  switch (operator) {
    case "eq":
      if (typeof wanted === "number") return number ? `${number} = ${numberParameter(wanted, scalar, bind)}` : "false";
      // "" is no value, but an HTML value's text may be "" ("<p></p>"): the value must be there too.
      return text ? (wanted === "" ? `(${text} = '' and ${scalar.isText})` : `${text} = ${bind(wanted)}`) : "false";
    case "in": {
      const numbers = values.filter((value): value is number => typeof value === "number");
      const texts = values.filter((value): value is string => typeof value === "string");
      const textsIn = () => `${text} = any(${bind(texts)}::text[])`;
      return or([
        ...(number && numbers.length ? [`${number} = any(${bind(numbers)}::${scalar.integer && numbers.every(Number.isSafeInteger) ? "bigint" : "numeric"}[])`] : []),
        ...(text && texts.length ? [texts.includes("") ? `(${textsIn()} and ${scalar.isText})` : textsIn()] : []),
      ]);
    }
    case "lt": case "lte": case "gt": case "gte": {
      const sign = { lt: "<", lte: "<=", gt: ">", gte: ">=" }[operator];
      const above = operator === "gt" || operator === "gte";
      if (typeof wanted === "number") {
        // Every text is above a number.
        return or([...(number ? [`${number} ${sign} ${numberParameter(wanted, scalar, bind)}`] : []), ...(scalar.isText && above ? [scalar.isText] : [])]);
      }
      // Every number is below a text.
      return or([...(scalar.isNumber && !above ? [scalar.isNumber] : []), ...(text && scalar.isText ? [`(${text} ${sign} ${bind(wanted)} and ${scalar.isText})`] : [])]);
    }
    case "startswith":
      return `(${present(scalar)} and starts_with(lineage_fold(${scalar.asText}), ${bind(String(wanted))}))`;
    default:
      return `(${present(scalar)} and strpos(lineage_fold(${scalar.asText}), ${bind(String(wanted))}) > 0)`;
  }
}

/** A number as a parameter: for an integer column an integer as bigint, which its index compares to, any other as numeric. */
function numberParameter(value: number, scalar: Scalar, bind: Bind): string {
  return `${bind(value)}::${scalar.integer && Number.isSafeInteger(value) ? "bigint" : "numeric"}`;
}

/* ---------- fields in `values` ---------- */

/**
 * A field condition on the element's `values`: the field's value read once per row (`offset 0`
 * keeps PostgreSQL from writing the read, a parse of the json, in each place it is used), then its
 * values: the value itself, or a list's items at any depth (filter-match.ts flattens them alike).
 */
function valuesCondition(condition: FieldCondition, row: string, bind: Bind): string {
  const { operator } = condition;
  const some = (test: (x: string) => string) =>
    `exists (select from (select ${row}."values" -> ${bind(condition.field)}::text as j offset 0) as v where case when json_typeof(v.j) = 'array' then exists (` +
    `with recursive items(x) as (select v.j union all select item from items, json_array_elements(case when json_typeof(items.x) = 'array' then items.x end) as item)` +
    ` select from items where ${test("items.x")}) else ${test("v.j")} end)`;
  const value = (x: string): Scalar => {
    const isText = `(json_typeof(${x}) = 'string' and ${x}::text <> '""')`;
    const content = condition.comparison === "html" ? `regexp_replace(${x} #>> '{}', '<[^>]*>', '', 'g')` : `(${x} #>> '{}')`;
    return {
      isNumber: `json_typeof(${x}) = 'number'`,
      integer: false,
      // Read as a number only when it is one: PostgreSQL may test the parts of a condition in any order.
      number: `(case when json_typeof(${x}) = 'number' then (${x}::text)::numeric end)`,
      isText,
      text: `(case when ${isText} then ${content} end) collate "C"`,
      asText: `(case json_typeof(${x}) when 'number' then ${x}::text else ${content} end)`,
    };
  };
  if (operator === "isempty") return `not ${some((x) => present(value(x)))}`;
  if (operator === "isnotempty") return some((x) => present(value(x)));
  const positive = NEGATIVE[operator];
  if (positive) return `not ${some((x) => valueTest(positive, condition.values, value(x), bind))}`;
  return some((x) => valueTest(operator, condition.values, value(x), bind));
}

/* ---------- fields in element_sort_keys ---------- */

/** Which ranks of sort keys (1: numbers, 2: texts) a condition's entries are known to have, so that it need not say the others. */
export type KnownRank = 1 | 2 | undefined;

/**
 * A keyed field condition on the row's sort key: one entry per element and field, for the
 * structures that keep the field; none (no value, as for a structure without the field) passes
 * nothing. The list's structures, status and rights are said on the entry too, though the row has
 * them: with them, PostgreSQL may read the entries that pass from the index of values (schema.ts).
 */
function sortKeyCondition(condition: FieldCondition, id: string, list: FilterList, structures: readonly string[] | undefined, bind: Bind): string {
  // On a walked list, `offset 0` keeps PostgreSQL from making the lookup a join, which it may start from the entries.
  const lookup = (test: string) =>
    `exists (select from element_sort_keys as sk where sk.element_id = ${id} and ${sortKeyScope(condition, list, structures, "sk", bind)} and ${test}${list.walked ? " offset 0" : ""})`;
  const positive = NEGATIVE[condition.operator] ?? (condition.operator === "isempty" ? "isnotempty" : undefined);
  if (positive) return `not ${lookup(keyTest({ ...condition, operator: positive }, "sk", undefined, bind))}`;
  return lookup(keyTest(condition, "sk", undefined, bind));
}

/** The entries of a condition's field in the list: its field, status, structures and rights, on the sort keys `k`. */
export function sortKeyScope(condition: FieldCondition, list: FilterList, structures: readonly string[] | undefined, k: string, bind: Bind): string {
  const field = bind(condition.field);
  const parts = [`${k}.field = ${field}`, `${k}.status = ${bind(list.status)}`];
  // Without structures named, those that keep the field (the only ones with its entries): the index leads with the structure.
  parts.push(`${k}.structure collate "C" = any(${structures ? `${bind(structures)}::text[]` : `array(select s.name from structures as s where ${field} = any(s.sort_fields))`})`);
  if (list.readable) parts.push(boundSortKeyRights(list.readable, bind, k));
  return parts.join(" and ");
}

/** The rank a positive keyed condition's entries all have, if one: a text compared, or a number. */
export function rankOf(condition: FieldCondition): KnownRank {
  const values = condition.values;
  switch (condition.operator) {
    case "eq": case "gt": case "gte":
      return typeof values[0] === "number" ? (condition.operator === "eq" ? 1 : undefined) : 2;
    case "lt": case "lte":
      return typeof values[0] === "number" ? 1 : undefined;
    case "in":
      return values.every((value) => typeof value === "number") ? 1 : values.every((value) => typeof value === "string") ? 2 : undefined;
    default:
      return undefined;
  }
}

/**
 * A positive keyed condition on the sort key `k` (filter-match.ts's compare on its rank, num and
 * txt): `known`, the rank other conditions of the same entry settle, spares the other rank's branch,
 * so that a range on a field is two bounds of its index.
 */
export function keyTest(condition: FieldCondition, k: string, known: KnownRank, bind: Bind): string {
  const isText = known === 2 ? `${k}.txt <> ''` : `(${k}.rank = 2 and ${k}.txt <> '')`;
  // Each rank's entries as a range of the index of values: rank, then num (numbers) or a null num and txt (texts).
  const ofRank = (n: 1 | 2) => (known === n ? "" : n === 1 ? `${k}.rank = 1 and ` : `${k}.rank = 2 and ${k}.num is null and `);
  const wanted = condition.values[0];
  const sign = ({ eq: "=", lt: "<", lte: "<=", gt: ">", gte: ">=" } as Partial<Record<FilterOperator, string>>)[condition.operator];
  // Tests made only for a rank entries may have: a value is bound only where the statement uses it.
  const numbers = (test: () => string) => (known === 2 ? "false" : `(${ofRank(1)}${test()})`);
  const texts = (test: () => string) => (known === 1 ? "false" : `(${ofRank(2)}${test()})`);
  switch (condition.operator) {
    case "isnotempty":
      return known === 1 ? "true" : known === 2 ? isText : `(${k}.rank = 1 or ${isText})`;
    case "eq":
      if (typeof wanted === "number") return numbers(() => `${k}.num = ${bind(wanted)}::numeric`);
      return wanted === "" ? "false" : texts(() => `${k}.txt collate "C" = ${bind(wanted)}`);
    case "in": {
      const nums = condition.values.filter((value) => typeof value === "number");
      const txts = condition.values.filter((value) => typeof value === "string" && value !== "");
      return or([
        ...(nums.length && known !== 2 ? [numbers(() => `${k}.num = any(${bind(nums)}::numeric[])`)] : []),
        ...(txts.length && known !== 1 ? [texts(() => `${k}.txt collate "C" = any(${bind(txts)}::text[])`)] : []),
      ]);
    }
    case "gt": case "gte":
      if (typeof wanted === "string") return texts(() => `${k}.txt collate "C" ${sign} ${bind(wanted)}${wanted === "" ? ` and ${k}.txt <> ''` : ""}`);
      // Numbers above it, then every text: from (1, wanted) on, one range of the index.
      if (known === 1) return `${k}.num ${sign} ${bind(wanted)}::numeric`;
      if (known === 2) return isText;
      return `((${k}.rank, ${k}.num) ${sign} (1, ${bind(wanted)}::numeric) and (${k}.rank = 1 or ${k}.txt <> ''))`;
    case "lt": case "lte":
      if (typeof wanted === "number") return numbers(() => `${k}.num ${sign} ${bind(wanted)}::numeric`);
      // Every number, then the texts below it.
      if (known === 1) return "true";
      if (known === 2) return `(${k}.txt collate "C" ${sign} ${bind(wanted)} and ${isText})`;
      return `(${k}.rank = 1 or (${k}.rank = 2 and ${k}.txt collate "C" ${sign} ${bind(wanted)} and ${k}.txt <> ''))`;
    default:
      throw new Error(`No sort-key test for "${condition.operator}"`);
  }
}
