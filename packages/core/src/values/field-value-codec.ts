import { findEnumItem } from "../enumerates/enumerate.ts";
import { LineageError } from "../errors/lineage-error.ts";
import type { FieldValue } from "../elements/smart-element.ts";
import type { FieldType } from "../structures/smart-field.ts";
import { formatFileValue, parseFileValue } from "./file-value.ts";
import type { ValueContext } from "./value-context.ts";
import { cleanHtml } from "./html-value.ts";
import { isPasswordHash } from "./password-value.ts";
import { elementKey } from "../elements/element-reference.ts";

/** The part of a field (or transition parameter) that typing needs. */
export interface TypedField {
  readonly id: string;
  readonly type: FieldType;
  readonly multiple?: boolean;
  readonly enum?: string;
  readonly structure?: string;
}

/** Refuses a value; `data` names the field as the original's field errors do, so a form can show the message at it. */
const refuse = (field: TypedField, why: string): never => {
  throw new LineageError("VALUE0001", [field.id, why], { data: { id: field.id, index: -1, err: why } });
};

const isEmpty = (raw: unknown) => raw === null || raw === undefined || raw === "";

function describe(raw: unknown): string {
  const text = typeof raw === "string" ? raw : JSON.stringify(raw) ?? String(raw);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** U+0000, or half of a surrogate pair: no valid text holds them, and PostgreSQL cannot store them. */
// eslint-disable-next-line no-control-regex -- U+0000 is the character refused.
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function toText(field: TypedField, raw: unknown): string {
  if (typeof raw === "string") {
    if (UNSTORABLE.test(raw)) return refuse(field, "a text may hold neither the character U+0000 nor half of a surrogate pair");
    return raw;
  }
  if (typeof raw === "number" && Number.isFinite(raw)) return String(raw);
  if (typeof raw === "boolean") return String(raw);
  return refuse(field, `a text is expected, not ${describe(raw)}`);
}

function toInteger(field: TypedField, raw: unknown): number {
  const n = typeof raw === "number" ? raw : typeof raw === "string" && /^\s*[-+]?\d+\s*$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n)) refuse(field, `"${describe(raw)}" is not an integer`);
  return n;
}

function toDouble(field: TypedField, raw: unknown): number {
  const n = typeof raw === "number" ? raw
    : typeof raw === "string" && /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isFinite(n)) refuse(field, `"${describe(raw)}" is not a number`);
  return n;
}

function isCalendarDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function toDate(field: TypedField, raw: unknown): string {
  const match = typeof raw === "string" ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(raw.trim()) : null;
  if (!match || !isCalendarDate(Number(match[1]), Number(match[2]), Number(match[3]))) {
    refuse(field, `"${describe(raw)}" is not a date (YYYY-MM-DD)`);
  }
  return (raw as string).trim();
}

const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** Timestamps are kept as UTC `YYYY-MM-DDTHH:MM:SS`; a zone given is converted. */
function toTimestamp(field: TypedField, raw: unknown): string {
  const match = typeof raw === "string" ? TIMESTAMP.exec(raw.trim()) : null;
  if (!match) return refuse(field, `"${describe(raw)}" is not a timestamp (YYYY-MM-DDTHH:MM:SS)`);
  const [, y, mo, d, h = "00", mi = "00", s = "00", zone] = match;
  if (!isCalendarDate(Number(y), Number(mo), Number(d)) || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) {
    refuse(field, `"${describe(raw)}" is not a timestamp (YYYY-MM-DDTHH:MM:SS)`);
  }
  const local = `${y}-${mo}-${d}T${h}:${mi}:${s}`;
  if (!zone) return local;
  const instant = new Date(`${local}${zone === "Z" ? "Z" : zone.replace(/^([+-]\d{2})(\d{2})$/, "$1:$2")}`);
  return instant.toISOString().slice(0, 19);
}

