import { boundBySets } from "../access/field-visibility.ts";
import type { Enumerate } from "../enumerates/enumerate.ts";
import type { FieldType, SmartField } from "./smart-field.ts";
import type { SmartStructure } from "./smart-structure.ts";

/**
 * The type of one value of a field, as read: text, a number, a key of an enumerate, or always
 * null (a password, whose hash no answer shows). An enum field whose enumerate has no items is text.
 */
export type ValueItemType =
  | { readonly kind: "text" }
  | { readonly kind: "number" }
  | { readonly kind: "enum"; readonly enumerate: string; readonly keys: readonly string[] }
  | { readonly kind: "null" };

/**
 * What a field's value is, read and written: one model that `lineage types` writes as TypeScript and
 * the OpenAPI document as JSON Schema, so that the two cannot say different things.
 */
export interface FieldValueType {
  readonly field: SmartField;
  /** A column of an array: one value per row (a list of lists when multiple). */
  readonly column: boolean;
  readonly multiple: boolean;
  /** The type of each value read. */
  readonly item: ValueItemType;
  /** The type of each value written: a docid takes the target's initid or its logical name, a password its text. */
  readonly written: ValueItemType | { readonly kind: "reference" };
  /** A needed field outside an array: read, its value is never null. */
  readonly neverNull: boolean;
  /** Written by a create or an update (not read-only). */
  readonly writable: boolean;
  /** A create must give it: needed, outside an array, without a default. */
  readonly requiredOnCreate: boolean;
  /** A file or image field (a client may upload bytes for it). */
  readonly file: boolean;
}

const NUMBER_TYPES: ReadonlySet<FieldType> = new Set(["int", "double", "money", "docid"]);

/**
 * The value types of a structure's fields as the API serves them (inheritance resolved by the
 * store): array columns after their array, the array itself and invisible fields (I) left out,
 * those of an invisible frame or tab included (as a reader granted no field access layer sees them).
 */
export function structureValueTypes(structure: SmartStructure, enumerate: (name: string) => Enumerate | undefined): FieldValueType[] {
  const itemOf = (field: SmartField): ValueItemType => {
    if (field.type === "password") return { kind: "null" };
    if (NUMBER_TYPES.has(field.type)) return { kind: "number" };
    if (field.type === "enum" && field.enum) {
      const items = enumerate(field.enum)?.items ?? [];
      if (items.length > 0) return { kind: "enum", enumerate: field.enum, keys: [...new Set(items.map((item) => item.key))] };
    }
    return { kind: "text" };
  };
  return placedFields(boundBySets(structure).fields)
    .filter(({ field }) => (field.visibility ?? "W") !== "I" && field.type !== "array")
    .map(({ field, column }) => {
      const needed = field.needed === true && !column;
      return {
        field,
        column,
        multiple: field.multiple === true,
        item: itemOf(field),
        written: field.type === "docid" ? { kind: "reference" as const } : field.type === "password" ? { kind: "text" as const } : itemOf(field),
        neverNull: needed,
        writable: (field.visibility ?? "W") !== "R",
        requiredOnCreate: needed && field.default === undefined,
        file: field.type === "file" || field.type === "image",
      };
    });
}

/** The fields of a structure, array columns after their array, in order. */
function placedFields(fields: readonly SmartField[], column = false): { field: SmartField; column: boolean }[] {
  return fields.flatMap((field) => [{ field, column }, ...(field.type === "array" ? placedFields(field.fields ?? [], true) : [])]);
}
