import { isLineageError, type Definitions, type FieldDescription, type Platform, type Principal } from "@lineage/core";
import { html } from "hono/html";
import type { Fragment } from "./console-page.ts";
import type { FormText } from "./form-text.ts";
import type { PostedForm } from "./posted-form.ts";

/*
 * The relation picker of a form's docid and account fields. Few candidates (what the person may
 * view of the field's target structure, or the accounts) make a plain select. Many make a text
 * box where the person types a title: a script (console.js) turns it into a combobox whose
 * suggestions come from /console/relations and which keeps the chosen id in a hidden input; without
 * script the form is sent with the typed title and the server finds the element named so (one:
 * saved; several, or none but close ones: the form comes back with those to choose from). Posted
 * names: `t_ID` the typed title, `f_ID` the id beside it (repeated for a list); `s_ID` a title
 * typed again beside a choice of candidates.
 */

/** The most candidates a relation offers as a plain select; beyond, a text box that searches titles. */
export const SELECT_LIMIT = 30;
/** The most suggestions (or candidates of a refusal) given for a typed title. */
export const SUGGESTIONS = 12;

/** An element (its initid) or an account (its login) a relation may name, with what the person reads of it. */
export interface Candidate {
  readonly value: string;
  readonly label: string;
}

/** What a relation field points to: elements of a structure (and of those that inherit it), or accounts. */
export type RelationTarget = { readonly kind: "element"; readonly structure: string } | { readonly kind: "account" };

/** How the form shows one relation field. */
export interface Picker {
  readonly target: RelationTarget;
  /** Every candidate when they are few (a select); undefined when many (a text box that searches). */
  readonly choices?: readonly Candidate[] | undefined;
  /** The labels of the values the form shows, by value. */
  readonly labels: ReadonlyMap<string, string>;
  /** What the person typed (one per row), shown again when the form comes back refused. */
  readonly typed?: readonly string[] | undefined;
  /** The candidates of a refused title: a select of them, and a box to type another title. */
  readonly retry?: readonly Candidate[] | undefined;
}

/** Whether a field is a relation the picker edits. */
export const isRelation = (field: FieldDescription) => field.type === "docid" || field.type === "account";

/** The URL the script asks suggestions from. */
export function suggestionsUrl(target: RelationTarget): string {
  return target.kind === "account" ? "/console/relations?accounts=1" : `/console/relations?structure=${encodeURIComponent(target.structure)}`;
}

/** The target structure of each docid field of a structure (array columns included), by field id. */
export function relationTargets(definitions: Definitions, structureName: string): Map<string, RelationTarget> {
  const targets = new Map<string, RelationTarget>();
  const walk = (fields: readonly { id: string; type: string; structure?: string | undefined; fields?: readonly unknown[] | undefined }[]) => {
    for (const field of fields) {
      if (field.type === "docid" && field.structure && definitions.structure(field.structure)) targets.set(field.id, { kind: "element", structure: field.structure });
      if (field.type === "account") targets.set(field.id, { kind: "account" });
      if (field.fields) walk(field.fields as typeof fields);
    }
  };
  walk(definitions.structure(structureName)?.fields ?? []);
  return targets;
}

/** Elements of a structure the person may view whose title contains `words` (all when empty), by title; at most `limit`. */
async function elementsNamed(platform: Platform, principal: Principal, structure: string, words: string, limit: number): Promise<Candidate[]> {
  const answer = await platform.elements.list(principal, {
    family: structure, orderBy: "title:asc", slice: String(limit), fields: "document.properties.title,document.properties.initid",
    ...(words ? { filter: { field: "title", operator: "contains" as const, value: words } } : {}),
  });
  return answer.documents.map((document) => ({ value: String(document.properties?.initid ?? ""), label: String(document.properties?.title ?? "") }));
}

