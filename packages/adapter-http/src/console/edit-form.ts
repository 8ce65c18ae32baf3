import { isLineageError, translate, type Enumerate, type FieldDescription, type RenderedValue, type StructureDefinition } from "@lineage/core";
import { html } from "hono/html";
import type { Fragment } from "./console-page.ts";
import type { ConsoleText } from "./console-text.ts";
import { groupedFields } from "./field-groups.ts";
import { arrayTable, fieldValue, sanitizedHtml } from "./element-fields.ts";
import type { PostedForm } from "./posted-form.ts";
import { formText } from "./form-text.ts";
import { relationControl, type Picker } from "./relation-picker.ts";
import { htmlEditor } from "./html-editor.ts";
import { enumCheckboxes } from "./enum-tree.ts";

/*
 * The form that edits an element, generated from its structure as the person sees it (fields of
 * visibility I are not in that description, so they never reach the browser): W fields as inputs
 * by type, R fields shown read-only, H fields left out. Lists are one input per value plus an
 * empty one, arrays a table of inputs with an empty row to add one, files and images a file input
 * (multipart); what the form cannot edit (lists of files, arrays with columns of lists or files,
 * arrays with a column the person may not write) is shown as it is and never sent.
 */

/** What the form shows in an input: one text, or one per value of a list or array column. */
export type FormValue = string | readonly string[];

/** The input type of a field of one simple value, or undefined when it takes no single input. */
function inputType(field: FieldDescription): string | undefined {
  switch (field.type) {
    case "array": case "file": case "image": case "enum": return undefined;
    case "int": return "number";
    case "double": case "money": return "text";
    case "date": return "date";
    case "timestamp": return "datetime-local";
    case "time": return "time";
    case "color": return "color";
    case "password": return "password";
    default: return "text";
  }
}

type EditKind = "single" | "enum" | "enums" | "list" | "file" | "array";

/**
 * A field of the form: as the person's structure description has it and, for an array, its number
 * of columns, those invisible to the person (left out of the description) included.
 */
export type FormField = FieldDescription & { readonly columnCount?: number };

/** The person's description of a structure with, on each array, its number of columns as the structure defines them. */
export function withColumnCounts(described: Readonly<Record<string, FieldDescription>>, structure: StructureDefinition | undefined): Record<string, FormField> {
  const counts = new Map((structure?.fields ?? []).flatMap((field) => (field.type === "array" ? [[field.id, field.fields?.length ?? 0] as const] : [])));
  return Object.fromEntries(Object.entries(described).map(([id, field]) => {
    const columnCount = counts.get(field.id);
    return [id, columnCount === undefined ? field : { ...field, columnCount }];
  }));
}

const columnsOf = (field: FieldDescription) => Object.values(field.content ?? {}).sort((a, b) => a.logicalOrder - b.logicalOrder);

/**
 * How the form edits a field, or undefined when it shows it read-only. An array is edited only when
 * every column is W to the person (one invisible to them, so not described, is not) and simple:
 * the core refuses a new number of rows from someone who may not write them all.
 */
function editKind(field: FormField): EditKind | undefined {
  if (field.type === "array") {
    const columns = columnsOf(field);
    const simple = columns.length > 0 && columns.length === (field.columnCount ?? columns.length) && columns.every((column) => column.visibility === "W" && !column.multiple && (column.type === "enum" || (inputType(column) !== undefined && column.type !== "password")));
    return simple ? "array" : undefined;
  }
  if (field.type === "file" || field.type === "image") return field.multiple ? undefined : "file";
  if (field.type === "enum") return field.multiple ? "enums" : "enum";
  if (inputType(field) === undefined) return undefined;
  return field.multiple ? (field.type === "password" ? undefined : "list") : "single";
}

/** The fields a form posts: the writable ones it has an input for (a password left empty is not sent: it stays). */
export function editableFields(structure: Readonly<Record<string, FieldDescription>>): FieldDescription[] {
  return Object.values(structure)
    .filter((field) => field.visibility === "W" && editKind(field) !== undefined)
    .sort((a, b) => a.logicalOrder - b.logicalOrder);
}

/** The enumerates the form's fields choose from: of enum fields, and of enum columns of arrays. */
export function enumeratesOf(structure: Readonly<Record<string, FieldDescription>>): string[] {
  return editableFields(structure).flatMap((field) => (field.type === "array" ? columnsOf(field) : [field])).flatMap((field) => (field.enum ? [field.enum] : []));
}

