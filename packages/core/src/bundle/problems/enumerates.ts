import { pathStep } from "../bundle-values.ts";
import type { BundleView } from "./bundle-view.ts";
import type { Known } from "./known-names.ts";
import { duplicates, type Report } from "./problem-report.ts";
import { isSystemName } from "../../queries/system-structures.ts";

/** Enumerates: none of the system's, unique keys, and parent keys that exist and make no cycle. */
export function checkEnumerates(view: BundleView, report: Report): void {
  for (const [name, items] of view.enumerates) {
    if (!items) continue;
    const path = `$.enumerates${pathStep(name)}`;
    if (isSystemName("enumerate", name)) report(path, `"${name}" is an enumerate of the system structures: it cannot be given again`);
    duplicates(items, (item) => item.key, path, "key", "key", report);
    const parents = new Map(items.map((item) => [item.key, item.parentKey]));
    items.forEach((item, i) => {
      if (item.parentKey === undefined) return;
      if (!parents.has(item.parentKey)) return report(`${path}[${i}].parentKey`, `enumerate "${name}" has no key "${item.parentKey}"`);
      // Walk up: a tree never comes back to where it started.
      const seen = new Set([item.key]);
      for (let key: string | undefined = item.parentKey; key !== undefined; key = parents.get(key)) {
        if (seen.has(key)) return report(`${path}[${i}].parentKey`, `the parents of "${item.key}" make a cycle`);
        seen.add(key);
      }
    });
  }
}

/** An enum field names a known enumerate; other types name none. */
export function checkEnumOf(field: { readonly type: string; readonly enum?: string | undefined }, path: string, known: Known, report: Report): void {
  if (field.type === "enum" && field.enum === undefined) report(path, `an enum field needs "enum": the name of its enumerate`);
  else if (field.type !== "enum" && field.enum !== undefined) report(`${path}.enum`, `only enum fields take an enumerate (type is "${field.type}")`);
  else if (field.enum !== undefined && !known.enumerate(field.enum)) report(`${path}.enum`, `unknown enumerate "${field.enum}"`);
}
