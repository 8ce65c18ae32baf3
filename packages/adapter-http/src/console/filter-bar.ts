import {
  filterOperatorsOf, translate, type Definitions, type FieldDescription, type FilterConditionInput, type FilterInput, type FilterOperator, type Platform, type Principal,
} from "@lineage/core";
import { html } from "hono/html";
import type { Fragment } from "./console-page.ts";
import type { ConsoleText } from "./console-text.ts";
import { SELECT_LIMIT } from "./relation-picker.ts";

/*
 * The filter bar of a list: rows of field, operator and value that make the API's `filter` (an
 * `and` of conditions). Without script a row's value input cannot follow its field as it is
 * chosen: a row is sent once with its field, then comes back with the value input of the field's
 * type (the enumerate's choices, a date input, the elements a relation may name...). Query
 * variables: `f0`, `o0`, `v0` (repeated for `in`), `f1`...
 */

/** The most rows the bar takes. */
export const MAX_FILTER_ROWS = 8;

/** One row of the bar as the query gives it. */
export interface FilterRow {
  readonly field: string;
  readonly operator: FilterOperator | "";
  readonly values: readonly string[];
  /** The title typed in a relation's text box (or the title of the element its value names). */
  readonly typed?: string | undefined;
}

/** A field or property the bar offers: its id, label, the type its values take, and what it chooses from. */
export interface FilterTarget {
  readonly id: string;
  readonly label: string;
  /** A field type, or a property name (which compares as its own type). */
  readonly type: string;
  readonly choices?: readonly { readonly value: string; readonly label: string }[];
  /** A relation's target structure: without choices, its value is the relation picker's text box. */
  readonly relation?: string | undefined;
}

/** The most elements a relation's value offers as choices (as the forms' relation picker); beyond, its text box takes a title. */
const RELATION_CHOICES = SELECT_LIMIT;

/** Reads the bar's rows from a query. */
export function filterRows(query: (name: string) => string | undefined, queries: (name: string) => string[] | undefined): FilterRow[] {
  const rows: FilterRow[] = [];
  for (let i = 0; i < MAX_FILTER_ROWS; i++) {
    const field = query(`f${i}`)?.trim() ?? "";
    if (!field) continue;
    const operator = (query(`o${i}`) ?? "") as FilterOperator | "";
    rows.push({ field, operator, values: (queries(`v${i}`) ?? []).map((value) => value.trim()).filter((value) => value !== "") });
  }
  return rows;
}

/** The titles typed in the rows' relation boxes (`t0`...), one per row as filterRows reads them. */
export function filterRowTitles(query: (name: string) => string | undefined): (string | undefined)[] {
  const titles: (string | undefined)[] = [];
  for (let i = 0; i < MAX_FILTER_ROWS; i++) if (query(`f${i}`)?.trim()) titles.push(query(`t${i}`));
  return titles;
}

/** The rows whose condition is complete (an operator, and a value when it takes one), as filter conditions. */
export function rowConditions(rows: readonly FilterRow[]): FilterConditionInput[] {
  return rows.flatMap((row): FilterConditionInput[] => {
    if (!row.operator) return [];
    if (row.operator === "isempty" || row.operator === "isnotempty") return [{ field: row.field, operator: row.operator }];
    if (row.values.length === 0) return [];
    // "is" with several values (a relation's title that names several elements) is "is one of".
    if (row.operator === "in" || (row.operator === "eq" && row.values.length > 1)) return [{ field: row.field, operator: "in", value: [...row.values] }];
    return [{ field: row.field, operator: row.operator, value: row.values[0] }];
  });
}

/**
 * A stored filter as rows when it is one condition or an `and` of conditions of simple values (what
 * the bar makes); undefined when the bar cannot show it (it is then kept as it is).
 */
export function rowsOfFilter(filter: FilterInput): FilterRow[] | undefined {
  const conditions = "logic" in filter ? (filter.logic === "and" ? filter.filters : filter.filters.length === 1 ? filter.filters : undefined) : [filter];
  if (!conditions || conditions.length > MAX_FILTER_ROWS) return undefined;
  const rows: FilterRow[] = [];
  for (const condition of conditions) {
    if ("logic" in condition) return undefined;
    const { value } = condition;
    const values = value === undefined || value === null ? [] : Array.isArray(value) ? value : [value];
    if (!values.every((item) => typeof item === "string" || typeof item === "number")) return undefined;
    rows.push({ field: condition.field, operator: condition.operator, values: values.map(String) });
  }
  return rows;
}

