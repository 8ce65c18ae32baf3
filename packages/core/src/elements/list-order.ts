import type { OrderTerm } from "../ports/element-repository.port.ts";
import { isColumn, type FieldType } from "../structures/smart-field.ts";
import { flattenFields, type StructureDefinition } from "../structures/smart-structure.ts";
import { resolveStructures } from "../structures/structure-inheritance.ts";

/** Field types whose single values a store can keep in an index for list orders (short, comparable scalars). */
export const INDEXED_ORDER_FIELD_TYPES: ReadonlySet<FieldType> = new Set<FieldType>(["text", "int", "double", "money", "date", "timestamp", "time", "enum", "docid", "account", "color"]);

/**
 * The fields of a structure a store keeps list-order indexes for: single values of the types above.
 * Other fields (long texts, HTML, files, multiple values, array columns) still sort, without an index
 * (docs/limits.md).
 */
export function indexedOrderFields(structure: StructureDefinition): string[] {
  return flattenFields(structure)
    .filter((field) => INDEXED_ORDER_FIELD_TYPES.has(field.type) && !field.multiple && !isColumn(field))
    .map((field) => field.id);
}

/**
 * The indexed order fields of each structure of a set as resolved, its inherited fields included
 * (structure-inheritance.ts): what a store indexes per structure, from the structures it keeps as
 * their bundles gave them. A parent's change changes its descendants' fields too.
 * @example
 * resolvedOrderFields([base, { name: "INVOICE", extends: "BASE", fields: [] }]).get("INVOICE"); // BASE's fields
 */
export function resolvedOrderFields(definitions: readonly StructureDefinition[]): Map<string, string[]> {
  return new Map(resolveStructures(definitions).map((structure) => [structure.name, indexedOrderFields(structure)]));
}

/** Keys no two listed revisions share: a list holds one live revision per lineage. */
const UNIQUE_KEYS = new Set(["id", "initid"]);

/**
 * The terms that decide the order of a list (ElementRepository.list), closed by `id desc` as every
 * list order is: a repeated key, `status` (one status per list), `fromname` and `fromid` in a list of
 * one structure, and whatever follows a key no two revisions share, cannot change it. A store indexes
 * these rather than the terms as asked, which list the same rows in the same order.
 */
export function decisiveOrder(terms: readonly OrderTerm[], { oneStructure }: { oneStructure: boolean }): OrderTerm[] {
  const decisive: OrderTerm[] = [];
  const seen = new Set<string>();
  for (const term of terms) {
    const key = `${term.kind}:${term.key}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (term.kind === "property" && (term.key === "status" || (oneStructure && (term.key === "fromname" || term.key === "fromid")))) continue;
    decisive.push(term);
    if (term.kind === "property" && UNIQUE_KEYS.has(term.key)) return decisive;
  }
  decisive.push({ kind: "property", key: "id", direction: "desc" });
  return decisive;
}

/**
 * Up to this many structures (a structure's collection: it and its descendants, those the caller
 * may view), a SQL store merges a field order from each one's index; past it, their elements are sorted.
 */
export const MERGED_FIELD_STRUCTURES = 64;