const text = (value: unknown): string => (value === null || value === undefined ? "" : String(value));
const list = (value: unknown): string[] => (Array.isArray(value) ? value.map(text) : value === null || value === undefined || value === "" ? [] : [text(value)]);

/** What the inputs show of stored values: texts, lists for lists and array columns; passwords and files never. */
export function storedFormValues(structure: Readonly<Record<string, FieldDescription>>, values: Readonly<Record<string, unknown>>): Record<string, FormValue> {
  const shown: Record<string, FormValue> = {};
  for (const field of editableFields(structure)) {
    const kind = editKind(field);
    if (kind === "array") for (const column of columnsOf(field)) shown[column.id] = list(values[column.id]);
    else if (kind === "enums" || kind === "list") shown[field.id] = list(values[field.id]);
    else if (kind !== "file" && field.type !== "password") shown[field.id] = text(values[field.id]);
  }
  return shown;
}

/** What a posted form gives each editable field, as its inputs showed it (for a form sent back with a refusal). */
export function postedFormValues(structure: Readonly<Record<string, FieldDescription>>, form: PostedForm): Record<string, FormValue> {
  const shown: Record<string, FormValue> = {};
  for (const field of editableFields(structure)) {
    const kind = editKind(field);
    if (kind === "array") {
      // The blank row sent with the form is no row: the form shown again adds its own.
      const columns = columnsOf(field).map((column) => ({ column, cells: form.all(`f_${column.id}`) }));
      const rows = Math.max(0, ...columns.map(({ cells }) => cells.length));
      const kept = Array.from({ length: rows }, (_, row) => row).filter((row) => columns.some(({ cells }) => (cells[row] ?? "") !== ""));
      for (const { column, cells } of columns) shown[column.id] = kept.map((row) => cells[row] ?? "");
    } else if (kind === "enums") shown[field.id] = form.all(`f_${field.id}`);
    else if (kind === "list") shown[field.id] = form.all(`f_${field.id}`).filter((value) => value !== "");
    else if (kind !== "file" && field.type !== "password") shown[field.id] = form.one(`f_${field.id}`) ?? "";
  }
  return shown;
}

/** Times to the second, as stored: a browser may send `HH:MM`. */
const withSeconds = (field: FieldDescription, value: string) => (field.type === "timestamp" && /T\d{2}:\d{2}$/.test(value) ? `${value}:00` : value);

/**
 * A number as a person of the locale types it: in French, a decimal comma ("4,7") and spaces
 * between thousands; the value is then sent as the API takes it ("4.7"). Anything else as typed.
 */
export function localNumber(field: FieldDescription, value: string, locale: string | undefined): string {
  if (!locale?.toLowerCase().startsWith("fr") || !["double", "money", "int"].includes(field.type)) return value;
  const compact = value.trim().replace(/[\s\u00a0\u202f]/g, "");
  return /^[-+]?\d+(,\d+)?$/.test(compact) ? compact.replace(",", ".") : value;
}

/** The values a posted form gives its editable fields, as the element use cases take them (numbers read in the person's locale). */
export function postedValues(structure: Readonly<Record<string, FieldDescription>>, form: PostedForm, locale?: string): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const field of editableFields(structure)) {
    const name = `f_${field.id}`;
    switch (editKind(field)) {
      case "file": {
        const file = form.file(name);
        if (file) values[field.id] = file;
        break;
      }
      case "enums": values[field.id] = form.all(name); break;
      case "list": values[field.id] = form.all(name).filter((value) => value !== "").map((value) => localNumber(field, withSeconds(field, value), locale)); break;
      case "array": {
        // Rows left wholly empty (the blank row to add one) are no rows.
        const columns = columnsOf(field).map((column) => ({ column, cells: form.all(`f_${column.id}`) }));
        const rows = Math.max(0, ...columns.map(({ cells }) => cells.length));
        const kept = Array.from({ length: rows }, (_, row) => row).filter((row) => columns.some(({ cells }) => (cells[row] ?? "") !== ""));
        for (const { column, cells } of columns) values[column.id] = kept.map((row) => localNumber(column, withSeconds(column, cells[row] ?? ""), locale));
        break;
      }
      default: {
        const given = form.one(name);
        if (given === undefined || (field.type === "password" && given === "")) break;
        // HTML is kept to the tags and attributes the console shows: what the editor (or a hand-made post) sends beyond them goes.
        values[field.id] = field.type === "htmltext" ? sanitizedHtml(given) : localNumber(field, withSeconds(field, given), locale);
      }
    }
  }
  return values;
}

