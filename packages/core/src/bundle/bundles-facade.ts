import type { PlatformContext } from "../scope/platform-context.ts";
import { checkBundle } from "./bundle-problems.ts";
import type { BundleCheck } from "./problems/bundle-check.ts";
import type { BundleSource } from "./bundle-source.ts";
import { importBundle, importBundleSource, type ImportBundleOptions } from "./import-bundle.ts";
import type { ImportReport } from "./import-report.ts";
import { elementsOfXml, resolveTitles, type TitleReference, type XmlElements, type XmlNode } from "./xml-elements.ts";
import type { BundleProblem } from "./problems/bundle-check.ts";

/** Bundles (docs/bundles.md): definitions, accounts and first elements, checked whole, imported in one transaction. */
export interface BundlesFacade {
  /** Every problem of a bundle against the store, each at its JSON path; nothing is written. */
  check(input: unknown, readFile: ImportBundleOptions["readFile"]): Promise<BundleCheck>;
  /** Imports a parsed bundle: definitions first, then elements, in one transaction (BUNDLE0001 with every problem when refused). */
  import(input: unknown, options: ImportBundleOptions): Promise<ImportReport>;
  /** Imports a bundle read in parts (a file streamed a batch of elements at a time). */
  importSource(source: BundleSource, options: ImportBundleOptions): Promise<ImportReport>;
  /**
   * Elements in the original's XML import format (the `.xml` export) as bundle element entries, read
   * against the structures now stored; `where` (the file) prefixes the problems' paths. Nothing is written.
   */
  elementsOfXml(documents: readonly XmlNode[], where: string): Promise<XmlElements>;
}

/** The bundles façade over a platform's context. */
export function createBundlesFacade(context: PlatformContext): BundlesFacade {
  return {
    check: (input, readFile) => checkBundle(input, { store: context.store, readFile }),
    import: (input, options) => importBundle(context, input, options),
    importSource: (source, options) => importBundleSource(context, source, options),
    async elementsOfXml(documents, where) {
      const definitions = await context.definitions();
      const byTag = new Map(definitions.structures().map((structure) => [structure.name.toLowerCase(), structure]));
      const read = elementsOfXml(documents, (tag) => definitions.structure(tag) ?? byTag.get(tag.toLowerCase()), where);
      if (read.titles.length === 0) return read;
      // Targets named by title are looked for among the stored elements (as the original's import does).
      const found = new Map<TitleReference, string>();
      const problems: BundleProblem[] = [...read.problems];
      for (const reference of read.titles) {
        const matches = await context.store.elements.list({
          status: "alive", structures: reference.structure ? definitions.withDescendants(reference.structure) : undefined,
          filter: { kind: "property", property: "title", comparison: "text", operator: "eq", values: [reference.title] },
          orderBy: [], limit: 2, offset: 0,
        });
        const [match] = matches;
        if (matches.length === 1 && match) found.set(reference, match.name ?? String(match.initid));
        else problems.push({ path: reference.path, message: matches.length === 0
          ? `no element is titled "${reference.title}"${reference.structure ? ` in ${reference.structure}` : ""}: give the target's logical name (name="...")`
          : `several elements are titled "${reference.title}": give the target's logical name (name="...")` });
      }
      return { ...read, entries: resolveTitles(read.entries, found), titles: [], problems };
    },
  };
}
