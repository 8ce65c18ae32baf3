import type { AttributeValue, FieldDescription, RenderedValue } from "@lineage/core";
import { html, raw } from "hono/html";
import sanitizeHtml from "sanitize-html";
import type { Fragment } from "./console-page.ts";
import type { ConsoleText } from "./console-text.ts";
import { groupedFields } from "./field-groups.ts";

/* An element's values as a person reads them: by type, from what the API answers for that person. */

const isValue = (rendered: unknown): rendered is AttributeValue =>
  typeof rendered === "object" && rendered !== null && !Array.isArray(rendered) && "displayValue" in rendered;

/**
 * An HTML text as the page may show it: the tags of text and links only, links to http(s) and mail
 * addresses, no attribute that could run or style anything (the page's policy forbids script anyway).
 */
export function sanitizedHtml(source: string): string {
  return sanitizeHtml(source, {
    allowedTags: ["p", "br", "b", "strong", "i", "em", "u", "s", "sub", "sup", "code", "pre", "blockquote", "ul", "ol", "li",
      "h2", "h3", "h4", "h5", "h6", "a", "table", "thead", "tbody", "tr", "th", "td", "span", "div", "hr"],
    allowedAttributes: { a: ["href", "title"], th: ["scope", "colspan", "rowspan"], td: ["colspan", "rowspan"] },
    allowedSchemes: ["http", "https", "mailto"],
    // An h1 of the text would compete with the page's own title.
    transformTags: { h1: "h2" },
  });
}

/** The formats of instants, one per language: making one costs more than a whole list's other cells. */
const INSTANT_FORMATS = new Map(["en-US", "fr-FR"].map((tag) => [tag, new Intl.DateTimeFormat(tag, { dateStyle: "short", timeStyle: "short", timeZone: "UTC" })]));

/** A property's instant (ISO, UTC) as the person reads dates, to the minute, in a `<time>`; what is no instant as it is. */
export function localDate(iso: string, locale: string): Fragment {
  const instant = new Date(iso);
  if (!iso || Number.isNaN(instant.getTime())) return html`${iso}`;
  const format = INSTANT_FORMATS.get(locale.toLowerCase().startsWith("fr") ? "fr-FR" : "en-US")!;
  return html`<time datetime="${iso}">${format.format(instant)}</time>`;
}

/** One value: a link to a docid's target, a thumbnail of an image, a download of a file, else its display text. */
function oneValue(field: FieldDescription, value: AttributeValue, t: ConsoleText): Fragment {
  if (value.displayValue === null || value.displayValue === "") return html`<span aria-label="${t.noValue}">${t.noValue}</span>`;
  if (field.type === "docid" && typeof value.initid === "number") return html`<a href="/console/elements/${value.initid}">${value.displayValue}</a>`;
  if (field.type === "image" && typeof value.url === "string") {
    return html`<a href="${value.url}"><img class="thumb" src="${String(value.thumbnail ?? value.url)}" alt="${value.displayValue}"></a>`;
  }
  if (field.type === "file" && typeof value.url === "string") return html`<a href="${value.url}" download>${value.displayValue}</a>`;
  if (field.type === "htmltext") return html`<div class="html">${raw(sanitizedHtml(String(value.value ?? value.displayValue)))}</div>`;
  // Decimals in the person's way of writing them (the API's display value is the same for everyone).
  if ((field.type === "double" || field.type === "money") && /^-?\d+\.\d+$/.test(String(value.displayValue))) {
    return html`${String(value.displayValue).replace(".", t.decimalSeparator)}`;
  }
  return html`${value.displayValue}`;
}

/** A value of any shape: one, or a list of them. */
export function fieldValue(field: FieldDescription, rendered: RenderedValue | undefined, t: ConsoleText): Fragment {
  if (rendered === undefined) return html`${t.noValue}`;
  if (isValue(rendered)) return oneValue(field, rendered, t);
  const items = (rendered as unknown[]).filter(isValue);
  if (items.length === 0) return html`${t.noValue}`;
  return html`<ul>${items.map((item) => html`<li>${oneValue(field, item, t)}</li>`)}</ul>`;
}

/** An array field as a table: one row per row of its columns. */
export function arrayTable(field: FieldDescription, attributes: Record<string, RenderedValue>, t: ConsoleText): Fragment {
  const columns = Object.values(field.content ?? {}).sort((a, b) => a.logicalOrder - b.logicalOrder);
  const rows = Math.max(0, ...columns.map((column) => (Array.isArray(attributes[column.id]) ? (attributes[column.id] as unknown[]).length : 0)));
  if (rows === 0) return html`${t.noValue}`;
  const cell = (column: FieldDescription, row: number) => {
    const values = attributes[column.id];
    return fieldValue(column, Array.isArray(values) ? (values[row] as RenderedValue | undefined) : undefined, t);
  };
  return html`<div class="scroll" tabindex="0" role="region" aria-label="${field.label}"><table>
<thead><tr>${columns.map((column) => html`<th scope="col">${column.label}</th>`)}</tr></thead>
<tbody>${Array.from({ length: rows }, (_, row) => html`<tr>${columns.map((column) => html`<td>${cell(column, row)}</td>`)}</tr>`)}</tbody>
</table></div>`;
}

/** The fields of an element in the structure's order and its frames and tabs (under a heading of level 2), labelled in the person's language; arrays as tables. */
export function elementFields(structure: Record<string, FieldDescription>, attributes: Record<string, RenderedValue>, t: ConsoleText): Fragment {
  return groupedFields(structure, (fields) => html`<dl class="fields">${fields.map((field) => html`<dt id="field-${field.id}">${field.label}</dt>
<dd aria-labelledby="field-${field.id}">${field.type === "array" ? arrayTable(field, attributes, t) : fieldValue(field, attributes[field.id], t)}</dd>`)}</dl>`, "page", t, 3);
}
