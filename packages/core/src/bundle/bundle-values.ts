import { sha256Hex } from "../crypto/sha256.ts";
import type { ResolvedField } from "../structures/smart-field.ts";
import { fieldIndex, flattenFields, type StructureDefinition } from "../structures/smart-structure.ts";

/*
 * Element values as a bundle writes them, shared by the checks and the import:
 * array fields take a list of rows, files are `{ "file": PATH }`, docid values
 * name elements. Paths are JSON paths ($.elements[3].values.ar_title).
 */

/** A file named by a bundle value, relative to the bundle's folder. */
export interface FileRef {
  readonly file: string;
}

/** True for exactly `{ "file": "..." }`. */
export function isFileRef(raw: unknown): raw is FileRef {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return false;
  const keys = Object.keys(raw);
  return keys.length === 1 && keys[0] === "file" && typeof (raw as { file: unknown }).file === "string";
}

const MIME_TYPES: Readonly<Record<string, string>> = {
  png: "image/png", jpg: "image/jpeg", jpeg: "image/jpeg", gif: "image/gif", webp: "image/webp", svg: "image/svg+xml",
  txt: "text/plain", html: "text/html", md: "text/markdown", pdf: "application/pdf", json: "application/json",
};

/** The MIME type of a file from its extension; application/octet-stream when unknown. */
export function mimeOfFile(name: string): string {
  const extension = /\.([^./\\]+)$/.exec(name)?.[1]?.toLowerCase() ?? "";
  return MIME_TYPES[extension] ?? "application/octet-stream";
}

/** The last segment of a relative path. */
export function fileNameOf(path: string): string {
  return path.split(/[\\/]/).filter(Boolean).pop() ?? path;
}

/** Why a bundle file path is refused, or undefined when it is a plain relative path. */
export function filePathProblem(path: string): string | undefined {
  if (path.trim() === "") return "a file path cannot be empty";
  if (/^([\\/]|[A-Za-z]:)/.test(path)) return `"${path}" is absolute: give a path relative to the bundle's folder`;
  if (path.split(/[\\/]/).includes("..")) return `"${path}" contains "..": files must be inside the bundle's folder`;
  return undefined;
}

/** A JSON path from keys: `$.structures[0].fields[2].type`, odd keys quoted (`$.enumerates["my-enum"]`). */
export function jsonPath(keys: readonly (string | number)[]): string {
  return keys.reduce<string>((path, key) => path + pathStep(key), "$");
}

/** One step of a JSON path. */
export function pathStep(key: string | number): string {
  if (typeof key === "number") return `[${key}]`;
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

/** JSON with object keys sorted and undefined left out: equal data, equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : sortKeys(item)));
  if (typeof value !== "object" || value === null) return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const child = (value as Record<string, unknown>)[key];
    if (child !== undefined) sorted[key] = sortKeys(child);
  }
  return sorted;
}

/** The import key of an unnamed element entry: sha256 of its canonical structure, values and owner. */
export function elementImportKey(entry: { readonly structure: string; readonly values?: unknown; readonly owner?: string | undefined }): string {
  const canonical = canonicalJson({ structure: entry.structure, values: entry.values ?? {}, owner: entry.owner });
  return sha256Hex(canonical);
}

/** One value of an element entry to type: a field's value, or one cell of an array row. */
export interface ValueCell {
  /** JSON path of the raw value. */
  readonly path: string;
  readonly field: ResolvedField;
  readonly raw: unknown;
  /** For a cell of an array: the row index. */
  readonly row?: number;
}

/** An element entry's values laid out per field: what typing and storing need. */
export interface ValuesLayout {
  readonly cells: readonly ValueCell[];
  /** Array fields given, with their number of rows. */
  readonly arrays: ReadonlyMap<string, number>;
}

/**
 * Lays out the values of an element entry. Reports keys that name no field
 * the bundle may set (unknown, invisible, a column given outside its rows)
 * and array values that are not lists of rows.
 */
export function layoutValues(
  structure: StructureDefinition,
  values: Readonly<Record<string, unknown>>,
  basePath: string,
  report: (path: string, message: string) => void,
): ValuesLayout {
  const index = fieldIndex(structure);
  const cells: ValueCell[] = [];
  const arrays = new Map<string, number>();
  for (const [key, raw] of Object.entries(values)) {
    const path = basePath + pathStep(key);
    const field = index.get(key);
    if (!field) {
      report(path, `structure "${structure.name}" has no field "${key}"`);
    } else if (field.arrayId !== undefined) {
      report(path, `field "${key}" is a column of the array "${field.arrayId}": give it in the rows of "${field.arrayId}"`);
    } else if (field.type !== "array") {
      cells.push({ path, field, raw });
    } else if (raw === null) {
      arrays.set(field.id, 0);
    } else if (!Array.isArray(raw)) {
      report(path, `field "${key}" is an array: its value is a list of rows (objects keyed by column id)`);
    } else {
      arrays.set(field.id, raw.length);
      raw.forEach((row, rowIndex) => layoutRow(field, row, `${path}[${rowIndex}]`, rowIndex, index, cells, report));
    }
  }
  return { cells, arrays };
}

function layoutRow(
  array: ResolvedField,
  row: unknown,
  path: string,
  rowIndex: number,
  index: ReadonlyMap<string, ResolvedField>,
  cells: ValueCell[],
  report: (path: string, message: string) => void,
): void {
  if (typeof row !== "object" || row === null || Array.isArray(row)) {
    report(path, `a row of "${array.id}" is an object keyed by column id`);
    return;
  }
  for (const [key, raw] of Object.entries(row)) {
    const column = index.get(key);
    const cellPath = path + pathStep(key);
    if (!column || column.arrayId !== array.id) report(cellPath, `the array "${array.id}" has no column "${key}"`);
    else cells.push({ path: cellPath, field: column, raw, row: rowIndex });
  }
}

/** Applies `map` to each item of a cell value (each entry of a list, or the value itself), with its path. */
export function mapItems(raw: unknown, path: string, map: (item: unknown, path: string) => unknown): unknown {
  return Array.isArray(raw) ? raw.map((item, k) => map(item, `${path}[${k}]`)) : map(raw, path);
}

/**
 * The raw input of applyValues for a layout: one value per field, and for
 * each array given one list per column with one entry per row.
 */
export function toValuesInput(
  structure: StructureDefinition,
  layout: ValuesLayout,
  value: (cell: ValueCell) => unknown,
): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [arrayId, rows] of layout.arrays) {
    for (const column of flattenFields(structure)) {
      if (column.arrayId === arrayId) input[column.id] = Array.from({ length: rows }, () => null);
    }
  }
  for (const cell of layout.cells) {
    if (cell.row === undefined) input[cell.field.id] = value(cell);
    else (input[cell.field.id] as unknown[])[cell.row] = value(cell);
  }
  return input;
}
