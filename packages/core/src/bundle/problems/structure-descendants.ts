import type { SmartField } from "../../structures/smart-field.ts";
import { fieldIndex, type StructureDefinition } from "../../structures/smart-structure.ts";
import type { ResolvedStructure } from "../../structures/structure-inheritance.ts";
import type { BundleStructure } from "../bundle.schema.ts";
import { inheritedFieldProblems } from "../inheritance-problems.ts";
import type { BundleView } from "./bundle-view.ts";
import type { Known } from "./known-names.ts";
import type { Report } from "./problem-report.ts";

/** A stored child's own field entry that its inherited fields, as the bundle changes them, take badly: by field id, the key at fault. */
interface InheritedClash {
  readonly id: string;
  /** The key of the child's entry at fault; "column" for a column with an inherited id. */
  readonly key: string;
}

/** The clashes of a structure's own field entries with the fields of its resolved parent, as checkStructures tells them of a bundle's. */
function inheritedClashes(own: StructureDefinition, parent: ResolvedStructure<StructureDefinition>): InheritedClash[] {
  const inherited = fieldIndex(parent);
  const clashes: InheritedClash[] = [];
  const visit = (field: SmartField, inArray: boolean) => {
    const inheritedField = inherited.get(field.id);
    if (!inheritedField) return field.fields?.forEach((column) => visit(column, true));
    if (inArray) clashes.push({ id: field.id, key: "column" });
    else for (const problem of inheritedFieldProblems(field, inheritedField, parent.name)) clashes.push({ id: field.id, key: problem.key });
  };
  own.fields.forEach((field) => visit(field, false));
  return clashes;
}

/**
 * Stored structures the bundle does not give, below one it gives: their own field entries are
 * checked against the fields they will inherit, as a child of the bundle is. A clash the store
 * had already is not the bundle's; a new one is told where the bundle gives the field (or the
 * nearest parent it changes), naming the stored child.
 */
export function checkStoredDescendants(view: BundleView, known: Known, report: Report): void {
  const entryOf = (name: string) => {
    const index = view.declared.structures.get(name);
    const entry = index === undefined ? undefined : view.structures[index];
    return index === undefined || !entry ? undefined : { index, entry };
  };
  for (const name of known.storedOnly) {
    const child = known.structure(name);
    const own = known.definition(name);
    const parentName = child?.ancestors[0];
    if (!child || !own || parentName === undefined || !child.ancestors.some((a) => view.declared.structures.has(a))) continue;
    const parent = known.structure(parentName);
    if (!parent) continue;
    const before = known.stored(name);
    const parentBefore = before?.ancestors[0] === undefined ? undefined : known.stored(before.ancestors[0]);
    const had = new Set(parentBefore ? inheritedClashes(own, parentBefore).map((c) => `${c.key}:${c.id}`) : []);
    const rootFirst = [...child.ancestors].reverse();
    for (const clash of inheritedClashes(own, parent)) {
      if (had.has(`${clash.key}:${clash.id}`)) continue;
      const at = bundlePathOf(clash.id, rootFirst, entryOf);
      const origin = at?.name ?? rootFirst.find((a) => known.definition(a) && fieldIndex(known.definition(a)!).has(clash.id)) ?? parentName;
      const field = `field "${clash.id}" of "${origin}"`;
      let message: string;
      if (clash.key === "column") message = `${field} is also a column of "${name}", which extends it`;
      else if (clash.key === "type") message = `${field} is also a field of "${name}", which extends it, with another type`;
      else message = `${field} is also a field of "${name}", which extends it, with its own "${clash.key}": only its label and visibility can change`;
      // Not given by the bundle: the field comes through a parent the bundle changes.
      const nearest = child.ancestors.find((a) => entryOf(a));
      const changed = nearest === undefined ? undefined : entryOf(nearest);
      const path = at?.path ?? (changed ? `$.structures[${changed.index}]${changed.entry.extends === undefined ? "" : ".extends"}` : "$.structures");
      report(path, message);
    }
  }
}

/** Where the bundle gives a field, in the first of the structures (root first) whose entry has it. */
function bundlePathOf(
  id: string, rootFirst: readonly string[], entryOf: (name: string) => { index: number; entry: BundleStructure } | undefined,
): { path: string; name: string } | undefined {
  for (const name of rootFirst) {
    const found = entryOf(name);
    if (!found) continue;
    const fields = found.entry.fields ?? [];
    for (const [j, field] of fields.entries()) {
      const path = `$.structures[${found.index}].fields[${j}]`;
      if (field.id === id) return { path, name };
      const k = field.fields?.findIndex((column) => column.id === id) ?? -1;
      if (k >= 0) return { path: `${path}.fields[${k}]`, name };
    }
  }
  return undefined;
}
