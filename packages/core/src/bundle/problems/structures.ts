import { fieldIndex } from "../../structures/smart-structure.ts";
import type { BundleField } from "../bundle.schema.ts";
import { filePathProblem } from "../bundle-values.ts";
import { extendsProblem, inheritedFieldProblems } from "../inheritance-problems.ts";
import type { BundleView } from "./bundle-view.ts";
import { checkEnumOf } from "./enumerates.ts";
import { checkFieldSets } from "./field-sets.ts";
import type { Known } from "./known-names.ts";
import { duplicates, type Report } from "./problem-report.ts";
import { isSystemName } from "../../queries/system-structures.ts";

/** Structures: unique names (none of the system's), known references, parents, fields (inherited ones only relabelled) and title fields. */
export function checkStructures(view: BundleView, known: Known, report: Report): void {
  duplicates(view.structures, (s) => s.name, "$.structures", "name", "structure", report);
  view.structures.forEach((structure, i) => {
    if (!structure) return;
    const path = `$.structures[${i}]`;
    if (isSystemName("structure", structure.name)) {
      report(`${path}.name`, `"${structure.name}" is a system structure: extend it ("extends": "${structure.name}") rather than give it again`);
    }
    if (structure.lifecycle !== undefined && !known.lifecycle(structure.lifecycle)) report(`${path}.lifecycle`, `unknown lifecycle "${structure.lifecycle}"`);
    if (structure.profile !== undefined && !known.profile(structure.profile)) report(`${path}.profile`, `unknown profile "${structure.profile}"`);
    if (structure.fieldAccess !== undefined && !known.fieldAccess(structure.fieldAccess)) {
      report(`${path}.fieldAccess`, `unknown field access "${structure.fieldAccess}"`);
    }
    const iconProblem = structure.icon === undefined ? undefined : filePathProblem(structure.icon);
    if (iconProblem) report(`${path}.icon`, iconProblem);
    const extendsProblemFound = structure.extends === undefined ? undefined : extendsProblem(structure.name, { parentOf: known.parentOf, exists: known.structureDeclared });
    if (extendsProblemFound) report(`${path}.extends`, extendsProblemFound);
    const parent = structure.extends === undefined || extendsProblemFound ? undefined : known.structure(structure.extends);
    const inherited = parent ? fieldIndex(parent) : new Map<string, never>();
    const seen = new Map<string, string>();
    const checkField = (field: BundleField, at: string, inArray: string | undefined) => {
      const earlier = seen.get(field.id);
      if (earlier) report(`${at}.id`, `duplicate field "${field.id}" (first at ${earlier})`);
      else seen.set(field.id, at);
      const inheritedField = inherited.get(field.id);
      if (inheritedField && parent) {
        // An entry for an inherited field changes it; a column cannot take an inherited id.
        if (inArray !== undefined) return report(`${at}.id`, `"${field.id}" is inherited from "${parent.name}": a column cannot have its id`);
        for (const problem of inheritedFieldProblems(field, inheritedField, parent.name)) report(`${at}.${problem.key}`, problem.message);
        return;
      }
      checkEnumOf(field, at, known, report);
      if (field.type === "docid" && field.structure !== undefined && !known.structureDeclared(field.structure)) {
        report(`${at}.structure`, `unknown structure "${field.structure}"`);
      }
      if (field.type !== "docid" && field.structure !== undefined) report(`${at}.structure`, `only docid fields name a target structure`);
      if (inArray !== undefined && field.type === "array") report(`${at}.type`, `a column of the array "${inArray}" cannot be an array`);
      if (field.type !== "array" && field.fields !== undefined) report(`${at}.fields`, `only array fields have columns (type is "${field.type}")`);
      field.fields?.forEach((column, k) => checkField(column, `${at}.fields[${k}]`, field.id));
    };
    (structure.fields ?? []).forEach((field, k) => checkField(field, `${path}.fields[${k}]`, undefined));
    checkFieldSets(structure, path, parent, known.structure(structure.name), report);
    // Title fields may be inherited ones.
    const fields = fieldIndex(known.structure(structure.name) ?? { ...structure, fields: structure.fields ?? [] });
    const checkTitleField = (id: string, at: string) => {
      const title = fields.get(id);
      if (!title) report(at, `structure "${structure.name}" has no field "${id}"`);
      else if (title.type === "array") report(at, `the title field cannot be an array`);
      else if (UNTITLED_TYPES.has(title.type)) report(at, `a field of type ${title.type} cannot make a title`);
    };
    if (structure.titleField !== undefined) checkTitleField(structure.titleField, `${path}.titleField`);
    if (structure.titleField !== undefined && structure.titleFields !== undefined) {
      report(`${path}.titleFields`, `give titleField or titleFields, not both`);
    }
    structure.titleFields?.forEach((id, k) => checkTitleField(id, `${path}.titleFields[${k}]`));
  });
}

/** Types whose values are no text for a title: files and images are references, passwords are never disclosed. */
const UNTITLED_TYPES: ReadonlySet<string> = new Set(["file", "image", "password"]);
