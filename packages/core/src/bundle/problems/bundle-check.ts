import type { Bundle } from "../bundle.schema.ts";
import type { BundleNames } from "../bundle-names.ts";
import type { ImportProgressListener } from "../import-progress.ts";
import type { Store } from "../../ports/store.port.ts";

// What a check is given and answers, apart from checkBundle so that the section checks use it without importing it back.

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
}

/** Element problems listed at most: past this many, the last problem says how many more there are. */
export const MAX_ELEMENT_PROBLEMS = 10_000;
