import { LineageError } from "../errors/lineage-error.ts";
import { isUploadedFile } from "../element/uploaded-file.ts";
import type { ElementValues, FieldValue } from "../element/smart-element.ts";
import type { Store } from "../ports/store.port.ts";
import { visibilityOf, type ResolvedField } from "../structure/smart-field.ts";
import { fieldIndex, flattenFields, type StructureDefinition } from "../structure/smart-structure.ts";
import { encodeColumnValue, encodeFieldValue, isEmptyValue } from "../values/field-value-codec.ts";
import type { ValueContext } from "../values/value-context.ts";

export interface ApplyOptions {
  /** Form variables name fields case-insensitively. */
  readonly caseInsensitive?: boolean;
  /**
   * Trusted writers (bundle import, creation) may write protected fields: read-only (R),
   * which an API PUT silently leaves as they are like the original does, and invisible (I).
   */
  readonly writeReadOnly?: boolean;
  /** Called for an array field named directly (its columns hold the values). */
  readonly onArrayField?: (field: ResolvedField) => never;
}

function fieldFor(structure: StructureDefinition, key: string, caseInsensitive: boolean): ResolvedField | undefined {
  const index = fieldIndex(structure);
  const exact = index.get(key);
  if (exact || !caseInsensitive) return exact;
  const lower = key.toLowerCase();
  return [...index.values()].find((field) => field.id.toLowerCase() === lower);
}

/** Stores uploaded files in the vault, anywhere in a raw value, and puts their vault ids in place. */
function storeUploads(raw: unknown, store: Store): unknown {
  if (isUploadedFile(raw)) return store.vault.store(raw.content, { name: raw.name, mime: raw.mime }).id;
  if (Array.isArray(raw)) return raw.map((item) => storeUploads(item, store));
  return raw;
}

/**
 * New values of an element: `input` maps field ids to raw values. Unknown and
 * invisible fields are refused (CRUD0218) so a typo never passes silently.
 * Must run inside a transaction: uploads are stored in the vault.
 */
export function applyValues(
  structure: StructureDefinition,
  current: ElementValues,
  input: Readonly<Record<string, unknown>>,
  store: Store,
  context: ValueContext,
  options: ApplyOptions = {},
): Record<string, FieldValue> {
  const values: Record<string, FieldValue> = { ...current };
  for (const [key, raw] of Object.entries(input)) {
    const field = fieldFor(structure, key, options.caseInsensitive === true);
    if (!field || (visibilityOf(field) === "I" && !options.writeReadOnly)) throw new LineageError("CRUD0218", [key]);
    if (field.type === "array") {
      options.onArrayField?.(field);
      throw new LineageError("ROUTES0127", [field.id]);
    }
    if (visibilityOf(field) === "R" && !options.writeReadOnly) continue;
    const stored = storeUploads(raw, store);
    values[field.id] = field.arrayId === undefined ? encodeFieldValue(field, stored, context) : encodeColumnValue(field, stored, context);
  }
  return values;
}

/** Refuses values that leave a needed field empty (VALUE0002). */
export function checkNeeded(structure: StructureDefinition, values: ElementValues): void {
  for (const field of flattenFields(structure)) {
    if (field.needed && field.arrayId === undefined && field.type !== "array" && isEmptyValue(values[field.id])) {
      throw new LineageError("VALUE0002", [field.id]);
    }
  }
}

/** The title of an element: its title field's value, else its logical name. */
export function computeTitle(structure: StructureDefinition, values: ElementValues, name: string | null): string {
  const value = structure.titleField ? values[structure.titleField] : undefined;
  if (value !== undefined && value !== null && !Array.isArray(value) && value !== "") return String(value);
  if (Array.isArray(value) && value.length > 0) return value.map(String).join(", ");
  return name ?? "";
}
