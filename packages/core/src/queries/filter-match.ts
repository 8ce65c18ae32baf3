import type { ElementRevision, FieldValue } from "../elements/smart-element.ts";
import { compareCodePoints } from "../values/code-point-order.ts";
import { foldCase, htmlText, type FilterCondition, type FilterNode, type FilterValue } from "./element-filter.ts";

/*
 * What a filter means, on one revision: the in-memory store lists with it, and the SQL stores'
 * compilations are tested against it (the filter contract suite). A condition holds when one of
 * the values holds it, `neq` and `doesnotcontain` when none fails it; an empty value (none, "",
 * an empty list) holds `isempty`, `neq` and `doesnotcontain` only.
 */

/** True when a revision passes a filter. */
export function matchesFilter(filter: FilterNode, revision: ElementRevision): boolean {
  if (filter.kind === "group") {
    return filter.logic === "and" ? filter.nodes.every((node) => matchesFilter(node, revision)) : filter.nodes.some((node) => matchesFilter(node, revision));
  }
  if (filter.kind === "field" && filter.structures && !filter.structures.includes(revision.structure)) return false;
  return holds(filter, valuesOf(filter, revision));
}

function valuesOf(condition: FilterCondition, revision: ElementRevision): FilterValue[] {
  if (condition.kind === "property") {
    const value = {
      title: revision.title, name: revision.name, initid: revision.initid, state: revision.state, owner: revision.owner,
      cdate: revision.createdAt, mdate: revision.modifiedAt, revision: revision.revision, fromname: revision.structure,
    }[condition.property];
    return value === null || value === "" ? [] : [value];
  }
  const raw = revision.values[condition.field];
  const flat = (value: FieldValue | undefined): FieldValue[] => (Array.isArray(value) ? value.flatMap(flat) : value === undefined ? [] : [value]);
  return flat(raw)
    .filter((value): value is string | number => value !== null && value !== "")
    .map((value) => (condition.comparison === "html" && typeof value === "string" ? htmlText(value) : value));
}

function holds(condition: FilterCondition, values: readonly FilterValue[]): boolean {
  const wanted = condition.values;
  const text = (value: FilterValue) => foldCase(String(value));
  switch (condition.operator) {
    case "isempty": return values.length === 0;
    case "isnotempty": return values.length > 0;
    case "eq": return values.some((value) => compare(value, wanted[0]!) === 0);
    case "neq": return !values.some((value) => compare(value, wanted[0]!) === 0);
    case "in": return values.some((value) => wanted.some((item) => compare(value, item) === 0));
    case "lt": return values.some((value) => compare(value, wanted[0]!) < 0);
    case "lte": return values.some((value) => compare(value, wanted[0]!) <= 0);
    case "gt": return values.some((value) => compare(value, wanted[0]!) > 0);
    case "gte": return values.some((value) => compare(value, wanted[0]!) >= 0);
    case "startswith": return values.some((value) => text(value).startsWith(String(wanted[0])));
    case "contains": return values.some((value) => text(value).includes(String(wanted[0])));
    case "doesnotcontain": return !values.some((value) => text(value).includes(String(wanted[0])));
  }
}

/** Numbers numerically, texts by code point; a number never equals a text. */
function compare(a: FilterValue, b: FilterValue): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (typeof a === "number") return -1;
  if (typeof b === "number") return 1;
  return compareCodePoints(a, b);
}
