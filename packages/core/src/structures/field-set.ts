import type { Label } from "../i18n/label.ts";
import type { Visibility } from "./smart-field.ts";

/*
 * Field sets, as the original groups its fields: a tab holds frames, a frame holds fields (arrays
 * among them), an array holds its columns. Frames and tabs carry no value; their visibility bounds
 * that of what they hold (field-visibility.ts).
 */

/** The field sets a bundle declares; arrays are field sets too, declared as fields. */
export const FIELD_SET_TYPES = ["frame", "tab"] as const;
export type FieldSetType = (typeof FIELD_SET_TYPES)[number];

/** The `insertAfter` that puts a field or set first in its set, as the original's `::first`. */
export const FIRST_IN_SET = "::first";

/** A frame or tab of a Smart Structure, as a bundle gives it (`fieldSets`). */
export interface FieldSetDefinition {
  readonly id: string;
  readonly type: FieldSetType;
  readonly label?: Label;
  /** W by default; I hides the set and all it holds, R makes what it holds read-only, H hides it in forms. */
  readonly visibility?: Visibility;
  /** The tab a frame stands in; none: at the top. */
  readonly parent?: string;
  /** The set of the same parent it stands right after (`::first`: first), else where it is listed. */
  readonly insertAfter?: string;
}

/** A field set as a structure resolves it: a frame, a tab or an array, where it stands. */
export interface ResolvedFieldSet {
  readonly id: string;
  readonly type: FieldSetType | "array";
  readonly label: Label | undefined;
  readonly visibility: Visibility;
  /** The set it stands in (a tab for a frame, a frame for an array); undefined at the top. */
  readonly parent: string | undefined;
  /** Its place among all fields and sets of the structure, 1-based, as the original's logicalOrder. */
  readonly logicalOrder: number;
}
