import type { Label } from "../i18n/label.ts";

export const FIELD_TYPES = [
  "text", "longtext", "htmltext", "int", "double", "money", "date", "timestamp", "time",
  "enum", "docid", "account", "color", "password", "file", "image", "array",
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** W: writable, R: read-only, H: hidden in forms, I: invisible (never disclosed). */
export const VISIBILITIES = ["W", "R", "H", "I"] as const;
export type Visibility = (typeof VISIBILITIES)[number];

/** A Smart Field of a Smart Structure. Columns of an array are its `fields`. */
export interface SmartField {
  readonly id: string;
  readonly type: FieldType;
  readonly label?: Label;
  readonly needed?: boolean;
  readonly multiple?: boolean;
  readonly visibility?: Visibility;
  /** The enumerate of an enum field. */
  readonly enum?: string;
  /** For docid fields: the structure the target must belong to. */
  readonly structure?: string;
  readonly options?: Readonly<Record<string, string>>;
  readonly fields?: readonly SmartField[];
  /** The frame a field (not a column) stands in; none: at the top, before the field sets (structure-layout.ts). */
  readonly fieldSet?: string;
  /** The field or set of the same set it stands right after (`::first`: first of it), else where it is listed. */
  readonly insertAfter?: string;
  /** The value a new element takes when it is given none (as a writer gives it: an enum key, a number...); not for columns. */
  readonly default?: string | number | readonly (string | number)[];
}

/** A field as stored: flattened, with the array it is a column of. */
export interface ResolvedField extends SmartField {
  /** The array field this field is a column of, if any. */
  readonly arrayId: string | undefined;
  /** Order of the field in the structure, 1-based, columns included. */
  readonly logicalOrder: number;
}

/** True when the field carries values per row (a column of an array). */
export function isColumn(field: ResolvedField): boolean {
  return field.arrayId !== undefined;
}

/** The visibility of a field, W by default. */
export function visibilityOf(field: SmartField): Visibility {
  return field.visibility ?? "W";
}
