import { isLineageError, type FieldDescription, type Platform, type Principal, type RenderedValue } from "@lineage/core";
import type { Context } from "hono";
import { html } from "hono/html";
import type { HttpEnv } from "../http-env.ts";
import type { Fragment } from "./console-page.ts";
import type { ConsoleText } from "./console-text.ts";
import { elementFields, localDate } from "./element-fields.ts";
import { changesSection, elementEvents, recentActivity, relationTitles } from "./element-history.ts";
import { collections } from "./collections-panel.ts";
import { lifecycleSection } from "./lifecycle-page.ts";

/** A state's colour as the lifecycle gives it, only when it is one (it goes into a style attribute). */
export function safeColor(color: string | undefined): string {
  return color && /^#[0-9A-Fa-f]{3,8}$/.test(color) ? color : "transparent";
}

type Properties = Record<string, unknown>;

/** The element's properties: its structure, state, owner, revision and dates. */
function propertiesList(properties: Properties, t: ConsoleText, locale: string, revisionsHref?: string) {
  const structureName = String(properties.fromname ?? "");
  const state = properties.state as { displayValue?: string; color?: string } | undefined;
  const owner = properties.createdBy as { title?: string } | undefined;
  return html`<dl>
<dt>${t.structure}</dt><dd><a href="/console/elements?structure=${encodeURIComponent(structureName)}">${String(properties.fromtitle ?? structureName)}</a></dd>
${state?.displayValue ? html`<dt>${t.state}</dt><dd><span class="state" style="background:${safeColor(state.color)}"></span>${state.displayValue}</dd>` : ""}
${owner?.title ? html`<dt>${t.owner}</dt><dd>${owner.title}</dd>` : ""}
<dt>${t.revision}</dt><dd>${String(properties.revision ?? "")}${revisionsHref ? html` (<a href="${revisionsHref}">${t.compareRevisions}</a>)` : ""}</dd>
<dt>${t.created}</dt><dd>${localDate(String(properties.cdate ?? ""), locale)}</dd>
<dt>${t.modified}</dt><dd>${localDate(String(properties.mdate ?? ""), locale)}</dd>
</dl>`;
}

