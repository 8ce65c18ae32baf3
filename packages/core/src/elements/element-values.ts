import { LineageError } from "../errors/lineage-error.ts";
import { isUploadedFile } from "./uploaded-file.ts";
import type { ElementValues, FieldValue } from "./smart-element.ts";
import type { Repositories } from "../ports/store.port.ts";
import type { RequestScope } from "../scope/request-scope.ts";
import { parseFileValue } from "../values/file-value.ts";
import { visibilityOf, type ResolvedField } from "../structures/smart-field.ts";
import { fieldIndex, flattenFields, type StructureDefinition } from "../structures/smart-structure.ts";
import { hashPasswordValue } from "../values/password-value.ts";
import { encodeColumnValue, encodeFieldValue, isEmptyValue } from "../values/field-value-codec.ts";

export interface ApplyOptions {
  /** Form variables name fields case-insensitively. */
  readonly caseInsensitive?: boolean;
  /**
   * Trusted writers (bundle import, embedding code) may write protected fields: read-only (R),
   * which the API refuses (ROUTES0107, through `onReadOnly`), and invisible (I).
   */
  readonly writeReadOnly?: boolean;
  /** Called for an array field named directly (its columns hold the values). */
  readonly onArrayField?: (field: ResolvedField) => never;
  /** Called for a read-only field (visibility R) the writer may not write; without it the field is left as it is. */
  readonly onReadOnly?: (field: ResolvedField) => never;
  /**
   * Called for an array whose number of rows the values change while the writer may not write
   * all its columns (see `checkArrayRows`); without it the array is left as it is.
   */
  readonly onArrayRows?: (array: ResolvedField) => never;
}

function fieldFor(structure: StructureDefinition, key: string, caseInsensitive: boolean): ResolvedField | undefined {
  const index = fieldIndex(structure);
  const exact = index.get(key);
  if (exact || !caseInsensitive) return exact;
  const lower = key.toLowerCase();
  return [...index.values()].find((field) => field.id.toLowerCase() === lower);
}

/** Stores uploaded files in the vault, anywhere in a raw value, and puts their vault ids in place. */
async function storeUploads(raw: unknown, repos: Repositories): Promise<unknown> {
  if (isUploadedFile(raw)) return (await repos.vault.store(raw.content, { name: raw.name, mime: raw.mime })).id;
  if (Array.isArray(raw)) {
    const stored: unknown[] = [];
    // One after the other: the same content uploaded twice is one vault file.
    for (const item of raw) stored.push(await storeUploads(item, repos));
    return stored;
  }
  return raw;
}

/** What raw values name, for `loadReferences`. */
export interface RawReferences {
  readonly elements: (string | number)[];
  readonly logins: string[];
  readonly files: number[];
}

/** The elements, accounts and vault files a raw value of a docid, account, file or image field names (any depth of lists), as the value codec reads them. */
export function referencesIn(field: Pick<ResolvedField, "type">, raw: unknown, found: RawReferences): void {
  if (Array.isArray(raw)) {
    for (const item of raw) referencesIn(field, item, found);
    return;
  }
  if (typeof raw !== "string" && typeof raw !== "number") return;
  const text = String(raw).trim();
  const { elements, logins, files } = found;
  if (field.type === "docid" && text !== "") elements.push(typeof raw === "number" ? raw : text);
  if (field.type === "account" && text !== "") logins.push(text);
  if (field.type === "file" || field.type === "image") {
    const vaultId = /^\d+$/.test(text) ? Number(text) : parseFileValue(text)?.vaultId;
    if (vaultId !== undefined) files.push(vaultId);
  }
}

/** Loads into `scope` the elements, accounts and vault files that raw values of these fields name, in one batch. */
export async function loadReferences(scope: RequestScope, values: Iterable<readonly [Pick<ResolvedField, "type">, unknown]>): Promise<void> {
  const found: RawReferences = { elements: [], logins: [], files: [] };
  for (const [field, raw] of values) referencesIn(field, raw, found);
  await scope.load({ elements: found.elements, logins: found.logins, vaultFiles: found.files });
}

/**
 * New values of an element: `input` maps field ids to raw values. Unknown and
 * invisible fields are refused (CRUD0218) so a typo never passes silently.
 * Runs inside a transaction (`scope` reads through it): uploads are stored in
 * the vault, and the elements and files the values name are read in one batch.
 */