/** Enabled accounts whose name or login contains `words` (all when empty), by name; at most `limit`. */
async function accountsNamed(platform: Platform, words: string, limit: number, text: FormText, locale: string): Promise<Candidate[]> {
  const wanted = words.toLocaleLowerCase(locale);
  return (await platform.accounts.list())
    .filter((account) => !account.disabled && (!wanted || `${account.displayName} ${account.login}`.toLocaleLowerCase(locale).includes(wanted)))
    .map((account) => ({ value: account.login, label: text.accountName(account.displayName, account.login) }))
    .sort((a, b) => a.label.localeCompare(b.label, locale))
    .slice(0, limit);
}

/** What the person may choose in a relation whose title contains `words`: its suggestions. */
export function candidatesNamed(platform: Platform, principal: Principal, target: RelationTarget, words: string, limit: number, text: FormText): Promise<Candidate[]> {
  return target.kind === "account"
    ? accountsNamed(platform, words, limit, text, principal.account.locale)
    : elementsNamed(platform, principal, target.structure, words, limit);
}

/** The label of one value: an element's title as the person may read it, an account's name; the value itself otherwise. */
async function labelOf(platform: Platform, principal: Principal, target: RelationTarget, value: string, text: FormText): Promise<string> {
  if (target.kind === "account") {
    const account = await platform.accounts.find(value);
    return account ? text.accountName(account.displayName, account.login) : value;
  }
  try {
    return (await platform.elements.read(principal, value, { fields: "document.properties.title" })).revision.title || value;
  } catch (error) {
    if (isLineageError(error)) return value;
    throw error;
  }
}

/**
 * The pickers of a form's relation fields: their candidates when few, and the labels of the
 * values shown (`values` by field id).
 */
export async function relationPickers(
  platform: Platform, principal: Principal, text: FormText, fields: readonly FieldDescription[], targets: ReadonlyMap<string, RelationTarget>,
  values: Readonly<Record<string, string | readonly string[]>>,
): Promise<Map<string, Picker>> {
  const pickers = new Map<string, Picker>();
  for (const field of fields) {
    const target = targets.get(field.id);
    if (!target || !isRelation(field)) continue;
    const found = await candidatesNamed(platform, principal, target, "", SELECT_LIMIT + 1, text);
    const choices = found.length <= SELECT_LIMIT ? found : undefined;
    const given = values[field.id];
    const shown = (typeof given === "string" ? [given] : given ?? []).filter((value) => value !== "");
    const labels = new Map<string, string>();
    for (const value of shown) labels.set(value, choices?.find((choice) => choice.value === value)?.label ?? await labelOf(platform, principal, target, value, text));
    pickers.set(field.id, { target, choices, labels });
  }
  return pickers;
}

/** The attributes a control carries besides its name: its id, required and refusal marks. */
export interface ControlAttributes {
  readonly id: string;
  readonly required: Fragment | string;
  readonly error: Fragment | string;
  readonly describedBy?: string | undefined;
}

function options(candidates: readonly Candidate[], value: string, labels: ReadonlyMap<string, string>): Fragment {
  // A value that is no candidate (an element the person may no longer view) stays chosen, named as well as may be.
  const missing = value && !candidates.some((candidate) => candidate.value === value) ? [{ value, label: labels.get(value) ?? value }] : [];
  return html`<option value=""></option>${[...missing, ...candidates].map((candidate) =>
    html`<option value="${candidate.value}"${candidate.value === value ? html` selected` : ""}>${candidate.label}</option>`)}`;
}

/** One text box of a picker (its typed title, the id beside it), in a box the script enhances. */
function searchBox(field: FieldDescription, picker: Picker, name: string, attributes: Fragment, typed: string, value: string, text: FormText): Fragment {
  return html`<div class="picker" data-picker="${suggestionsUrl(picker.target)}" data-label="${text.suggestions(field.label)}" data-empty="${text.noSuggestion}">
<input ${attributes} name="t_${name}" type="text" value="${typed}" autocomplete="off"><input type="hidden" name="f_${name}" value="${value}"></div>`;
}

/**
 * The labelled control of a relation field: a select of its candidates, or text boxes that search
 * titles (one per value and a blank one for a list), or, after a refused title, its candidates
 * and a box to type another.
 */
