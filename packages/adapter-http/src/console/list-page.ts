import type { DocumentView, FieldDescription, Platform, Principal, RenderedValue } from "@lineage/core";
import type { Context } from "hono";
import { html } from "hono/html";
import type { HttpEnv } from "../http-env.ts";
import type { Fragment } from "./console-page.ts";
import type { ConsoleText } from "./console-text.ts";
import { fieldValue } from "./element-fields.ts";

/** Which list a page shows: the elements alive (all, or of one structure), or the trash. */
export type ListKind = "elements" | "trash";

/** Elements per page. */
const PAGE = 25;

interface Column {
  /** The key the list sorts by: a property, or a field's id. */
  readonly key: string;
  readonly label: string;
  readonly cell: (document: DocumentView) => Fragment;
}

/** Where a list page with these parameters is. */
function listHref(kind: ListKind, parameters: Readonly<Record<string, string | readonly string[] | undefined>>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(parameters)) {
    for (const item of typeof value === "string" ? [value] : value ?? []) if (item !== "") query.append(name, item);
  }
  const text = query.toString();
  return `/console/${kind}${text ? `?${text}` : ""}`;
}

/** A list of elements as a sortable, paged table, with the fields the person chose as columns (in one structure's list). */
export async function listPage(c: Context<HttpEnv>, platform: Platform, kind: ListKind, principal: Principal, t: ConsoleText, csrf: string | undefined) {
  const structureName = kind === "elements" ? c.req.query("structure") || undefined : undefined;
  const orderBy = c.req.query("orderBy") || "title:asc";
  const offset = Number(/^\d+$/.test(c.req.query("offset") ?? "") ? c.req.query("offset") : 0);
  const described = structureName ? await platform.structures.read(principal, structureName, { fields: "family.structure,document.properties.title" }) : undefined;
  const fields = Object.values((described?.data.family?.structure ?? {}) as Record<string, FieldDescription>)
    .filter((field) => field.type !== "array" && field.type !== "password")
    .sort((a, b) => a.logicalOrder - b.logicalOrder);
  const chosen = (c.req.queries("columns") ?? []).filter((id) => fields.some((field) => field.id === id));
  const query = {
    orderBy, offset: String(offset), slice: String(PAGE + 1),
    fields: ["document.properties.title", "document.properties.initid", "document.properties.state", "document.properties.mdate", "document.properties.fromtitle",
      ...chosen.map((id) => `document.attributes.${id}`)].join(","),
  };
  const answer = kind === "trash" ? await platform.trash.list(principal, query) : await platform.elements.list(principal, { ...query, family: structureName });
  const documents = answer.documents.slice(0, PAGE);

  const property = (document: DocumentView, name: string) => document.properties?.[name];
  const columns: Column[] = [
    {
      key: "title", label: t.title,
      cell: (document) => (kind === "trash"
        ? html`${String(property(document, "title") ?? "")}`
        : html`<a href="/console/elements/${String(property(document, "initid"))}">${String(property(document, "title") || "—")}</a>`),
    },
    ...(structureName ? [] : [{ key: "fromname", label: t.structure, cell: (document: DocumentView) => html`${String(property(document, "fromtitle") ?? "")}` }]),
    { key: "state", label: t.state, cell: (document) => html`${(property(document, "state") as { displayValue?: string } | undefined)?.displayValue ?? ""}` },
    { key: "mdate", label: t.modified, cell: (document) => html`${String(property(document, "mdate") ?? "")}` },
    ...chosen.map((id) => {
      const field = fields.find((f) => f.id === id)!;
      return { key: id, label: field.label, cell: (document: DocumentView) => fieldValue(field, document.attributes?.[id] as RenderedValue | undefined, t) };
    }),
  ];
  // The trash's rows can be restored by whoever may (the use case checks; the button is there for a session only).
  const restore = kind === "trash" && csrf
    ? (document: DocumentView) => html`<form method="post" action="/console/trash/${String(property(document, "initid"))}/restore"><input type="hidden" name="csrf" value="${csrf}"><button type="submit" aria-label="${t.restore} ${String(property(document, "title") ?? "")}">${t.restore}</button></form>`
    : undefined;
  const [sortKey = "title", sortDirection = "asc"] = orderBy.split(",")[0]!.split(":").map((part) => part.trim());
  const here = { structure: structureName, orderBy, columns: chosen };
  const header = (column: Column) => {
    const sorted = column.key === sortKey;
    const next = sorted && sortDirection === "asc" ? "desc" : "asc";
    return html`<th scope="col"${sorted ? html` aria-sort="${sortDirection === "asc" ? "ascending" : "descending"}"` : ""}>
<a href="${listHref(kind, { ...here, orderBy: `${column.key}:${next}` })}" aria-label="${t.sortBy(column.label)}">${column.label}</a>${sorted ? (sortDirection === "asc" ? " ▲" : " ▼") : ""}</th>`;
  };
  const title = kind === "trash" ? t.trash : structureName ? String(described?.data.document.properties?.title ?? structureName) : t.allElements;
  const chooser = structureName && fields.length > 0 ? html`<form method="get" action="/console/elements"><fieldset><legend>${t.columns}</legend>
<input type="hidden" name="structure" value="${structureName}"><input type="hidden" name="orderBy" value="${orderBy}">
${fields.map((field) => html`<label><input type="checkbox" name="columns" value="${field.id}"${chosen.includes(field.id) ? html` checked` : ""}> ${field.label}</label> `)}
<button type="submit">${t.show}</button></fieldset></form>` : "";
  const table = documents.length === 0 ? html`<p>${t.noElements}</p>` : html`<div class="scroll"><table>
<caption>${t.page(offset + 1, offset + documents.length)}, ${t.sortedBy(columns.find((column) => column.key === sortKey)?.label ?? sortKey, sortDirection === "desc" ? "desc" : "asc")}</caption>
<thead><tr>${columns.map(header)}${restore ? html`<th scope="col">${t.actions}</th>` : ""}</tr></thead>
<tbody>${documents.map((document) => html`<tr>${columns.map((column) => html`<td>${column.cell(document)}</td>`)}${restore ? html`<td>${restore(document)}</td>` : ""}</tr>`)}</tbody>
</table></div>`;
  const pages = html`<nav class="pages" aria-label="${t.page(offset + 1, offset + documents.length)}">
${offset > 0 ? html`<a href="${listHref(kind, { ...here, offset: String(Math.max(0, offset - PAGE)) })}" rel="prev">${t.previous}</a>` : ""}
${answer.documents.length > PAGE ? html`<a href="${listHref(kind, { ...here, offset: String(offset + PAGE) })}" rel="next">${t.next}</a>` : ""}
</nav>`;
  const create = structureName && csrf && (await platform.elements.mayCreate(principal, structureName))
    ? html`<p class="actions"><a href="/console/structures/${encodeURIComponent(structureName)}/new">${t.newElement}</a></p>` : "";
  return { title, body: html`${create}${chooser}${table}${pages}`, current: kind === "trash" ? "trash" as const : "elements" as const };
}
