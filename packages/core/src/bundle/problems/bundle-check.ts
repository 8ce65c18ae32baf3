import type { Bundle } from "../bundle.schema.ts";
import type { BundleNames } from "../bundle-names.ts";
import type { ImportProgressListener } from "../import-progress.ts";
import { LineageError } from "../../errors/lineage-error.ts";
import type { Store } from "../../ports/store.port.ts";

// What a check is given and answers, and the error an import makes of its problems: apart from
// checkBundle, so that the section checks and the import of the elements need not import it back.

/** One thing wrong in a bundle, where it is (`$.structures[0].fields[2].type`) and why. */
export interface BundleProblem {
  readonly path: string;
  readonly message: string;
}

/** What checkBundle is given besides the bundle. */
export interface BundleCheckOptions {
  /** What the bundle may refer to besides itself (structures, accounts, elements of earlier imports). */
  readonly store: Store;
  /** The content of a file of the bundle's folder, or undefined when there is none. */
  readonly readFile: (relativePath: string) => Uint8Array | undefined;
  /** Told as the elements are read, then checked. */
  readonly onProgress?: ImportProgressListener | undefined;
}

/** What checkBundle found. */
export interface BundleCheck {
  /** The bundle, typed, when it has no problem at all. */
  readonly bundle: Bundle | undefined;
  /** Every problem found: schema problems first, then references and values, in document order. */
  readonly problems: readonly BundleProblem[];
}

/** What checking a bundle source found, and what its import needs of it. */
export interface SourceCheck {
  /** Every root key but the elements, typed, when the bundle has no problem at all. */
  readonly definitions: Bundle | undefined;
  readonly problems: readonly BundleProblem[];
  /** The logical names of the elements. */
  readonly names: BundleNames;
  /** How many entries `elements` holds. */
  readonly elementCount: number;
  /** True when some entry gives a folder's content. */
  readonly folders?: boolean;
}

/** Element problems listed at most: past this many, the last problem says how many more there are. */
export const MAX_ELEMENT_PROBLEMS = 10_000;

/** The error of a refused bundle: BUNDLE0001 with every problem in `data.problems`. */
export function bundleError(problems: readonly BundleProblem[]): LineageError {
  const first = problems[0];
  const summary = first
    ? `${problems.length} problem${problems.length > 1 ? "s" : ""}, the first at ${first.path}: ${first.message}`
    : "no bundle";
  return new LineageError("BUNDLE0001", [summary], { data: { problems } });
}
