import type { SmartField } from "../structures/smart-field.ts";
import { inheritanceBreak, OVERRIDABLE_FIELD_KEYS } from "../structures/structure-inheritance.ts";
import type { BundleField } from "./bundle.schema.ts";

/** What a bundle's `extends` may name: structures of the bundle and of the store, as the bundle will leave them. */
export interface StructureLinks {
  /** The parent a structure names, or undefined. */
  parentOf(name: string): string | undefined;
  exists(name: string): boolean;
}

/** The problem of a structure's `extends`: an unknown parent, or parents that come back to it; undefined when none. */
export function extendsProblem(name: string, links: StructureLinks): string | undefined {
  const broken = inheritanceBreak(name, (n) => links.parentOf(n), (n) => links.exists(n));
  if (broken?.kind === "unknown") return `unknown structure "${broken.parent}"`;
  if (broken?.kind !== "cycle") return undefined;
  if (broken.through.length === 0) return `structure "${name}" cannot extend itself`;
  return `structure "${name}" extends itself through ${broken.through.map((n) => `"${n}"`).join(", ")}`;
}

/** Keys a field entry of a child gives that an inherited field cannot take. */
const FIXED_KEYS = ["needed", "multiple", "enum", "structure", "options", "fields"] as const satisfies readonly Exclude<keyof BundleField, "id" | "type" | (typeof OVERRIDABLE_FIELD_KEYS)[number]>[];

/** A child's field entry, as a bundle gives it or as the store keeps it. */
type InheritedEntry = Pick<BundleField, "id"> & { readonly type: string } & { readonly [K in (typeof FIXED_KEYS)[number]]?: unknown };

/**
 * The problems of a child's entry for an inherited field, by the key they are at: it gives the
 * field's type as the parent has it, and changes its label or visibility only.
 */
export function inheritedFieldProblems(entry: InheritedEntry, inherited: SmartField, parent: string): { key: string; message: string }[] {
  const problems: { key: string; message: string }[] = [];
  if (entry.type !== inherited.type) {
    problems.push({ key: "type", message: `"${entry.id}" is inherited from "${parent}" as a ${inherited.type} field: its type cannot change` });
  }
  for (const key of FIXED_KEYS) {
    if (entry[key] !== undefined) problems.push({ key, message: `"${entry.id}" is inherited from "${parent}": only its label and visibility can change` });
  }
  return problems;
}
