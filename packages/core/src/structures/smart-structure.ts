import type { Label } from "../i18n/label.ts";
import type { FieldSetDefinition } from "./field-set.ts";
import type { ResolvedField, SmartField } from "./smart-field.ts";

/** The definition of a Smart Structure, as a bundle gives it. */
export interface StructureDefinition {
  readonly name: string;
  /** The structure it inherits from (bundle `extends`): see structure-inheritance.ts. */
  readonly extends?: string;
  readonly title?: Label;
  readonly icon?: string;
  readonly lifecycle?: string;
  readonly profile?: string;
  /** The field access whose layers widen its fields' visibility for the accounts granted them (field-visibility.ts). */
  readonly fieldAccess?: string;
  readonly titleField?: string;
  /** Several fields whose values, joined by spaces, make the title (bundle `titleFields`). */
  readonly titleFields?: readonly string[];
  readonly fields: readonly SmartField[];
  /** Its frames and tabs (bundle `fieldSets`); resolved, in the order they stand (structure-layout.ts). */
  readonly fieldSets?: readonly FieldSetDefinition[];
}

/**
 * A stored Smart Structure: its definition with a numeric id. As the catalog stores it, a structure
 * holds what its bundle entry gave; as Definitions serve it, it is whole: inherited fields and
 * settings included, and its ancestors listed (resolveStructures).
 */
export interface SmartStructure extends StructureDefinition {
  readonly id: number;
  /** The structures it inherits from, its parent first; absent or empty when it extends none. */
  readonly ancestors?: readonly string[];
}

/** All fields of a structure, array columns included, in logical order. */
export function flattenFields(structure: StructureDefinition): ResolvedField[] {
  const result: ResolvedField[] = [];
  const visit = (fields: readonly SmartField[], arrayId: string | undefined) => {
    for (const field of fields) {
      result.push({ ...field, arrayId, logicalOrder: result.length + 1 });
      if (field.type === "array") visit(field.fields ?? [], field.id);
    }
  };
  visit(structure.fields, undefined);
  return result;
}

const fieldIndexCache = new WeakMap<StructureDefinition, Map<string, ResolvedField>>();

/** The fields of a structure by id (memoised per structure object). */
export function fieldIndex(structure: StructureDefinition): ReadonlyMap<string, ResolvedField> {
  let index = fieldIndexCache.get(structure);
  if (!index) {
    index = new Map(flattenFields(structure).map((field) => [field.id, field]));
    fieldIndexCache.set(structure, index);
  }
  return index;
}

/** One field of a structure, or undefined. */
export function findField(structure: StructureDefinition, id: string): ResolvedField | undefined {
  return fieldIndex(structure).get(id);
}
