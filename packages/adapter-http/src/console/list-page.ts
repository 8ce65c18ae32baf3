import { isLineageError, LineageError, readFilterInput, type Definitions, type DocumentView, type FieldDescription, type FilterInput, type Platform, type Principal, type RenderedValue } from "@lineage/core";
import type { Context } from "hono";
import { html } from "hono/html";
import type { HttpEnv } from "../http-env.ts";
import { bulkForm, rowCheckbox } from "./bulk-actions.ts";
import type { Fragment } from "./console-page.ts";
import { withoutSets } from "./field-groups.ts";
import type { ConsoleText } from "./console-text.ts";
import { fieldValue, localDate } from "./element-fields.ts";
import { filterBar, filterRows, filterRowTitles, filterTargets, rowConditions, rowsOfFilter, type FilterRow } from "./filter-bar.ts";
import { collectionsPanel } from "./collections-panel.ts";
import { listHref, PAGE_SIZES, type ListKind, type ListParameters } from "./list-href.ts";
import { saveViewForm, viewSharingForm } from "./saved-views.ts";
import { viewShares } from "./view-sharing.ts";
import { formText } from "./form-text.ts";
import { relationTargets, settleFilterRows } from "./relation-picker.ts";
import { refusalText } from "./refusal-text.ts";
import { keysByLabel, LABEL_ORDER_MAX_ITEMS, pageByLabel } from "./enum-order.ts";

export type { ListKind } from "./list-href.ts";

/** Elements per page by default. */
const PAGE = 25;
/** The total a list counts up to (at least; more on a page past it), past which it says "more than". */
const COUNT_LIMIT = 10_000;

interface Column {
  /** The key the list sorts by: a property, or a field's id. */
  readonly key: string;
  readonly label: string;
  readonly cell: (document: DocumentView) => Fragment;
}

/** The rows' query variables (`f0`, `o0`, `v0`...), for links that keep the filter. */
function rowParameters(rows: readonly FilterRow[]): Record<string, string | readonly string[]> {
  return Object.fromEntries(rows.flatMap((row, i) => [[`f${i}`, row.field], [`o${i}`, row.operator], [`v${i}`, row.values]]));
}

/** The filter a list page applies: its rows, its search box (title contains) and a stored filter the rows cannot show, joined by `and`. */
export function pageFilter(rows: readonly FilterRow[], search: string, kept: FilterInput | undefined): FilterInput | undefined {
  const filters: FilterInput[] = [...rowConditions(rows), ...(search ? [{ field: "title", operator: "contains" as const, value: search }] : []), ...(kept ? [kept] : [])];
  return filters.length === 0 ? undefined : filters.length === 1 ? filters[0] : { logic: "and", filters };
}

/** A page size as asked, one of PAGE_SIZES; the default otherwise. */
function pageSize(raw: string | undefined, fallback: number): number {
  const size = Number(raw);
  return (PAGE_SIZES as readonly number[]).includes(size) ? size : fallback;
}

/**
 * A list of elements as a sortable, paged table (total and page numbers), with a filter bar and a
 * search box, the fields the person chose as columns (in one structure's list), the saved views and
 * folders beside it, and actions on the selected rows.
 */