/** GET /console/elements/ID: the element's fields, its history, and beside them its properties and lifecycle. An element in the trash: a link to it there. */
export async function elementPage(c: Context<HttpEnv>, platform: Platform, principal: Principal, t: ConsoleText, csrf: string | undefined) {
  const ref = c.req.param("docid") ?? "";
  let reading;
  try {
    reading = await platform.elements.read(principal, ref, { fields: "document.properties.all,document.attributes" });
  } catch (error) {
    if (!isLineageError(error) || error.status !== 404) throw error;
    const trashed = await inTrash(platform, principal, ref);
    if (!trashed) throw error;
    return {
      title: trashed.title, status: 404,
      body: html`<p role="alert" class="alert">${t.isInTrash} <a href="/console/trash/${trashed.initid}">${t.openInTrash}</a></p>`,
    };
  }
  const locale = principal.account.locale;
  const { properties = {}, attributes = {} } = reading.data.document as { properties?: Properties; attributes?: Record<string, RenderedValue> };
  const structureName = String(properties.fromname ?? "");
  const described = await platform.structures.read(principal, structureName, { fields: "family.structure" });
  const fields = (described.data.family?.structure ?? {}) as Record<string, FieldDescription>;
  const history = await platform.revisions.history(principal, ref);
  const permissions = await platform.elements.permissions(principal, reading.revision);
  const initid = reading.revision.initid;
  const [events, definitions, holding] = await Promise.all([
    elementEvents(platform, principal, initid), platform.structures.definitions(),
    platform.folders.holding(principal, String(initid), { orderBy: "title:asc", slice: "50", fields: "document.properties.title,document.properties.initid" }),
  ]);
  const titles = await relationTitles(platform, principal, events, fields);
  const folders = holding.documents.map((document) => ({ initid: Number(document.properties?.initid), title: String(document.properties?.title ?? "") }));
  const here = `/console/elements/${initid}`;
  const folderForm = (action: string, label: Fragment | string, extra: Fragment | string = "") => html`<form method="post" action="/console/bulk" class="inline">
<input type="hidden" name="csrf" value="${csrf ?? ""}"><input type="hidden" name="return" value="${here}"><input type="hidden" name="ids" value="${initid}">${extra}
${action ? html`<input type="hidden" name="action" value="${action}">` : ""}<button type="submit">${label}</button></form>`;
  const others = csrf ? (await collections(platform, principal)).folders.filter((folder) => !folders.some((held) => held.initid === folder.initid)) : [];
  const foldersPanel = html`<section aria-labelledby="in-folders"><h2 id="in-folders">${t.inFolders}</h2>
${folders.length === 0 ? html`<p>${t.noFolder}</p>` : html`<ul class="plain">${folders.map((folder) => html`<li><a href="/console/elements?folder=${folder.initid}">${folder.title}</a>
${csrf ? folderForm(`unfolder:${folder.initid}`, html`<span aria-hidden="true">×</span><span class="visually-hidden">${t.removeFrom(folder.title)}</span>`) : ""}</li>`)}</ul>`}
${others.length > 0 ? folderForm("", t.add, html`<label for="add-folder">${t.addToFolder}</label> <select id="add-folder" name="action">${others.map((folder) =>
    html`<option value="folder:${folder.initid}">${folder.title}</option>`)}</select> `) : ""}
</section>`;
  const actions = html`<div class="actions">
${csrf && permissions.has("edit") ? html`<a href="/console/elements/${initid}/edit">${t.edit}</a>` : ""}
<a href="/console/elements/${initid}/revisions">${t.revisions}</a>
${csrf && permissions.has("delete") ? html`<a href="/console/elements/${initid}/delete">${t.delete}</a>` : ""}
</div>`;
  const body = html`${actions}<div class="with-panel"><div class="list-main">
<section aria-labelledby="fields"><h2 id="fields">${t.fields}</h2>${elementFields(fields, attributes, t)}</section>
<section aria-labelledby="history"><h2 id="history">${t.history}</h2>
<ol class="timeline">${history.history.flatMap((revision) => revision.messages.map((message) => html`<li>
${localDate(message.date, locale)} · ${message.uname} · ${t.revision} ${revision.properties.revision}<br>${message.comment}</li>`))}</ol></section>
${changesSection(events, fields, { definitions, locale, decimalSeparator: t.decimalSeparator, titles }, t)}
</div><aside class="panel" aria-label="${t.aboutElement}">
<section aria-labelledby="properties"><h2 id="properties">${t.properties}</h2>${propertiesList(properties, t, locale, `/console/elements/${initid}/revisions`)}</section>
${lifecycleSection(platform, principal, initid, csrf, t)}
${foldersPanel}
${recentActivity(events, t, locale)}
</aside></div>`;
  return { title: String(properties.title ?? ref), body };
}

/** The element as the trash holds it, when the person may view it there. */
async function inTrash(platform: Platform, principal: Principal, ref: string) {
  try {
    const reading = await platform.trash.read(principal, ref, { fields: "document.properties.title" });
    return { initid: reading.revision.initid, title: reading.revision.title };
  } catch (error) {
    if (isLineageError(error)) return undefined;
    throw error;
  }
}

/** GET /console/trash/ID: an element in the trash, read-only, with its restore button. */
export async function trashedElementPage(c: Context<HttpEnv>, platform: Platform, principal: Principal, t: ConsoleText, csrf: string | undefined) {
  const ref = c.req.param("docid") ?? "";
  const reading = await platform.trash.read(principal, ref, { fields: "document.properties.all,document.attributes" });
  const { properties = {}, attributes = {} } = reading.data.document as { properties?: Properties; attributes?: Record<string, RenderedValue> };
  const described = await platform.structures.read(principal, reading.revision.structure, { fields: "family.structure" });
  const fields = (described.data.family?.structure ?? {}) as Record<string, FieldDescription>;
  const initid = reading.revision.initid;
  const restore = csrf
    ? html`<form method="post" action="/console/trash/${initid}/restore" class="inline"><input type="hidden" name="csrf" value="${csrf}"><button type="submit">${t.restore}</button></form>` : "";
  return {
    title: String(properties.title ?? ref), current: "trash" as const,
    body: html`<p class="notice">${t.readOnlyInTrash}</p><div class="actions">${restore} <a href="/console/trash">${t.trash}</a></div>
<div class="with-panel"><div class="list-main"><section aria-labelledby="fields"><h2 id="fields">${t.fields}</h2>${elementFields(fields, attributes, t)}</section></div>
<aside class="panel" aria-label="${t.aboutElement}"><section aria-labelledby="properties"><h2 id="properties">${t.properties}</h2>${propertiesList(properties, t, principal.account.locale)}</section></aside></div>`,
  };
}