export function relationControl(field: FieldDescription, picker: Picker, value: string | readonly string[] | undefined, attributes: ControlAttributes, mark: Fragment | string, message: Fragment | string, text: FormText): Fragment {
  const id = attributes.id;
  const hint = `${id}-hint`;
  const described = [attributes.describedBy, picker.choices ? undefined : hint].filter(Boolean).join(" ");
  const describedBy = described ? html` aria-describedby="${described}"` : "";
  const hintText = picker.choices ? "" : html`<p class="hint" id="${hint}">${text.pickerHint}</p>`;
  if (field.multiple) {
    const values = [...(Array.isArray(value) ? value : []), ""];
    const typed = picker.typed ? [...picker.typed, ""] : undefined;
    const rows = values.map((item, i) => {
      const label = html`aria-label="${field.label} ${i + 1}"`;
      return picker.choices
        ? html`<select name="f_${field.id}" ${label}>${options(picker.choices, item, picker.labels)}</select>`
        : searchBox(field, picker, field.id, html`${label}${i === 0 ? describedBy : ""}`, typed?.[i] ?? (item ? picker.labels.get(item) ?? item : ""), item, text);
    });
    return html`<fieldset id="${id}" tabindex="-1"${attributes.error}><legend>${field.label}${mark}</legend>${rows}</fieldset>${hintText}${message}`;
  }
  const one = typeof value === "string" ? value : "";
  if (picker.retry) {
    return html`<label for="${id}">${text.chooseOne(field.label)}${mark}</label><select id="${id}" name="f_${field.id}"${attributes.required}${attributes.error}${describedBy}>${options(picker.retry, "", picker.labels)}</select>
<label for="${id}-again">${text.searchAgain(field.label)}</label><input id="${id}-again" name="s_${field.id}" type="text" value="" autocomplete="off">${message}`;
  }
  if (picker.choices) {
    return html`<label for="${id}">${field.label}${mark}</label><select id="${id}" name="f_${field.id}"${attributes.required}${attributes.error}${describedBy}>${options(picker.choices, one, picker.labels)}</select>${message}`;
  }
  const typed = picker.typed?.[0] ?? (one ? picker.labels.get(one) ?? one : "");
  return html`<label for="${id}">${field.label}${mark}</label>${searchBox(field, picker, field.id, html`id="${id}"${attributes.required}${attributes.error}${describedBy}`, typed, one, text)}${hintText}${message}`;
}

/** A relation the server could not settle from a typed title: the refusal, and what to choose from. */
export interface RelationRefusal {
  readonly field: string;
  readonly message: string;
  readonly candidates: readonly Candidate[];
}

const same = (a: string, b: string, locale: string) => a.trim().toLocaleLowerCase(locale) === b.trim().toLocaleLowerCase(locale);

/** The value a typed title names, or the refusal saying why it names none or several. */
async function settle(platform: Platform, principal: Principal, field: FieldDescription, target: RelationTarget, typed: string, beside: string, text: FormText): Promise<{ value: string } | RelationRefusal> {
  const locale = principal.account.locale;
  // The id chosen beside the title (by the script, or as stored) holds while the title is its own.
  if (beside && same(await labelOf(platform, principal, target, beside, text), typed, locale)) return { value: beside };
  const close = await candidatesNamed(platform, principal, target, typed.trim(), SUGGESTIONS, text);
  const exact = close.filter((candidate) => same(candidate.label, typed, locale) || (target.kind === "account" && same(candidate.value, typed, locale)));
  if (exact.length === 1) return { value: exact[0]!.value };
  if (exact.length > 1) return { field: field.id, message: text.severalNamed(typed.trim()), candidates: exact };
  // An id or a logical name, as the API takes them, still names what it names.
  if (target.kind === "element" && (await labelOf(platform, principal, target, typed.trim(), text)) !== typed.trim()) return { value: typed.trim() };
  return close.length > 0
    ? { field: field.id, message: text.noneNamedButClose(typed.trim()), candidates: close }
    : { field: field.id, message: text.noneNamed(typed.trim()), candidates: [] };
}

