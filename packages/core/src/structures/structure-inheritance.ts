import type { FieldSetDefinition } from "./field-set.ts";
import type { SmartField } from "./smart-field.ts";
import type { StructureDefinition } from "./smart-structure.ts";
import { layOut } from "./structure-layout.ts";

/*
 * Structure inheritance (bundle `extends`), as the original's families inherit: a structure takes
 * its parent's fields, then adds its own; a field it gives with the id of an inherited one changes
 * that field's label, visibility, frame or place only, where the parent has it (the original's
 * MODATTR); so does an entry for an inherited frame or tab (label, visibility, place). Its
 * profile, lifecycle, field access, icon and title fields are the parent's unless it names its own. The catalog
 * keeps each structure as its bundle gave it; they are resolved whenever definitions are loaded,
 * so a parent changed by a later bundle changes its descendants too.
 */

/** Settings a structure takes from its parent when it gives none. */
const INHERITED_SETTINGS = ["icon", "lifecycle", "profile", "fieldAccess"] as const;

/** What of an inherited field a structure may change. */
export const OVERRIDABLE_FIELD_KEYS = ["label", "visibility", "fieldSet", "insertAfter"] as const;

/** What of an inherited frame or tab a structure may change. */
export const OVERRIDABLE_SET_KEYS = ["label", "visibility", "insertAfter"] as const;

/** A structure as resolved: whole, with its ancestors, parent first. */
export type ResolvedStructure<T extends StructureDefinition> = T & { readonly ancestors: readonly string[] };

/**
 * Resolves every structure of a set against the others: inherited fields and settings filled in,
 * ancestors listed. A parent missing from the set, or a chain of parents that comes back to a
 * structure, ends the chain there (bundle checks refuse both; see inheritanceBreak).
 * @example
 * const [base, invoice] = resolveStructures([base, { name: "INVOICE", extends: "BASE", fields: [] }]);
 * invoice.ancestors; // ["BASE"]
 */
export function resolveStructures<T extends StructureDefinition>(definitions: readonly T[]): ResolvedStructure<T>[] {
  const byName = new Map(definitions.map((definition) => [definition.name, definition]));
  const resolved = new Map<string, ResolvedStructure<T>>();
  const resolve = (definition: T, visiting: Set<string>): ResolvedStructure<T> => {
    const done = resolved.get(definition.name);
    if (done) return done;
    visiting.add(definition.name);
    const parentDefinition = definition.extends === undefined ? undefined : byName.get(definition.extends);
    const parent = parentDefinition && !visiting.has(parentDefinition.name) ? resolve(parentDefinition, visiting) : undefined;
    const result = parent ? inherit(parent, definition) : { ...definition, ...laidOut(definition.fields, definition.fieldSets ?? []), ancestors: [] };
    resolved.set(definition.name, result);
    return result;
  };
  return definitions.map((definition) => resolve(definition, new Set()));
}

/** Why a structure's chain of parents is broken in a set: a parent it lacks, or a cycle; undefined when whole. */
export function inheritanceBreak(
  name: string, parentOf: (name: string) => string | undefined, exists: (name: string) => boolean,
): { readonly kind: "unknown"; readonly parent: string } | { readonly kind: "cycle"; readonly through: readonly string[] } | undefined {
  const chain: string[] = [];
  for (let parent = parentOf(name); parent !== undefined; parent = parentOf(parent)) {
    if (parent === name) return { kind: "cycle", through: chain };
    // A cycle further up, not through this structure: told where it is.
    if (chain.includes(parent)) return undefined;
    if (!exists(parent)) return chain.length === 0 ? { kind: "unknown", parent } : undefined;
    chain.push(parent);
  }
  return undefined;
}

/** A structure whose parent is resolved already. */
function inherit<T extends StructureDefinition>(parent: ResolvedStructure<T>, own: T): ResolvedStructure<T> {
  const settings: Partial<Record<(typeof INHERITED_SETTINGS)[number], string>> = {};
  for (const key of INHERITED_SETTINGS) {
    const value = own[key] ?? parent[key];
    if (value !== undefined) settings[key] = value;
  }
  // The title fields go together: a structure that names either form names its title.
  const ownTitle = own.titleField !== undefined || own.titleFields !== undefined;
  const title = ownTitle ? {} : {
    ...(parent.titleField === undefined ? {} : { titleField: parent.titleField }),
    ...(parent.titleFields === undefined ? {} : { titleFields: parent.titleFields }),
  };
  return {
    ...own,
    ...settings,
    ...title,
    ...laidOut(inheritFields(parent.fields, own.fields), inheritSets(parent.fieldSets ?? [], own.fieldSets ?? [])),
    ancestors: [parent.name, ...parent.ancestors],
  };
}

/** Fields and sets laid out; no `fieldSets` key for a structure without any, which stays as its bundle gave it. */
function laidOut(fields: readonly SmartField[], sets: readonly FieldSetDefinition[]): { fields: readonly SmartField[]; fieldSets?: readonly FieldSetDefinition[] } {
  const layout = layOut(fields, sets);
  return layout.fieldSets.length === 0 ? { fields: layout.fields } : layout;
}

/** The parent's frames and tabs, changed by the child's entries of the same id, then the child's own. */
function inheritSets(inherited: readonly FieldSetDefinition[], own: readonly FieldSetDefinition[]): FieldSetDefinition[] {
  const changes = new Map(own.map((set) => [set.id, set]));
  const inheritedIds = new Set(inherited.map((set) => set.id));
  const sets = inherited.map((set) => {
    const change = changes.get(set.id);
    if (!change) return set;
    let result: FieldSetDefinition = set;
    for (const key of OVERRIDABLE_SET_KEYS) if (change[key] !== undefined) result = { ...result, [key]: change[key] };
    return result;
  });
  return [...sets, ...own.filter((set) => !inheritedIds.has(set.id))];
}

/** The parent's fields, changed by the child's entries of the same id, then the child's own fields. */
function inheritFields(inherited: readonly SmartField[], own: readonly SmartField[]): SmartField[] {
  const changes = new Map(own.map((field) => [field.id, field]));
  const inheritedIds = new Set<string>();
  const apply = (field: SmartField): SmartField => {
    inheritedIds.add(field.id);
    const change = changes.get(field.id);
    let result: SmartField = field;
    if (change) {
      result = { ...field };
      for (const key of OVERRIDABLE_FIELD_KEYS) if (change[key] !== undefined) result = { ...result, [key]: change[key] };
    }
    return field.fields ? { ...result, fields: field.fields.map(apply) } : result;
  };
  const fields = inherited.map(apply);
  return [...fields, ...own.filter((field) => !inheritedIds.has(field.id))];
}
