import { translate } from "../i18n/label.ts";
import { visibilityOf, type SmartField } from "./smart-field.ts";
import { flattenFields, type SmartStructure } from "./smart-structure.ts";

/** One node of the `family.structure` tree. */
export interface FieldDescription {
  id: string;
  label: string;
  type: string;
  logicalOrder: number;
  multiple: boolean;
  options: Record<string, string>;
  needed: boolean;
  visibility: string;
  enum?: string;
  content?: Record<string, FieldDescription>;
}

/** The structure tree served under `family.structure`; fields of visibility I are left out. */
export function describeStructure(structure: SmartStructure, locale: string): Record<string, FieldDescription> {
  const orders = new Map(flattenFields(structure).map((field) => [field.id, field.logicalOrder]));
  const describe = (fields: readonly SmartField[]): Record<string, FieldDescription> => {
    const tree: Record<string, FieldDescription> = {};
    for (const field of fields) {
      if (visibilityOf(field) === "I") continue;
      const node: FieldDescription = {
        id: field.id,
        label: translate(field.label ?? field.id, locale),
        type: field.type,
        logicalOrder: orders.get(field.id) ?? 0,
        multiple: field.multiple === true || field.type === "array",
        options: { ...field.options },
        needed: field.needed === true,
        visibility: visibilityOf(field),
      };
      if (field.enum) node.enum = field.enum;
      if (field.type === "array") node.content = describe(field.fields ?? []);
      tree[field.id] = node;
    }
    return tree;
  };
  return describe(structure.fields);
}
