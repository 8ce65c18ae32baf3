import type { ElementValues, FieldValue } from "../elements/smart-element.ts";
import type { ResolvedField } from "../structures/smart-field.ts";
import { flattenFields, type StructureDefinition } from "../structures/smart-structure.ts";
import type { ChangeValue, FieldChange, FieldChanges } from "./element-event.ts";

/** A scalar as the API answers it: what is stored, or null (a list where a scalar belongs is no value). */
const scalar = (value: FieldValue | undefined): ChangeValue => (value === undefined || value === null || typeof value === "object" ? null : value);

/**
 * The `value` the API answers for a field's stored value (display-value.ts renders the same), without
 * what it looks up: a multiple field answers a list, an array column one entry per row.
 */
export function answeredValue(field: ResolvedField, stored: FieldValue | undefined): ChangeValue {
  const one = (value: FieldValue | undefined): ChangeValue => (field.multiple ? (Array.isArray(value) ? value.map(scalar) : []) : scalar(value));
  if (field.arrayId === undefined) return one(stored);
  return Array.isArray(stored) ? stored.map(one) : [];
}

const fieldsCache = new WeakMap<StructureDefinition, ResolvedField[]>();

/** The fields a change may name: every field holding values, but passwords (their hashes never leave the store). */
function changeableFields(structure: StructureDefinition): ResolvedField[] {
  let fields = fieldsCache.get(structure);
  if (!fields) {
    fields = flattenFields(structure).filter((field) => field.type !== "array" && field.type !== "password");
    fieldsCache.set(structure, fields);
  }
  return fields;
}

/**
 * The fields of a structure whose answered value differs between two sets of stored values, each
 * with its value before and after; `before` undefined is an element that did not exist (every
 * field with a value then counts). Password fields are never named.
 * @example
 * fieldChanges(article, { ar_title: "Old" }, { ar_title: "New" }); // { ar_title: { before: "Old", after: "New" } }
 */
export function fieldChanges(structure: StructureDefinition, before: ElementValues | undefined, after: ElementValues): FieldChanges {
  const changes: Record<string, FieldChange> = {};
  for (const field of changeableFields(structure)) {
    const was = answeredValue(field, before?.[field.id]);
    const is = answeredValue(field, after[field.id]);
    if (!sameValue(was, is)) changes[field.id] = { before: was, after: is };
  }
  return changes;
}

/** Two answered values alike: scalars compared as they are (most fields, on every write), lists by their JSON. */
function sameValue(a: ChangeValue, b: ChangeValue): boolean {
  if (a === b) return true;
  return Array.isArray(a) && Array.isArray(b) && JSON.stringify(a) === JSON.stringify(b);
}
