/*
 * A list filter as the stores apply it: checked against the caller's view of the structures,
 * its values typed and resolved (logins to accounts, logical names to initids), so that a store
 * compiles it without looking anything up. parse-filter.ts makes one from what a client sends.
 */

/** The operators of a condition (`isempty` and `isnotempty` take no value). */
export const FILTER_OPERATORS = [
  "eq", "neq", "lt", "lte", "gt", "gte", "in", "startswith", "contains", "doesnotcontain", "isempty", "isnotempty",
] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

/** The properties a condition may name besides Smart Fields. */
export const FILTER_PROPERTIES = ["title", "name", "initid", "state", "owner", "cdate", "mdate", "revision", "fromname"] as const;
export type FilterProperty = (typeof FILTER_PROPERTIES)[number];

/**
 * How values compare: `text` by code point (and case-insensitively, folded by `foldCase`, for the
 * text operators), `number` numerically, `html` as `text` on the text without its tags (`htmlText`).
 */
export type FilterComparison = "text" | "number" | "html";

/**
 * Where a field keeps its values in an element's `values`: one value, a list (a multiple field or
 * an array's column), or a list of lists (a multiple column).
 */
export type FilterShape = "single" | "list" | "nested";

/** Compared value: text or number as the comparison says; a folded text for the text operators. */
export type FilterValue = string | number;

/** A condition on a property (a column of the element). */
export interface PropertyCondition {
  readonly kind: "property";
  readonly property: FilterProperty;
  readonly comparison: "text" | "number";
  readonly operator: FilterOperator;
  /** One value, several for `in`, none for `isempty`/`isnotempty`. */
  readonly values: readonly FilterValue[];
}

/** A condition on a Smart Field's value. */
export interface FieldCondition {
  readonly kind: "field";
  readonly field: string;
  readonly comparison: FilterComparison;
  readonly shape: FilterShape;
  readonly operator: FilterOperator;
  readonly values: readonly FilterValue[];
  /**
   * The structures whose elements the condition may hold for (those that have the field as the
   * caller sees it); undefined: every structure of the list has it.
   */
  readonly structures?: readonly string[];
  /** True when a store keeps an index of the field's values (a single scalar: list-order.ts). */
  readonly indexed: boolean;
}

export type FilterCondition = PropertyCondition | FieldCondition;

/** Conditions joined by `and` or `or`. An empty `and` holds for every element, an empty `or` for none. */
export interface FilterGroup {
  readonly kind: "group";
  readonly logic: "and" | "or";
  readonly nodes: readonly FilterNode[];
}

export type FilterNode = FilterCondition | FilterGroup;

/** A filter ready for a store: its root. */
export type ElementFilter = FilterNode;

/** How text operators compare: both sides folded to lower case, Unicode-aware, the same in every store. */
export function foldCase(text: string): string {
  return text.toLowerCase();
}

/** The text of an HTML value without its tags, as `html` comparisons see it (every store strips `<...>` alike). */
export function htmlText(html: string): string {
  return html.replace(/<[^>]*>/g, "");
}