/**
 * The values a posted form gives its relation fields edited by text boxes (typed titles settled
 * into ids and logins), or the first refusal. Fields edited by a select are left to the form's
 * other values, as posted.
 */
export async function settledRelations(
  platform: Platform, principal: Principal, text: FormText, fields: readonly FieldDescription[], pickers: ReadonlyMap<string, Picker>, form: PostedForm,
): Promise<{ values: Record<string, unknown> } | RelationRefusal> {
  const values: Record<string, unknown> = {};
  for (const field of fields) {
    const picker = pickers.get(field.id);
    if (!picker) continue;
    const typed = form.all(`t_${field.id}`);
    const again = form.one(`s_${field.id}`)?.trim() ?? "";
    if (typed.length === 0 && !again) continue;
    const ids = form.all(`f_${field.id}`);
    const rows = typed.length > 0 ? typed.map((title, i) => ({ title, beside: again ? "" : ids[i] ?? "" })) : [{ title: again, beside: "" }];
    const settled: string[] = [];
    for (const row of rows) {
      if (!row.title.trim()) continue;
      const found = await settle(platform, principal, field, picker.target, row.title, row.beside, text);
      if (!("value" in found)) return found;
      settled.push(found.value);
    }
    values[field.id] = field.multiple ? settled : settled[0] ?? "";
  }
  return { values };
}

/** The pickers of a form sent back: what the person typed shown again, and a refused title's candidates to choose from. */
export function pickersAsPosted(pickers: ReadonlyMap<string, Picker>, form: PostedForm, refusal?: RelationRefusal): Map<string, Picker> {
  return new Map([...pickers].map(([id, picker]) => {
    const typed = form.all(`t_${id}`);
    const again = form.one(`s_${id}`)?.trim();
    const shown = typed.length > 0 ? typed.filter((title, i) => title.trim() !== "" || i === 0) : again ? [again] : undefined;
    const retry = refusal?.field === id && !picker.choices && refusal.candidates.length > 0 ? refusal.candidates : undefined;
    return [id, { ...picker, ...(shown ? { typed: shown } : {}), ...(retry ? { retry } : {}) }];
  }));
}

/** A filter bar's row as the relation picker settles it: its values as ids, and the title shown in its text box. */
export interface SettledRow {
  readonly field: string;
  readonly operator: string;
  readonly values: readonly string[];
  readonly typed?: string | undefined;
}

/**
 * The rows of a filter bar whose field is a relation, settled as the form settles a typed title
 * (`typed` by row, from `tI`): the one element named so, or all of them when several are (`is`
 * then reads as "is one of");
 * a title that names none stays as typed (the API then says what it cannot find). A row given
 * an id only (a saved view's) shows its title.
 */
export async function settleFilterRows<R extends SettledRow>(
  platform: Platform, principal: Principal, text: FormText, rows: readonly R[], typed: readonly (string | undefined)[], targets: ReadonlyMap<string, RelationTarget>,
): Promise<R[]> {
  return Promise.all(rows.map(async (row, i) => {
    const target = targets.get(row.field);
    if (!target || target.kind !== "element" || row.operator === "isempty" || row.operator === "isnotempty") return row;
    const title = typed[i]?.trim() ?? "";
    const beside = row.values[0] ?? "";
    if (!title) return beside && row.operator !== "in" ? { ...row, typed: await labelOf(platform, principal, target, beside, text) } as R : row;
    const found = await settle(platform, principal, { id: row.field, label: row.field } as FieldDescription, target, title, beside, text);
    if ("value" in found) return { ...row, values: [found.value], typed: title } as R;
    if (found.candidates.length > 0 && found.message === text.severalNamed(title) && (row.operator === "eq" || row.operator === "in")) {
      return { ...row, values: found.candidates.map((candidate) => candidate.value), typed: title } as R;
    }
    return { ...row, values: [title], typed: title } as R;
  }));
}
