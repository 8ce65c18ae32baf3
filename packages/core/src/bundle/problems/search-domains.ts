import { fieldIndex } from "../../structures/smart-structure.ts";
import type { BundleView } from "./bundle-view.ts";
import type { Known } from "./known-names.ts";
import { duplicates, type Report } from "./problem-report.ts";

/** Search domains: unique names, and the structures and fields their configs index known and fit. */
export function checkSearchDomains(view: BundleView, known: Known, report: Report): void {
  duplicates(view.searchDomains, (d) => d.name, "$.searchDomains", "name", "search domain", report);
  view.searchDomains.forEach((domain, i) => {
    domain?.configs.forEach((config, j) => {
      const path = `$.searchDomains[${i}].configs[${j}]`;
      if (!known.structureDeclared(config.structure)) return report(`${path}.structure`, `unknown structure "${config.structure}"`);
      const structure = known.structure(config.structure);
      if (!structure) return;
      const fields = fieldIndex(structure);
      config.fields?.forEach((entry, k) => {
        const field = fields.get(entry.field);
        if (!field) report(`${path}.fields[${k}].field`, `structure "${config.structure}" has no field "${entry.field}"`);
        else if (field.type === "array") report(`${path}.fields[${k}].field`, `"${entry.field}" is an array: index its columns`);
      });
      config.files?.forEach((entry, k) => {
        const field = fields.get(entry.field);
        if (!field) report(`${path}.files[${k}].field`, `structure "${config.structure}" has no field "${entry.field}"`);
        else if (field.type !== "file" && field.type !== "image") report(`${path}.files[${k}].field`, `"${entry.field}" is not a file field`);
      });
    });
  });
}