/** Times are kept as `HH:MM:SS`; `HH:MM` is given seconds. */
function toTime(field: TypedField, raw: unknown): string {
  const match = typeof raw === "string" ? /^(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(raw.trim()) : null;
  const [, h = "", m = "", sec = "00"] = match ?? [];
  if (!match || Number(h) > 23 || Number(m) > 59 || Number(sec) > 59) refuse(field, `"${describe(raw)}" is not a time (HH:MM or HH:MM:SS)`);
  return `${h}:${m}:${sec}`;
}

/** Colours are `#rrggbb`, kept as written (`#34ED0F` stays so), as the original keeps them. */
function toColor(field: TypedField, raw: unknown): string {
  const text = typeof raw === "string" ? raw.trim() : "";
  if (!/^#[0-9A-Fa-f]{6}$/.test(text)) refuse(field, `"${describe(raw)}" is not a colour (#rrggbb)`);
  return text;
}

/** An account value is the login of an existing account. */
function toAccount(field: TypedField, raw: unknown, context: ValueContext): string {
  const login = toText(field, raw).trim();
  if (!context.accountByLogin(login)) refuse(field, `account "${describe(login)}" not found`);
  return login;
}

function toEnumKey(field: TypedField, raw: unknown, context: ValueContext): string {
  const key = toText(field, raw);
  const enumerate = field.enum ? context.enumerate(field.enum) : undefined;
  if (!enumerate || !findEnumItem(enumerate, key)) refuse(field, `"${describe(key)}" is not a key of enumerate "${field.enum ?? ""}"`);
  return key;
}

function toDocid(field: TypedField, raw: unknown, context: ValueContext): number {
  const ref = typeof raw === "number" ? raw : toText(field, raw).trim();
  const target = context.element(elementKey(ref));
  if (!target || target.status !== "alive") return refuse(field, `element "${describe(raw)}" not found`);
  const ofStructure = (wanted: string) => target.structure === wanted || (context.structure?.(target.structure)?.ancestors?.includes(wanted) ?? false);
  if (field.structure && !ofStructure(field.structure)) {
    refuse(field, `element "${describe(raw)}" is not of structure "${field.structure}"`);
  }
  return target.initid;
}

function toFile(field: TypedField, raw: unknown, context: ValueContext): string {
  const text = typeof raw === "number" ? String(raw) : toText(field, raw).trim();
  const vaultId = /^\d+$/.test(text) ? Number(text) : parseFileValue(text)?.vaultId;
  const file = vaultId === undefined ? undefined : context.vaultFile(vaultId);
  if (!file) return refuse(field, `file "${describe(raw)}" not found in the vault`);
  if (field.type === "image" && !file.mime.startsWith("image/")) refuse(field, `file "${file.name}" is not an image`);
  return formatFileValue({ mime: file.mime, vaultId: file.id, name: file.name });
}

/** A password value arrives hashed (the write hashes what the client sent, `hashPasswords`): never a text kept as given. */
function toPasswordHash(field: TypedField, raw: unknown): string {
  if (isPasswordHash(raw)) return raw.hash;
  if (typeof raw === "string") throw new Error(`the password of field "${field.id}" reached the value codec unhashed`);
  return refuse(field, `a password is a text, not ${describe(raw)}`);
}

function toScalar(field: TypedField, raw: unknown, context: ValueContext): FieldValue {
  if (isEmpty(raw)) return null;
  switch (field.type) {
    case "text": case "longtext": return toText(field, raw);
    // Cleaned up as the original cleans an HTML text it stores (html-value.ts): `<br />` is kept as `<br>`.
    case "htmltext": return cleanHtml(toText(field, raw));
    case "int": return toInteger(field, raw);
    case "double": case "money": return toDouble(field, raw);
    case "date": return toDate(field, raw);
    case "timestamp": return toTimestamp(field, raw);
    case "time": return toTime(field, raw);
    case "color": return toColor(field, raw);
    case "account": return toAccount(field, raw, context);
    case "password": return toPasswordHash(field, raw);
    case "enum": return toEnumKey(field, raw, context);
    case "docid": return toDocid(field, raw, context);
    case "file": case "image": return toFile(field, raw, context);
    case "array": return refuse(field, "an array field holds no value of its own: set its columns");
  }
}

/**
 * Checks and normalises a value for a field: the stored form, or a VALUE0001
 * error naming the field. `multiple` fields take an array (a lone value is
 * accepted as a one-item array); empty values become null (or []).
 */
export function encodeFieldValue(field: TypedField, raw: unknown, context: ValueContext): FieldValue {
  if (!field.multiple) {
    if (Array.isArray(raw)) refuse(field, "a single value is expected, not a list");
    return toScalar(field, raw, context);
  }
  if (isEmpty(raw)) return [];
  const items = Array.isArray(raw) ? raw : [raw];
  return items.map((item) => {
    if (Array.isArray(item)) refuse(field, "a list of values is expected, not a list of lists");
    return toScalar(field, item, context);
  });
}

/** Encodes the value of an array column: one entry per row. */
export function encodeColumnValue(field: TypedField, raw: unknown, context: ValueContext): FieldValue {
  if (isEmpty(raw)) return [];
  if (!Array.isArray(raw)) return refuse(field, "a column of an array takes one value per row (a list)");
  return raw.map((row) => encodeFieldValue(field, row, context));
}

/** True when a stored value holds nothing. */
export function isEmptyValue(value: FieldValue | undefined): boolean {
  return value === null || value === undefined || value === "" || (Array.isArray(value) && value.length === 0);
}