export async function listPage(c: Context<HttpEnv>, platform: Platform, kind: ListKind, principal: Principal, t: ConsoleText, csrf: string | undefined) {
  const structureName = kind === "elements" ? c.req.query("structure") || undefined : undefined;
  const folderRef = kind === "elements" && !structureName ? c.req.query("folder") || undefined : undefined;
  const orderBy = c.req.query("orderBy") || "title:asc";
  const size = pageSize(c.req.query("size"), PAGE);
  const offset = Number(/^\d+$/.test(c.req.query("offset") ?? "") ? c.req.query("offset") : 0);
  const search = c.req.query("q")?.trim() ?? "";
  let rows = filterRows((name) => c.req.query(name), (name) => c.req.queries(name));
  // A stored filter (a saved view's, or the API's `filter` given as it is): shown as rows when the bar can show it, else kept as it is.
  let kept: FilterInput | undefined;
  let asStored: FilterRow[] | undefined;
  const raw = c.req.query("filter");
  if (raw?.trim()) {
    const stored = readFilterInput(raw);
    asStored = rowsOfFilter(stored);
    if (asStored && rows.length === 0) rows = asStored;
    else kept = stored;
  }
  const [described, definitions] = await Promise.all([
    structureName ? platform.structures.read(principal, structureName, { fields: "family.structure,document.properties.title" }) : undefined,
    platform.structures.definitions(),
  ]);
  const fields = flatFields((described?.data.family?.structure ?? {}) as Record<string, FieldDescription>)
    .filter((field) => field.type !== "array" && field.type !== "password")
    .sort((a, b) => a.logicalOrder - b.logicalOrder);
  const chosen = (c.req.queries("columns") ?? []).filter((id) => fields.some((field) => field.id === id));
  // A relation's row holds a typed title: settled into the element (or elements) it names, as the forms do.
  if (structureName) {
    const titles = rows === asStored ? [] : filterRowTitles((name) => c.req.query(name));
    rows = await settleFilterRows(platform, principal, formText(principal.account.locale), rows, titles, relationTargets(definitions, structureName));
  }
  const filter = pageFilter(rows, search, kept);
  // Counting a million elements costs more than their page: the total is counted up to past the pages the links name, then "more than".
  const countLimit = Math.max(COUNT_LIMIT, offset + size * 3) + 1;
  const query = {
    orderBy, offset: String(offset), slice: String(size), count: true, countLimit,
    fields: ["document.properties.title", "document.properties.initid", "document.properties.state", "document.properties.mdate", "document.properties.fromtitle",
      ...chosen.map((id) => `document.attributes.${id}`)].join(","),
    ...(filter ? { filter } : {}),
  };
  const [sortKey = "title", sortDirection = "asc"] = orderBy.split(",")[0]!.split(":").map((part) => part.trim());
  // A list opened from a saved view stays that view's (its sharing form under it) while it is sorted, paged or refiltered.
  const viewRef = kind === "elements" ? c.req.query("view") || undefined : undefined;
  const base = { structure: structureName, folder: folderRef, columns: chosen, size: size === PAGE ? undefined : String(size), view: viewRef };
  const here = { ...base, orderBy, q: search, ...rowParameters(rows), filter: kept ? JSON.stringify(kept) : undefined };
  const returnTo = listHref(kind, { ...here, offset: offset ? String(offset) : undefined });
  // What the page shows beside the list does not depend on its rows: read at the same time as them (a round trip each on PostgreSQL).
  const beside = Promise.all([
    structureName && csrf ? platform.elements.mayCreate(principal, structureName) : false,
    filterTargets(platform, principal, t, definitions, kind === "elements" ? structureName : undefined, fields),
    kind === "elements" && csrf ? bulkForm(platform, principal, t, csrf, { returnTo, structureName, folderRef, definitions }) : "",
    viewRef && csrf ? viewSharingForm(platform, principal, csrf, viewRef, listHref(kind, here)) : "",
    collectionsPanel(platform, principal, t),
  ]);
  // Awaited below, after the list: a failure of the list must not leave this one unobserved.
  beside.catch(() => undefined);
  // An enum column sorts by its labels in the person's language (the API sorts by key).
  const labelKeys = labelSortOf(kind === "elements" && !folderRef ? structureName : undefined, orderBy, fields, definitions, principal.account.locale);
  let folderTitle: string | undefined;
  let answer;
  let refused: LineageError | undefined;
  try {
    if (kind === "trash") answer = await platform.trash.list(principal, query);
    else if (folderRef) {
      const content = await platform.folders.content(principal, folderRef, query);
      folderTitle = content.properties.title;
      answer = content;
    } else if (labelKeys) {
      const page = await pageByLabel(platform, principal, { ...query, family: structureName }, labelKeys.field, labelKeys.keys, offset, size);
      answer = { documents: page.documents, requestParameters: { total: page.total } };
    } else answer = await platform.elements.list(principal, { ...query, family: structureName });
  } catch (error) {
    // A filter refused is said above the bar, which keeps what was asked so that it can be mended.
    if (!isLineageError(error) || !error.code.startsWith("FILTER")) throw error;
    refused = error;
  }
  const documents = answer?.documents ?? [];
  const counted = answer?.requestParameters.total ?? documents.length;
  const capped = counted >= countLimit;
  const total = capped ? countLimit - 1 : counted;
  const locale = principal.account.locale;

  const property = (document: DocumentView, name: string) => document.properties?.[name];
  const columns: Column[] = [
    {
      key: "title", label: t.title,
      cell: (document) => html`<a href="/console/${kind === "trash" ? "trash" : "elements"}/${String(property(document, "initid"))}">${String(property(document, "title") || "—")}</a>`,
    },
    ...(structureName ? [] : [{ key: "fromname", label: t.structure, cell: (document: DocumentView) => html`${String(property(document, "fromtitle") ?? "")}` }]),
    { key: "state", label: t.state, cell: (document) => html`${(property(document, "state") as { displayValue?: string } | undefined)?.displayValue ?? ""}` },
    { key: "mdate", label: t.modified, cell: (document) => html`${localDate(String(property(document, "mdate") ?? ""), locale)}` },
    ...chosen.map((id) => {
      const field = fields.find((f) => f.id === id)!;
      return { key: id, label: field.label, cell: (document: DocumentView) => fieldValue(field, document.attributes?.[id] as RenderedValue | undefined, t) };
    }),
  ];
  // The trash's rows can be restored by whoever may (the use case checks; the button is there for a session only).
  const restore = kind === "trash" && csrf
    ? (document: DocumentView) => html`<form method="post" action="/console/trash/${String(property(document, "initid"))}/restore"><input type="hidden" name="csrf" value="${csrf}"><button type="submit" aria-label="${t.restore} ${String(property(document, "title") ?? "")}">${t.restore}</button></form>`
    : undefined;
  const bulk = kind === "elements" && csrf && documents.length > 0;
  const header = (column: Column) => {
    const sorted = column.key === sortKey;
    const next = sorted && sortDirection === "asc" ? "desc" : "asc";
    return html`<th scope="col"${sorted ? html` aria-sort="${sortDirection === "asc" ? "ascending" : "descending"}"` : ""}>
<a href="${listHref(kind, { ...here, orderBy: `${column.key}:${next}` })}" aria-label="${t.sortBy(column.label)}">${column.label}</a>${sorted ? (sortDirection === "asc" ? " ▲" : " ▼") : ""}</th>`;
  };
  const title = kind === "trash" ? t.trash : structureName ? String(described?.data.document.properties?.title ?? structureName) : folderTitle ?? t.allElements;
  const chooser = structureName && fields.length > 0 ? html`<details><summary>${t.columns}</summary><form method="get" action="/console/elements"><fieldset><legend>${t.columns}</legend>
${Object.entries({ ...here, columns: undefined }).flatMap(([name, value]) => (typeof value === "string" ? [value] : value ?? []).filter((item) => item !== "").map((item) => html`<input type="hidden" name="${name}" value="${item}">`))}
${fields.map((field) => html`<label class="choice"><input type="checkbox" name="columns" value="${field.id}"${chosen.includes(field.id) ? html` checked` : ""}> ${field.label}</label> `)}
<button type="submit">${t.show}</button></fieldset></form></details>` : "";
  const from = documents.length === 0 ? 0 : offset + 1;
  const summary = capped ? t.listTotalMore(total, from, offset + documents.length) : t.listTotal(total, from, offset + documents.length);
  const table = documents.length === 0 ? html`<p>${t.noElements}</p>` : html`<div class="scroll"><table>
<caption>${summary}, ${t.sortedBy(columns.find((column) => column.key === sortKey)?.label ?? sortKey, sortDirection === "desc" ? "desc" : "asc")}</caption>
<thead><tr>${bulk ? html`<th scope="col"><span class="visually-hidden">${t.select}</span></th>` : ""}${columns.map(header)}${restore ? html`<th scope="col">${t.actions}</th>` : ""}</tr></thead>
<tbody>${documents.map((document) => html`<tr>${bulk ? html`<td>${rowCheckbox(document, t)}</td>` : ""}${columns.map((column) => html`<td>${column.cell(document)}</td>`)}${restore ? html`<td>${restore(document)}</td>` : ""}</tr>`)}</tbody>
</table></div>`;
  const pages = pageLinks(kind, here, offset, size, total, t, capped);
  const [mayCreate, targets, bulkActions, sharing, panel] = await beside;
  const create = structureName && mayCreate
    ? html`<p class="actions"><a href="/console/structures/${encodeURIComponent(structureName)}/new">${t.newElement}</a></p>` : "";
  const action = `/console/${kind}`;
  const bar = filterBar({
    action, keep: { ...base, size: undefined, orderBy, filter: kept ? JSON.stringify(kept) : undefined }, rows, targets, search, t, size, sizes: PAGE_SIZES,
    clearHref: listHref(kind, { structure: structureName, folder: folderRef }),
  });
  const keptNote = kept ? html`<p class="hint">${t.keptFilter} <code>${JSON.stringify(kept)}</code></p>` : "";
  const labelOf = (id: string) => targets.find((target) => target.id === id)?.label;
  const refusal = refused ? html`<p role="alert" class="alert">${refusalText(refused, locale, labelOf)}</p>` : "";
  const actions = bulk ? bulkActions : "";
  const save = kind === "elements" && csrf
    ? saveViewForm(t, csrf, { structure: structureName ?? "", filter: filter ? JSON.stringify(filter) : "", orderBy, columns: chosen, size: String(size) },
      { shares: viewShares(definitions, locale), locale })
    : "";
  return {
    title,
    body: html`<div class="with-panel"><div class="list-main">${create}${bar}${keptNote}${refusal}${chooser}
<p class="total">${summary}</p>${actions}${table}${pages}${sharing}${save}</div>${panel}</div>`,
    current: kind === "trash" ? "trash" as const : "elements" as const,
  };
}

