import { FIRST_IN_SET, type FieldSetDefinition, type ResolvedFieldSet } from "./field-set.ts";
import { visibilityOf, type SmartField } from "./smart-field.ts";
import type { StructureDefinition } from "./smart-structure.ts";

/*
 * Where fields and field sets stand, as the original orders them (its FamilyAbsoluteOrder): a tree
 * whose top holds the fields of no set, then the tabs and frames of no tab; a tab holds frames, a
 * frame fields, an array its columns. Each entry goes at the end of its set in the order given
 * (a child's after its parent's), unless it names the sibling it stands after (`insertAfter`). The
 * structure's order is the tree read depth first: a child's field in an inherited frame comes with
 * that frame's fields, not after every inherited one.
 */

interface Node {
  readonly kind: "field" | "set";
  readonly id: string;
  readonly insertAfter: string | undefined;
  readonly children: Node[];
}

/** The fields (their sets resolved) and frames and tabs of a structure, in the order they stand; `insertAfter` applied and dropped. */
export function layOut(fields: readonly SmartField[], sets: readonly FieldSetDefinition[]): { fields: SmartField[]; fieldSets: FieldSetDefinition[] } {
  const setById = new Map(sets.map((set) => [set.id, set]));
  const fieldById = new Map(fields.map((field) => [field.id, field]));
  const nodes = new Map<string, Node>();
  const node = (kind: Node["kind"], entry: { id: string; insertAfter?: string }): Node => {
    const made: Node = { kind, id: entry.id, insertAfter: entry.insertAfter, children: [] };
    nodes.set(`${kind}:${entry.id}`, made);
    return made;
  };
  const setNodes = new Map(sets.map((set) => [set.id, node("set", set)]));
  const root: Node[] = [];
  const containerOf = new Map<Node, Node[]>();
  const place = (child: Node, container: Node[]) => {
    container.push(child);
    containerOf.set(child, container);
  };
  // Fields first: the top holds the fields of no set before the sets. Only a frame holds fields and only a tab frames, so no set can hold itself.
  for (const field of fields) {
    const frame = field.fieldSet === undefined ? undefined : setById.get(field.fieldSet);
    place(node("field", field), frame?.type === "frame" ? setNodes.get(frame.id)!.children : root);
  }
  for (const set of sets) {
    const tab = set.parent === undefined ? undefined : setById.get(set.parent);
    place(setNodes.get(set.id)!, set.type === "frame" && tab?.type === "tab" ? setNodes.get(tab.id)!.children : root);
  }
  const moved = [...sets.map((set) => setNodes.get(set.id)!), ...fields.map((field) => nodes.get(`field:${field.id}`)!)];
  for (const entry of moved) {
    if (entry.insertAfter === undefined) continue;
    const container = containerOf.get(entry)!;
    const sibling = entry.insertAfter === FIRST_IN_SET ? undefined : container.find((other) => other.id === entry.insertAfter && other !== entry);
    if (entry.insertAfter !== FIRST_IN_SET && !sibling) continue;
    container.splice(container.indexOf(entry), 1);
    container.splice(sibling ? container.indexOf(sibling) + 1 : 0, 0, entry);
  }
  const orderedFields: SmartField[] = [];
  const orderedSets: FieldSetDefinition[] = [];
  const visit = (children: readonly Node[], parent: string | undefined) => {
    for (const child of children) {
      if (child.kind === "set") {
        orderedSets.push(settled(setById.get(child.id)!, "parent", parent));
        visit(child.children, child.id);
      } else {
        orderedFields.push(settled(fieldById.get(child.id)!, "fieldSet", parent));
      }
    }
  };
  visit(root, undefined);
  return { fields: orderedFields, fieldSets: orderedSets };
}

/** The entry with its set as laid out and no `insertAfter`; the same object when nothing changes, so that what is memoised per field stays. */
function settled<T extends { readonly insertAfter?: string }, K extends "parent" | "fieldSet">(entry: T & { readonly [key in K]?: string }, key: K, set: string | undefined): T {
  if (entry.insertAfter === undefined && entry[key] === set) return entry;
  const { insertAfter: _placed, [key]: _set, ...rest } = entry;
  return (set === undefined ? rest : { ...rest, [key]: set }) as unknown as T;
}

/** A structure's layout: its field sets (arrays included) and the order of every field and set. */
export interface StructureLayout {
  /** Frames, tabs and arrays, in the order they stand. */
  readonly sets: readonly ResolvedFieldSet[];
  /** The set each field or set stands in (a column's array included); absent at the top. */
  readonly parentOf: ReadonlyMap<string, string>;
  /** Each field's and set's place, 1-based, as the original's logicalOrder. */
  readonly order: ReadonlyMap<string, number>;
}

const layouts = new WeakMap<StructureDefinition, StructureLayout>();

/**
 * The layout of a resolved structure (memoised per object): its sets, where each field stands and
 * their orders. On a structure as a caller sees it (RequestScope.structure), visibilities are theirs.
 * @example
 * structureLayout(invoice).sets; // [{ id: "fr_ident", type: "frame", parent: undefined, logicalOrder: 1, ... }]
 */
export function structureLayout(structure: StructureDefinition): StructureLayout {
  let layout = layouts.get(structure);
  if (layout) return layout;
  const sets: ResolvedFieldSet[] = [];
  const parentOf = new Map<string, string>();
  const order = new Map<string, number>();
  const number = (id: string, parent: string | undefined) => {
    order.set(id, order.size + 1);
    if (parent !== undefined) parentOf.set(id, parent);
  };
  const setsByParent = new Map<string | undefined, FieldSetDefinition[]>();
  for (const set of structure.fieldSets ?? []) setsByParent.set(set.parent, [...(setsByParent.get(set.parent) ?? []), set]);
  const fieldsBySet = new Map<string | undefined, SmartField[]>();
  for (const field of structure.fields) fieldsBySet.set(field.fieldSet, [...(fieldsBySet.get(field.fieldSet) ?? []), field]);
  const visitFields = (fields: readonly SmartField[], parent: string | undefined) => {
    for (const field of fields) {
      number(field.id, parent);
      if (field.type !== "array") continue;
      sets.push({ id: field.id, type: "array", label: field.label, visibility: visibilityOf(field), parent, logicalOrder: order.get(field.id)! });
      visitFields(field.fields ?? [], field.id);
    }
  };
  const visitSets = (parent: string | undefined) => {
    for (const set of setsByParent.get(parent) ?? []) {
      number(set.id, parent);
      sets.push({ id: set.id, type: set.type, label: set.label, visibility: set.visibility ?? "W", parent, logicalOrder: order.get(set.id)! });
      visitFields(fieldsBySet.get(set.id) ?? [], set.id);
      visitSets(set.id);
    }
  };
  visitFields(fieldsBySet.get(undefined) ?? [], undefined);
  visitSets(undefined);
  layout = { sets, parentOf, order };
  layouts.set(structure, layout);
  return layout;
}
