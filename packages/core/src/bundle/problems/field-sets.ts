import { FIRST_IN_SET, type FieldSetDefinition } from "../../structures/field-set.ts";
import type { StructureDefinition } from "../../structures/smart-structure.ts";
import { fieldIndex } from "../../structures/smart-structure.ts";
import type { BundleStructure } from "../bundle.schema.ts";
import type { Report } from "./problem-report.ts";

/**
 * A structure's frames and tabs, and where its fields stand: unique ids among fields and sets, a
 * frame in a tab, a field in a frame, `insertAfter` naming a sibling, an inherited set changed in
 * its label, visibility or place only. `parent` is the structure's parent and `resolved` the
 * structure itself, both as the import will leave them (undefined when their chain is broken).
 */
export function checkFieldSets(
  structure: BundleStructure, path: string, parent: StructureDefinition | undefined, resolved: StructureDefinition | undefined, report: Report,
): void {
  const inheritedSets = new Map((parent?.fieldSets ?? []).map((set) => [set.id, set]));
  const inheritedFields = parent ? fieldIndex(parent) : new Map<string, never>();
  const ownFields = fieldIndex({ name: structure.name, fields: structure.fields ?? [] });
  const sets = new Map((resolved?.fieldSets ?? []).map((set) => [set.id, set]));
  const seen = new Map<string, string>();
  (structure.fieldSets ?? []).forEach((set, k) => {
    const at = `${path}.fieldSets[${k}]`;
    const earlier = seen.get(set.id);
    if (earlier) report(`${at}.id`, `duplicate field set "${set.id}" (first at ${earlier})`);
    else seen.set(set.id, at);
    if (ownFields.has(set.id) || inheritedFields.has(set.id)) report(`${at}.id`, `"${set.id}" is a field of the structure: a set cannot have its id`);
    const inherited = inheritedSets.get(set.id);
    if (inherited) return inheritedSetProblems(set, inherited, parent!.name, at, report);
    if (set.type === "tab" && set.parent !== undefined) report(`${at}.parent`, `a tab stands at the top: only frames stand in a tab`);
    if (set.type === "frame" && set.parent !== undefined && sets.get(set.parent)?.type !== "tab") {
      report(`${at}.parent`, `"${set.parent}" is no tab of structure "${structure.name}"`);
    }
    if (set.insertAfter !== undefined) siblingProblem(set.id, set.insertAfter, `${at}.insertAfter`, resolved, report);
  });
  (structure.fields ?? []).forEach((field, k) => {
    const at = `${path}.fields[${k}]`;
    const column = inheritedFields.get(field.id)?.arrayId !== undefined;
    if (column && (field.fieldSet !== undefined || field.insertAfter !== undefined)) {
      report(`${at}.${field.fieldSet !== undefined ? "fieldSet" : "insertAfter"}`, `"${field.id}" is a column of "${inheritedFields.get(field.id)!.arrayId}": it stands in its array`);
      return;
    }
    if (field.fieldSet !== undefined && sets.get(field.fieldSet)?.type !== "frame") {
      report(`${at}.fieldSet`, `"${field.fieldSet}" is no frame of structure "${structure.name}"`);
    }
    if (field.insertAfter !== undefined) siblingProblem(field.id, field.insertAfter, `${at}.insertAfter`, resolved, report);
  });
}

/** The problems of a child's entry for an inherited frame or tab: same type, and no other tab. */
function inheritedSetProblems(entry: FieldSetDefinition, inherited: FieldSetDefinition, parent: string, at: string, report: Report): void {
  if (entry.type !== inherited.type) report(`${at}.type`, `"${entry.id}" is inherited from "${parent}" as a ${inherited.type}: its type cannot change`);
  if (entry.parent !== undefined) {
    report(`${at}.parent`, `"${entry.id}" is inherited from "${parent}": only its label, visibility and place can change`);
  }
}

/** `insertAfter` names a field or set standing in the same set (or both at the top), or is ::first. */
function siblingProblem(id: string, after: string, at: string, resolved: StructureDefinition | undefined, report: Report): void {
  if (after === FIRST_IN_SET || !resolved) return;
  if (after === id) return report(at, `"${id}" cannot stand after itself`);
  const containerOf = (name: string): string | undefined | null => {
    const field = resolved.fields.find((f) => f.id === name);
    if (field) return field.fieldSet;
    const set = resolved.fieldSets?.find((s) => s.id === name);
    return set ? set.parent : null;
  };
  const where = containerOf(after);
  if (where === null) return report(at, `structure "${resolved.name}" has no field or set "${after}"`);
  if (where !== containerOf(id)) report(at, `"${after}" does not stand in the same set as "${id}"`);
}