/** The fields and properties a list's bar offers: the properties, then the structure's fields (those that take an operator) in its order. */
export async function filterTargets(
  platform: Platform, principal: Principal, t: ConsoleText, definitions: Definitions, structureName: string | undefined, fields: readonly FieldDescription[],
): Promise<FilterTarget[]> {
  const locale = principal.account.locale;
  const structure = structureName ? definitions.structure(structureName) : undefined;
  const lifecycle = structure?.lifecycle ? definitions.lifecycle(structure.lifecycle) : undefined;
  const byLabel = (a: { label: string }, b: { label: string }) => a.label.localeCompare(b.label, locale);
  const properties: FilterTarget[] = [
    { id: "title", label: t.title, type: "title" },
    ...(lifecycle ? [{ id: "state", label: t.state, type: "state", choices: lifecycle.states.map((state) => ({ value: state.id, label: translate(state.label ?? state.id, locale) })).sort(byLabel) }] : []),
    ...(structureName ? [] : [{
      id: "fromname", label: t.structure, type: "fromname",
      choices: definitions.structures().map((s) => ({ value: s.name, label: translate(s.title ?? s.name, locale) })).sort(byLabel),
    }]),
    { id: "owner", label: t.owner, type: "owner" },
    { id: "cdate", label: t.created, type: "cdate" },
    { id: "mdate", label: t.modified, type: "mdate" },
  ];
  const defined = new Map<string, { structure?: string | undefined }>();
  const walk = (list: readonly { id: string; structure?: string; fields?: readonly unknown[] }[]) => {
    for (const field of list) {
      defined.set(field.id, { structure: field.structure });
      if (field.fields) walk(field.fields as typeof list);
    }
  };
  walk(structure?.fields ?? []);
  const targets: FilterTarget[] = [];
  for (const field of fields) {
    // The title field is the title property, offered first: twice "Title" in one list would read as two things.
    if (filterOperatorsOf(field.type).length === 0 || field.id === structure?.titleField) continue;
    let choices: FilterTarget["choices"];
    if (field.type === "enum" && field.enum) {
      choices = (definitions.enumerate(field.enum)?.items ?? []).map((item) => ({ value: item.key, label: translate(item.label, locale) })).sort(byLabel);
    } else if (field.type === "docid") {
      const target = defined.get(field.id)?.structure;
      if (target && definitions.structure(target)) {
        const answer = await platform.elements.list(principal, { family: target, orderBy: "title:asc", slice: String(RELATION_CHOICES + 1), fields: "document.properties.title,document.properties.initid" });
        if (answer.documents.length <= RELATION_CHOICES) {
          choices = answer.documents.map((document) => ({ value: String(document.properties?.initid ?? ""), label: String(document.properties?.title ?? "") }));
        }
      }
    }
    const relation = field.type === "docid" ? defined.get(field.id)?.structure : undefined;
    targets.push({ id: field.id, label: field.label, type: field.type, ...(choices ? { choices } : {}), ...(relation ? { relation } : {}) });
  }
  return [...properties, ...targets];
}

/** The input type of a target's value. */
function valueInputType(type: string): string {
  switch (type) {
    case "date": case "cdate": case "mdate": return "date";
    case "timestamp": return "datetime-local";
    case "time": return "time";
    case "int": return "number";
    default: return "text";
  }
}

