import type { PlatformContext } from "../scope/platform-context.ts";
import { checkBundleSource } from "./bundle-problems.ts";
import { bundleSourceOf, type BundleSource } from "./bundle-source.ts";
import type { ImportProgressListener } from "./import-progress.ts";
import { passwordHashes, writeDefinitions } from "./import-definitions.ts";
import { importElements, type ElementsImport, type OverwrittenElement } from "./import-elements.ts";
import type { ImportReport } from "./import-report.ts";
import { bundleError } from "./problems/bundle-check.ts";

/** What importBundle is given besides the platform and the bundle. */
export interface ImportBundleOptions {
  /** The content of a file named by the bundle, relative to its folder; undefined when there is none. */
  readFile(relativePath: string): Uint8Array | undefined;
  /** Told as the import reads, checks and writes the elements. */
  onProgress?: ImportProgressListener | undefined;
  /** Told of each element changed since the import before that the import overwrites with the bundle's values. */
  onOverwrite?: ((element: OverwrittenElement) => void) | undefined;
  /** Does the whole import, then rolls it back: the report says what it would do, nothing is written. */
  dryRun?: boolean | undefined;
}

/** Carries a dry run's report out of its transaction, which throwing rolls back. */
class DryRunRollback extends Error {
  constructor(readonly report: ImportReport) {
    super("dry run: rolled back");
  }
}

/**
 * Imports a bundle (bundle.md) as the system principal. Everything is checked
 * first: on any problem a BUNDLE0001 error lists them all in `data.problems`
 * and nothing is written. Then one transaction saves accounts, enumerates,
 * profiles, field accesses, lifecycles, structures and elements. Idempotent: importing the
 * same bundle again changes nothing.
 * @example
 * const report = await platform.bundles.import(JSON.parse(text), { // importBundle(context, …) underneath
 *   readFile: (path) => readFileSync(join(folder, path)),
 * });
 */
export function importBundle(platform: PlatformContext, input: unknown, options: ImportBundleOptions): Promise<ImportReport> {
  return importBundleSource(platform, bundleSourceOf(input), options);
}

/**
 * importBundle over a source, with a batch of elements in memory at a time. The source is read
 * three times: definitions, names and the elements' shape; the element values; the writes, in
 * the import's one transaction. A fourth read sets the docid values that name elements of later
 * batches (or that close a cycle), once their targets exist.
 */
export async function importBundleSource(platform: PlatformContext, source: BundleSource, options: ImportBundleOptions): Promise<ImportReport> {
  const check = await checkBundleSource(source, { store: platform.store, readFile: options.readFile, onProgress: options.onProgress });
  const bundle = check.definitions;
  if (!bundle) throw bundleError(check.problems);
  const passwords = await passwordHashes(platform, bundle.accounts?.users ?? []);
  try {
    return await platform.store.transaction(async (tx) => {
      const report = await writeDefinitions(tx, bundle, passwords);
      const elements: ElementsImport = {
        source, names: check.names, total: check.elementCount, readFile: options.readFile, onProgress: options.onProgress,
        folders: check.folders === true, onOverwrite: options.onOverwrite,
      };
      await importElements(platform, tx, elements, report.elements);
      if (options.dryRun) throw new DryRunRollback(report);
      return report;
    });
  } catch (error) {
    if (error instanceof DryRunRollback) return error.report;
    throw error;
  }
}