export async function applyValues(
  structure: StructureDefinition,
  current: ElementValues,
  input: Readonly<Record<string, unknown>>,
  scope: RequestScope,
  options: ApplyOptions = {},
): Promise<Record<string, FieldValue>> {
  // First the uploads and the references of the values that will be written, up to the first refused key.
  const stored = new Map<string, unknown>();
  const referenced: (readonly [ResolvedField, unknown])[] = [];
  for (const [key, raw] of Object.entries(input)) {
    const field = fieldFor(structure, key, options.caseInsensitive === true);
    if (!field || (visibilityOf(field) === "I" && !options.writeReadOnly) || field.type === "array") break;
    if (visibilityOf(field) === "R" && !options.writeReadOnly) {
      if (options.onReadOnly) break;
      continue;
    }
    const value = field.type === "password" ? await hashPasswordValue(raw, current[field.id], scope.passwords) : await storeUploads(raw, scope.repos);
    stored.set(key, value);
    referenced.push([field, value]);
  }
  await loadReferences(scope, referenced);
  const values: Record<string, FieldValue> = { ...current };
  for (const [key] of Object.entries(input)) {
    const field = fieldFor(structure, key, options.caseInsensitive === true);
    if (!field || (visibilityOf(field) === "I" && !options.writeReadOnly)) throw new LineageError("CRUD0218", [key]);
    if (field.type === "array") {
      options.onArrayField?.(field);
      throw new LineageError("ROUTES0127", [field.id]);
    }
    if (visibilityOf(field) === "R" && !options.writeReadOnly) {
      options.onReadOnly?.(field);
      continue;
    }
    const raw = stored.get(key);
    values[field.id] = field.arrayId === undefined ? encodeFieldValue(field, raw, scope) : encodeColumnValue(field, raw, scope);
  }
  checkArrayRows(structure, current, values, options);
  return values;
}

/** The number of rows of an array in these values: its longest column. */
function rowsOf(columns: readonly ResolvedField[], values: ElementValues): number {
  return Math.max(0, ...columns.map((column) => {
    const value = values[column.id];
    return Array.isArray(value) ? value.length : 0;
  }));
}

/**
 * Refuses (through `onArrayRows`) new values that change the number of rows of an array one of
 * whose columns the writer may not write (R or I to them; W and H carry write): each column is
 * written on its own, so the columns it keeps would fall out of line with those it changes. Its
 * cells may still be changed in place, the same number of rows.
 */
function checkArrayRows(structure: StructureDefinition, current: ElementValues, values: Record<string, FieldValue>, options: ApplyOptions): void {
  if (options.writeReadOnly) return;
  const fields = fieldIndex(structure);
  const changed = [...fields.values()].filter((field) => field.arrayId !== undefined && values[field.id] !== current[field.id]);
  for (const arrayId of new Set(changed.map((column) => column.arrayId))) {
    const array = arrayId === undefined ? undefined : fields.get(arrayId);
    if (!array) continue;
    const columns = [...fields.values()].filter((field) => field.arrayId === arrayId);
    if (columns.every((column) => visibilityOf(column) === "W" || visibilityOf(column) === "H")) continue;
    const before = rowsOf(columns, current);
    const given = changed.filter((column) => column.arrayId === arrayId);
    if (given.every((column) => rowsOf([column], values) === before)) continue;
    options.onArrayRows?.(array);
    for (const column of given) values[column.id] = current[column.id] ?? [];
  }
}

/** Refuses values that leave a needed field empty (VALUE0002). */
export function checkNeeded(structure: StructureDefinition, values: ElementValues): void {
  for (const field of flattenFields(structure)) {
    if (field.needed && field.arrayId === undefined && field.type !== "array" && isEmptyValue(values[field.id])) {
      throw new LineageError("VALUE0002", [field.id], { data: { id: field.id, index: -1, err: "needed" } });
    }
  }
}

/** A new element's values with the defaults of the fields left empty (SmartField `default`), encoded as the field stores them. */
export function withDefaults(structure: StructureDefinition, values: Record<string, FieldValue>, scope: RequestScope): Record<string, FieldValue> {
  for (const field of flattenFields(structure)) {
    if (field.default === undefined || field.arrayId !== undefined || field.type === "array" || !isEmptyValue(values[field.id])) continue;
    values[field.id] = encodeFieldValue(field, field.default, scope);
  }
  return values;
}
