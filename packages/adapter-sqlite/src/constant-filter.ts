import type { FilterCondition, FilterNode, FilterProperty } from "@lineage/core";

/** The properties whose value is never empty (integer columns, NOT NULL): `isempty` holds for none of them. */
export const NEVER_EMPTY_PROPERTIES: ReadonlySet<FilterProperty> = new Set(["initid", "owner", "revision"]);

/**
 * A filter without its constant parts: an empty `and` holds for every element and an empty `or`
 * for none (element-filter.ts), `isempty` on a property never empty for none, `in` without values
 * for none; the groups above them absorb them. `true` when the whole filter holds for every
 * element, `false` when for none. The store answers those two without SQL, and never writes a
 * constant condition: SQLite finds no plan for a WHERE it knows false under INDEXED BY ("no query
 * solution"), which the list statements use.
 */
export function withoutConstants(node: FilterNode): FilterNode | boolean {
  if (node.kind !== "group") return constantCondition(node) ?? node;
  const absorbing = node.logic === "or";
  const nodes: FilterNode[] = [];
  for (const child of node.nodes) {
    const reduced = withoutConstants(child);
    if (reduced === absorbing) return absorbing;
    if (reduced !== !absorbing) nodes.push(reduced as FilterNode);
  }
  if (nodes.length === 0) return !absorbing;
  return nodes.length === 1 ? nodes[0]! : { kind: "group", logic: node.logic, nodes };
}

/** What a condition holds for whatever the element, when that is known without it. */
function constantCondition(condition: FilterCondition): boolean | undefined {
  if (condition.operator === "in" && condition.values.length === 0) return false;
  if (condition.kind === "property" && NEVER_EMPTY_PROPERTIES.has(condition.property)) {
    if (condition.operator === "isempty") return false;
    if (condition.operator === "isnotempty") return true;
  }
  return undefined;
}