/** The message of a refused save, by the field it names (`data.id` of VALUE0001/VALUE0002), or for the whole form. */
export function refusalOf(error: unknown): { field?: string; message: string } | undefined {
  if (!isLineageError(error)) return undefined;
  const id = (error.data as { id?: unknown } | undefined)?.id;
  return { ...(typeof id === "string" ? { field: id } : {}), message: error.userMessage ?? error.message };
}

/** What a control needs besides its field: its value, the enumerates' items, the person's locale, the refusal to point at. */
export interface ControlContext {
  readonly values: Readonly<Record<string, FormValue>>;
  readonly enumerates: ReadonlyMap<string, Enumerate>;
  readonly locale: string;
  readonly refusal?: { field?: string; message: string } | undefined;
  /** The relation fields' pickers, by field id (a field without one is a text box of ids or logins). */
  readonly pickers?: ReadonlyMap<string, Picker> | undefined;
}

/** The options of an enumerate's select, those in `chosen` selected. */
function enumOptions(field: FieldDescription, chosen: readonly string[], context: ControlContext): Fragment[] {
  const items = field.enum ? context.enumerates.get(field.enum)?.items ?? [] : [];
  return items.map((item) => html`<option value="${item.key}"${chosen.includes(item.key) ? html` selected` : ""}>${translate(item.label, context.locale)}</option>`);
}

/** One input of a simple type (an array's cell, a list's value, or a field's only input). */
function simpleInput(field: FieldDescription, attributes: Fragment | string, value: string, context: ControlContext): Fragment {
  if (field.type === "enum") return html`<select ${attributes}><option value=""></option>${enumOptions(field, [value], context)}</select>`;
  if (field.type === "htmltext") return htmlEditor(field, attributes, value, formText(context.locale));
  if (field.type === "longtext") return html`<textarea ${attributes} rows="5">${value}</textarea>`;
  const type = inputType(field) ?? "text";
  // Whole numbers, and times to the second (as stored).
  const step = type === "number" || type === "time" || type === "datetime-local" ? html` step="1"` : "";
  return html`<input ${attributes} type="${type}"${type === "password" ? html` autocomplete="new-password"` : html` value="${value}"`}${step}>`;
}

/**
 * The labelled control of one editable field: an input, a select (several choices for a list of
 * enum values), a group of inputs for a list or an array, a file input. The refusal's message is
 * its description.
 */
export function fieldControl(field: FieldDescription, context: ControlContext): Fragment {
  const id = `f_${field.id}`;
  const columns = columnsOf(field);
  const refused = context.refusal?.field !== undefined && (context.refusal.field === field.id || columns.some((column) => column.id === context.refusal?.field));
  const error = refused ? html` aria-invalid="true" aria-describedby="${id}-error"` : "";
  const required = field.needed ? html` required aria-required="true"` : "";
  const mark = field.needed ? html` <span aria-hidden="true">*</span>` : "";
  const message = refused ? html`<p id="${id}-error" class="alert">${withLabel(context.refusal?.message ?? "", context.refusal?.field, field)}</p>` : "";
  const value = context.values[field.id];
  const picker = context.pickers?.get(field.id);
  if (picker) return relationControl(field, picker, value, { id, required, error: refused ? html` aria-invalid="true"` : "", describedBy: refused ? `${id}-error` : undefined }, mark, message, formText(context.locale));
  switch (editKind(field)) {
    case "enums": {
      const enumerate = field.enum ? context.enumerates.get(field.enum) : undefined;
      return enumCheckboxes({ id, label: field.label, enumerate, chosen: Array.isArray(value) ? value : [], locale: context.locale, mark, error, message });
    }
    case "list": {
      const items = [...(Array.isArray(value) ? value : []), ""];
      return html`<fieldset id="${id}" tabindex="-1"${error}><legend>${field.label}${mark}</legend>${items.map((item, i) =>
        simpleInput(field, html`name="${id}" aria-label="${field.label} ${i + 1}"`, item, context))}</fieldset>${message}`;
    }
    case "array": {
      const rows = Math.max(0, ...columns.map((column) => (context.values[column.id] ?? []).length)) + 1;
      const cell = (column: FieldDescription, row: number) => {
        const cells = context.values[column.id];
        return simpleInput(column, html`name="f_${column.id}" aria-label="${column.label} ${row + 1}"`, (Array.isArray(cells) ? cells[row] : undefined) ?? "", context);
      };
      return html`<fieldset id="${id}" tabindex="-1"${error}><legend>${field.label}${mark}</legend><div class="scroll"><table>
<thead><tr>${columns.map((column) => html`<th scope="col">${column.label}</th>`)}</tr></thead>
<tbody>${Array.from({ length: rows }, (_, row) => html`<tr>${columns.map((column) => html`<td>${cell(column, row)}</td>`)}</tr>`)}</tbody>
</table></div></fieldset>${message}`;
    }
    case "file":
      return html`<label for="${id}">${field.label}${mark}</label><input id="${id}" name="${id}" type="file"${field.type === "image" ? html` accept="image/*"` : ""}${error}>${message}`;
    default:
      return html`<label for="${id}">${field.label}${mark}</label>${simpleInput(field, html`id="${id}" name="${id}"${required}${error}`, typeof value === "string" ? value : "", context)}${message}`;
  }
}