/** The keys of the enum field a one-structure list is sorted by alone, in the order of their labels; undefined for any other order. */
function labelSortOf(structureName: string | undefined, orderBy: string, fields: readonly FieldDescription[], definitions: Definitions, locale: string) {
  if (!structureName || orderBy.includes(",")) return undefined;
  const [key = "", direction = "asc"] = orderBy.split(":").map((part) => part.trim());
  const field = fields.find((candidate) => candidate.id === key && candidate.type === "enum" && !candidate.multiple && candidate.enum);
  const enumerate = field?.enum ? definitions.enumerate(field.enum) : undefined;
  if (!field || !enumerate || enumerate.items.length > LABEL_ORDER_MAX_ITEMS || (direction !== "asc" && direction !== "desc")) return undefined;
  return { field: field.id, keys: keysByLabel(enumerate, locale, direction) };
}

/** The fields of a structure description, columns of arrays included (an array's columns are not listable as one value). */
function flatFields(tree: Readonly<Record<string, FieldDescription>>): FieldDescription[] {
  return Object.values(withoutSets(tree)).flatMap((field) => (field.type === "array" ? [] : [field]));
}

/** Page numbers: the first, the last, and those around the current one; previous and next. */
function pageLinks(kind: ListKind, here: ListParameters, offset: number, size: number, total: number, t: ConsoleText, capped = false): Fragment {
  const current = Math.floor(offset / size) + 1;
  // A total counted only up to a limit: the pages past the next two are unknown (no last page, "…" and Next).
  const count = capped ? current + 2 : Math.max(1, Math.ceil(total / size));
  if (count === 1 && offset === 0) return html``;
  const href = (page: number) => listHref(kind, { ...here, offset: page > 1 ? String((page - 1) * size) : undefined });
  const shown = [...new Set([1, current - 2, current - 1, current, current + 1, current + 2, count])].filter((page) => page >= 1 && page <= count).sort((a, b) => a - b);
  const items: Fragment[] = [];
  let previous = 0;
  for (const page of shown) {
    if (page > previous + 1) items.push(html`<li aria-hidden="true">…</li>`);
    items.push(page === current
      ? html`<li><a href="${href(page)}" aria-current="page" aria-label="${t.pageNumber(page)}">${page}</a></li>`
      : html`<li><a href="${href(page)}" aria-label="${t.pageNumber(page)}">${page}</a></li>`);
    previous = page;
  }
  if (capped) items.push(html`<li aria-hidden="true">…</li>`);
  return html`<nav class="pages" aria-label="${capped ? t.pages : t.pagesOf(count)}"><ul class="plain pages">
${current > 1 ? html`<li><a href="${href(current - 1)}" rel="prev">${t.previous}</a></li>` : ""}
${items}
${current < count ? html`<li><a href="${href(current + 1)}" rel="next">${t.next}</a></li>` : ""}
</ul></nav>`;
}
