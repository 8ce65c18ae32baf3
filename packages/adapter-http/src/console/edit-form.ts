import { isLineageError, translate, type Enumerate, type FieldDescription, type RenderedValue } from "@lineage/core";
import { html } from "hono/html";
import type { Fragment } from "./console-page.ts";
import type { ConsoleText } from "./console-text.ts";
import { fieldValue } from "./element-fields.ts";

/*
 * The form that edits an element, generated from its structure as the person sees it (fields of
 * visibility I are not in that description, so they never reach the browser): W fields as inputs
 * by type, R fields shown read-only, H fields left out. Fields the form cannot edit yet (lists,
 * arrays, files and images) are shown as they are and never sent.
 */

/** The input type of a field the form edits, or undefined when it shows the field read-only. */
function inputType(field: FieldDescription): string | undefined {
  if (field.multiple || field.type === "array" || field.type === "file" || field.type === "image") return undefined;
  switch (field.type) {
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

/** The fields a form posts: the writable ones it has an input for (a password left empty is not sent: it stays). */
export function editableFields(structure: Record<string, FieldDescription>): FieldDescription[] {
  return Object.values(structure)
    .filter((field) => field.visibility === "W" && inputType(field) !== undefined)
    .sort((a, b) => a.logicalOrder - b.logicalOrder);
}

/** The values a posted form gives its editable fields. */
export function postedValues(structure: Record<string, FieldDescription>, form: Readonly<Record<string, string>>): Record<string, string> {
  const values: Record<string, string> = {};
  for (const field of editableFields(structure)) {
    const given = form[`f_${field.id}`];
    if (given === undefined || (field.type === "password" && given === "")) continue;
    values[field.id] = field.type === "timestamp" && /T\d{2}:\d{2}$/.test(given) ? `${given}:00` : given;
  }
  return values;
}

/** The message of a refused save, by the field it names (`data.id` of VALUE0001/VALUE0002), or for the whole form. */
export function refusalOf(error: unknown): { field?: string; message: string } | undefined {
  if (!isLineageError(error)) return undefined;
  const id = (error.data as { id?: unknown } | undefined)?.id;
  return { ...(typeof id === "string" ? { field: id } : {}), message: error.userMessage ?? error.message };
}

export interface EditFormState {
  readonly action: string;
  readonly csrf: string;
  readonly etag: string;
  /** What each input shows: the stored value, or what the person posted when the save was refused. */
  readonly values: Readonly<Record<string, string>>;
  readonly attributes: Readonly<Record<string, RenderedValue>>;
  readonly enumerates: ReadonlyMap<string, Enumerate>;
  readonly locale: string;
  readonly refusal?: { field?: string; message: string } | undefined;
  readonly submit: string;
}

/** The edit form: one labelled input per editable field, read-only fields as text, the refusal at its field. */
export function editForm(structure: Record<string, FieldDescription>, state: EditFormState, t: ConsoleText): Fragment {
  const fields = Object.values(structure).filter((field) => field.visibility !== "H").sort((a, b) => a.logicalOrder - b.logicalOrder);
  const editable = new Set(editableFields(structure).map((field) => field.id));
  const { refusal } = state;
  const control = (field: FieldDescription) => {
    const id = `f_${field.id}`;
    const error = refusal?.field === field.id ? html` aria-invalid="true" aria-describedby="${id}-error"` : "";
    const required = field.needed ? html` required aria-required="true"` : "";
    const value = state.values[field.id] ?? "";
    if (field.type === "enum" && field.enum) {
      const items = state.enumerates.get(field.enum)?.items ?? [];
      return html`<select id="${id}" name="${id}"${required}${error}><option value=""></option>${items.map((item) =>
        html`<option value="${item.key}"${item.key === value ? html` selected` : ""}>${translate(item.label, state.locale)}</option>`)}</select>`;
    }
    if (field.type === "longtext" || field.type === "htmltext") return html`<textarea id="${id}" name="${id}" rows="5"${required}${error}>${value}</textarea>`;
    const type = inputType(field) ?? "text";
    // Whole numbers, and times to the second (as stored).
    const step = type === "number" || type === "time" || type === "datetime-local" ? html` step="1"` : "";
    return html`<input id="${id}" name="${id}" type="${type}"${type === "password" ? html` autocomplete="new-password"` : html` value="${value}"`}${step}${required}${error}>`;
  };
  return html`<form method="post" action="${state.action}" novalidate>
${refusal && !refusal.field ? html`<p role="alert" class="alert">${refusal.message}</p>` : ""}
<input type="hidden" name="csrf" value="${state.csrf}">
<input type="hidden" name="etag" value="${state.etag}">
${fields.map((field) => html`<div class="field">
${editable.has(field.id)
    ? html`<label for="f_${field.id}">${field.label}${field.needed ? html` <span aria-hidden="true">*</span>` : ""}</label>${control(field)}`
    : html`<span class="label">${field.label}</span> <span class="readonly">${field.type === "array" ? t.noValue : fieldValue(field, state.attributes[field.id], t)}</span>`}
${refusal?.field === field.id ? html`<p id="f_${field.id}-error" role="alert" class="alert">${refusal.message}</p>` : ""}
</div>`)}
<button type="submit">${state.submit}</button>
</form>`;
}