export interface EditFormState extends ControlContext {
  readonly action: string;
  readonly csrf: string;
  readonly etag: string;
  readonly attributes: Readonly<Record<string, RenderedValue>>;
  readonly submit: string;
  /** The structure's tree with its frames and tabs (family.structure), to group the fields; without it, one after the other. */
  readonly groups?: Readonly<Record<string, FieldDescription>>;
}

/**
 * The refusal at the top of the form: a field's, as a link to its input named by its label (the
 * message stays at the field too); the form's own, as it is.
 */
export function errorSummary(structure: Readonly<Record<string, FieldDescription>>, refusal: { field?: string; message: string }, known: ReadonlySet<string>, t: ConsoleText): Fragment {
  if (!refusal.field || !known.has(refusal.field)) return html`<p role="alert" class="alert">${refusal.message}</p>`;
  const all = Object.values(structure).flatMap((field) => [field, ...columnsOf(field)]);
  const field = all.find((candidate) => candidate.id === refusal.field);
  const owner = Object.values(structure).find((candidate) => columnsOf(candidate).some((column) => column.id === refusal.field));
  // A column's inputs have no id of their own: the link goes to its array's group.
  const target = owner ? `f_${owner.id}` : `f_${refusal.field}`;
  return html`<div role="alert" class="alert summary"><p>${t.refusedSummary}</p>
<ul><li><a href="#${target}">${field?.label ?? refusal.field}</a>: ${withLabel(refusal.message, refusal.field, field)}</li></ul></div>`;
}

/** A refusal's message naming its field by the label the person reads rather than its id. */
function withLabel(message: string, id: string | undefined, field: FieldDescription | undefined): string {
  const label = id === undefined ? undefined : field?.id === id ? field.label : Object.values(field?.content ?? {}).find((column) => column.id === id)?.label;
  return id && label ? message.split(id).join(label) : message;
}

/** The edit form: one labelled control per editable field, read-only fields as text, the refusal at its field. */
export function editForm(structure: Readonly<Record<string, FieldDescription>>, state: EditFormState, t: ConsoleText): Fragment {
  const fields = Object.values(structure).filter((field) => field.visibility !== "H").sort((a, b) => a.logicalOrder - b.logicalOrder);
  const editable = editableFields(structure);
  const editableIds = new Set(editable.map((field) => field.id));
  const { refusal } = state;
  const known = new Set(editable.flatMap((field) => [field.id, ...columnsOf(field).map((column) => column.id)]));
  const multipart = editable.some((field) => editKind(field) === "file");
  const drawn = (list: readonly FormField[]) => (list.length === 0 ? undefined : html`${list.map((field) => html`<div class="field">
${editableIds.has(field.id)
    ? html`${editKind(field) === "file" && state.attributes[field.id] ? html`<p>${fieldValue(field, state.attributes[field.id], t)}</p>` : ""}${fieldControl(field, state)}`
    : html`<span class="label">${field.label}</span> <div class="readonly">${field.type === "array" ? arrayTable(field, state.attributes, t) : fieldValue(field, state.attributes[field.id], t)}</div>`}
</div>`)}`);
  // The fields the form shows, by id: a group draws those of its members it holds.
  const shown = new Map(fields.map((field) => [field.id, [field]]));
  return html`<form method="post" action="${state.action}"${multipart ? html` enctype="multipart/form-data"` : ""} novalidate>
${refusal ? errorSummary(structure, refusal, known, t) : ""}
<input type="hidden" name="csrf" value="${state.csrf}">
<input type="hidden" name="etag" value="${state.etag}">
${state.groups ? groupedFields(state.groups, (members) => drawn(members.flatMap((member) => shown.get(member.id) ?? [])), "form", t) : drawn(fields)}
<button type="submit">${state.submit}</button>
</form>`;
}