/** The bar: a form of GET over the list, each row typed by its field, one blank row to add a condition, and the search box. */
export function filterBar(options: {
  readonly action: string;
  /** The list's other query variables, kept as hidden inputs. */
  readonly keep: Readonly<Record<string, string | readonly string[] | undefined>>;
  readonly rows: readonly FilterRow[];
  readonly targets: readonly FilterTarget[];
  readonly search: string;
  /** The list without filters. */
  readonly clearHref: string;
  readonly size: number;
  readonly sizes: readonly number[];
  readonly t: ConsoleText;
}): Fragment {
  const { rows, targets, t } = options;
  const hidden = Object.entries(options.keep).flatMap(([name, value]) =>
    (typeof value === "string" ? [value] : value ?? []).filter((item) => item !== "").map((item) => html`<input type="hidden" name="${name}" value="${item}">`));
  const row = (index: number, given: FilterRow | undefined) => {
    const target = given ? targets.find((candidate) => candidate.id === given.field) : undefined;
    const operators = target ? filterOperatorsOf(target.type) : [];
    const operator = given?.operator || operators[0] || "";
    const number = index + 1;
    const fieldSelect = html`<label class="filter-part"><span>${t.filterField(number)}</span><select name="f${index}">
<option value="">${given ? t.removeCondition : t.chooseField}</option>
${targets.map((candidate) => html`<option value="${candidate.id}"${candidate.id === given?.field ? html` selected` : ""}>${candidate.label}</option>`)}
</select></label>`;
    if (!target) return html`<div class="filter-row">${fieldSelect}</div>`;
    const operatorSelect = html`<label class="filter-part"><span>${t.filterOperator(number)}</span><select name="o${index}">
${operators.map((candidate) => html`<option value="${candidate}"${candidate === operator ? html` selected` : ""}>${t.operator(candidate)}</option>`)}
</select></label>`;
    const values = given?.values ?? [];
    const valueLabel = t.filterValue(number);
    let value: Fragment | string = "";
    if (operator === "isempty" || operator === "isnotempty") value = "";
    else if (target.choices) {
      value = html`<label class="filter-part"><span>${valueLabel}</span><select name="v${index}"${operator === "in" ? html` multiple size="4"` : ""}>
${operator === "in" ? "" : html`<option value=""></option>`}
${target.choices.map((choice) => html`<option value="${choice.value}"${values.includes(choice.value) ? html` selected` : ""}>${choice.label}</option>`)}
</select></label>`;
    } else if (target.relation && operator !== "in") {
      // Too many to choose from: the relation picker's text box (a title, settled into its element's id by the list page).
      value = html`<div class="filter-part picker" data-picker="/console/relations?structure=${encodeURIComponent(target.relation)}" data-label="${t.filterValue(number)}" data-empty="—">
<label for="filter-v${index}">${valueLabel}</label><input id="filter-v${index}" name="t${index}" type="text" autocomplete="off" value="${given?.typed ?? values[0] ?? ""}"><input type="hidden" name="v${index}" value="${values[0] ?? ""}"></div>`;
    } else if (operator === "in") {
      // One value a line would need a text area: `in` on free values takes one input per value, and a blank one.
      value = html`<fieldset class="filter-part"><legend>${valueLabel}</legend>${[...values, ""].map((item, i) =>
        html`<input name="v${index}" type="${valueInputType(target.type)}" value="${item}" aria-label="${valueLabel} (${i + 1})">`)}</fieldset>`;
    } else {
      const type = valueInputType(target.type);
      value = html`<label class="filter-part"><span>${valueLabel}</span><input name="v${index}" type="${type}"${type === "datetime-local" || type === "time" ? html` step="1"` : ""} value="${values[0] ?? ""}"${
        target.type === "owner" || target.type === "account" ? html` placeholder="@me"` : ""}></label>`;
    }
    return html`<div class="filter-row">${fieldSelect}${operatorSelect}${value}</div>`;
  };
  const shown = rows.slice(0, MAX_FILTER_ROWS);
  return html`<form method="get" action="${options.action}" class="filter-bar" role="search" aria-label="${t.filters}">
${hidden}
<p class="filter-row"><label class="filter-part"><span>${t.searchTitles}</span><input type="search" name="q" value="${options.search}"></label>
<label class="filter-part"><span>${t.perPage}</span><select name="size">${options.sizes.map((size) => html`<option${size === options.size ? html` selected` : ""}>${size}</option>`)}</select></label></p>
<fieldset><legend>${t.filters}</legend>
${shown.map((given, i) => row(i, given))}
${shown.length < MAX_FILTER_ROWS ? row(shown.length, undefined) : ""}
<p class="hint">${t.filterHint}</p>
</fieldset>
<p class="actions"><button type="submit">${t.apply}</button> <a href="${options.clearHref}">${t.clearFilters}</a></p>
</form>`;
}
