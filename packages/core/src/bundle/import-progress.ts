/** How far an import is: its phase, and how many of the bundle's elements it went through. */
export interface ImportProgress {
  /** reading: the first pass (elements counted, names collected); checking: values checked; writing: elements saved. */
  readonly phase: "reading" | "checking" | "writing";
  readonly done: number;
  /** The bundle's elements, known once it was read (undefined while reading). */
  readonly total?: number | undefined;
}

/** Called as an import goes; reading calls it once per batch of elements, the other phases too. */
export type ImportProgressListener = (progress: ImportProgress) => void;
