import type { DocumentView, Platform, Principal } from "@lineage/core";
import { html } from "hono/html";
import type { Fragment } from "./console-page.ts";
import type { ConsoleText } from "./console-text.ts";

/** The most saved views and folders the panel lists. */
const PANEL_SLICE = 50;

const item = (document: DocumentView) => ({ initid: Number(document.properties?.initid), title: String(document.properties?.title || "—") });

/** The saved views (and searches) and the folders the person may view, by title. */
export async function collections(platform: Platform, principal: Principal) {
  const options = { orderBy: "title:asc", slice: String(PANEL_SLICE), fields: "document.properties.title,document.properties.initid" };
  const [views, folders] = await Promise.all([platform.searches.list(principal, options), platform.folders.list(principal, options)]);
  return { views: views.documents.map(item), folders: folders.documents.map(item) };
}

/** The links of the saved views and of the folders: a list page's side panel, and the home page's. */
export function collectionLinks(found: Awaited<ReturnType<typeof collections>>, t: ConsoleText): { views: Fragment; folders: Fragment } {
  return {
    views: found.views.length === 0 ? html`<p>${t.noViews}</p>`
      : html`<ul>${found.views.map((view) => html`<li><a href="/console/views/${view.initid}">${view.title}</a></li>`)}</ul>`,
    folders: found.folders.length === 0 ? html`<p>${t.noFolders}</p>`
      : html`<ul>${found.folders.map((folder) => html`<li><a href="/console/elements?folder=${folder.initid}">${folder.title}</a></li>`)}</ul>`,
  };
}

/** A list page's side panel: the saved views and the folders. */
export async function collectionsPanel(platform: Platform, principal: Principal, t: ConsoleText): Promise<Fragment> {
  const links = collectionLinks(await collections(platform, principal), t);
  return html`<aside class="panel" aria-label="${t.collections}">
<section aria-labelledby="panel-views"><h2 id="panel-views">${t.savedViews}</h2>${links.views}</section>
<section aria-labelledby="panel-folders"><h2 id="panel-folders">${t.folders}</h2>${links.folders}
<p><a href="/console/structures/DIR/new">${t.newFolder}</a></p></section>
</aside>`;
}
