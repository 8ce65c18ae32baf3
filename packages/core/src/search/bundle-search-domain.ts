import type { BundleSearchDomain } from "../bundle/bundle.schema.ts";
import { stemConfiguration } from "./analyzer.ts";
import type { SearchDomain, SearchWeight } from "./search-domain.ts";

const LANG_STEMS: Readonly<Record<string, string>> = { en: "english", fr: "french" };

/**
 * The domain a bundle declares, with defaults filled: lang `en`, stem from
 * the language (english, french, else simple), weights D, callables as
 * {name, weight}.
 */
export function searchDomainOf(entry: BundleSearchDomain): SearchDomain {
  const lang = entry.lang ?? "en";
  const weight = (w: SearchWeight | undefined): SearchWeight => w ?? "D";
  return {
    name: entry.name,
    ...(entry.label === undefined ? {} : { label: entry.label }),
    lang,
    stem: stemConfiguration(entry.stem ?? LANG_STEMS[lang.split(/[-_]/)[0] ?? ""]),
    configs: entry.configs.map((config) => ({
      structure: config.structure,
      ...(config.collection === undefined ? {} : { collection: config.collection }),
      fields: (config.fields ?? []).map((f) => ({ field: f.field, weight: weight(f.weight) })),
      files: (config.files ?? []).map((f) => ({ field: f.field, weight: weight(f.weight) })),
      callables: (config.callables ?? []).map((c) => (typeof c === "string" ? { name: c, weight: "D" } : { name: c.name, weight: weight(c.weight) })),
    })),
  };
}
