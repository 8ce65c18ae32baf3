import { translate } from "../i18n/label.ts";
import { visibilityOf, type SmartField } from "./smart-field.ts";
import type { SmartStructure } from "./smart-structure.ts";
import { structureLayout } from "./structure-layout.ts";

/** One node of the `family.structure` tree: a field, or a field set (frame, tab, array) with its `content`. */
export interface FieldDescription {
  id: string;
  label: string;
  type: string;
  logicalOrder: number;
  multiple: boolean;
  options: Record<string, string>;
  /** Absent on frames and tabs, which hold no value (as the original's field sets). */
  needed?: boolean;
  visibility: string;
  enum?: string;
  content?: Record<string, FieldDescription>;
}

/**
 * The structure tree served under `family.structure`, nested as the original nests it: at the top
 * the fields of no set, then tabs and frames; a tab's `content` its frames, a frame's its fields,
 * an array's its columns. Fields and sets of visibility I are left out, a set with all it holds.
 */
export function describeStructure(structure: SmartStructure, locale: string): Record<string, FieldDescription> {
  const layout = structureLayout(structure);
  const order = (id: string) => layout.order.get(id) ?? 0;
  const describeFields = (fields: readonly SmartField[]): Record<string, FieldDescription> => {
    const tree: Record<string, FieldDescription> = {};
    for (const field of fields) {
      if (visibilityOf(field) === "I") continue;
      const node: FieldDescription = {
        id: field.id,
        label: translate(field.label ?? field.id, locale),
        type: field.type,
        logicalOrder: order(field.id),
        multiple: field.multiple === true || field.type === "array",
        options: { ...field.options },
        needed: field.needed === true,
        visibility: visibilityOf(field),
      };
      if (field.enum) node.enum = field.enum;
      if (field.type === "array") node.content = describeFields(field.fields ?? []);
      tree[field.id] = node;
    }
    return tree;
  };
  const fieldsIn = (set: string | undefined) => structure.fields.filter((field) => field.fieldSet === set);
  const describeSets = (parent: string | undefined, tree: Record<string, FieldDescription>): Record<string, FieldDescription> => {
    for (const set of structure.fieldSets ?? []) {
      if (set.parent !== parent || (set.visibility ?? "W") === "I") continue;
      tree[set.id] = {
        id: set.id,
        label: translate(set.label ?? set.id, locale),
        type: set.type,
        logicalOrder: order(set.id),
        multiple: false,
        options: {},
        visibility: set.visibility ?? "W",
        content: describeSets(set.id, describeFields(fieldsIn(set.id))),
      };
    }
    return tree;
  };
  return describeSets(undefined, describeFields(fieldsIn(undefined)));
}
