import type { DocumentView, Platform, Principal } from "@lineage/core";
import { html } from "hono/html";
import { collectionLinks, collections } from "./collections-panel.ts";
import type { Fragment } from "./console-page.ts";
import type { ConsoleText } from "./console-text.ts";
import { localDate } from "./element-fields.ts";
import { listHref } from "./list-href.ts";

/** How many elements each list of the home page shows. */
const HOME_SLICE = 10;

const FIELDS = "document.properties.title,document.properties.initid,document.properties.state,document.properties.mdate,document.properties.fromtitle";

/** Elements as a short list: title, structure, state and when they changed. */
function shortList(documents: readonly DocumentView[], empty: string, locale: string): Fragment {
  if (documents.length === 0) return html`<p>${empty}</p>`;
  return html`<ul class="plain short">${documents.map((document) => {
    const properties = document.properties ?? {};
    const state = (properties.state as { displayValue?: string } | undefined)?.displayValue;
    return html`<li><a href="/console/elements/${String(properties.initid)}">${String(properties.title || "—")}</a>
<span class="hint">${String(properties.fromtitle ?? "")}${state ? html` · ${state}` : ""} · ${localDate(String(properties.mdate ?? ""), locale)}</span></li>`;
  })}</ul>`;
}

/**
 * The console's home page, where a person lands: what changed lately among what they may view,
 * their drafts (their elements in their lifecycle's first state), their saved views and folders.
 */
export async function homePage(platform: Platform, principal: Principal, t: ConsoleText) {
  const locale = principal.account.locale;
  const definitions = await platform.structures.definitions();
  const firstStates = [...new Set(definitions.structures().flatMap((structure) => {
    const lifecycle = structure.lifecycle ? definitions.lifecycle(structure.lifecycle) : undefined;
    return lifecycle ? [lifecycle.firstState] : [];
  }))];
  const draftsFilter = { logic: "and" as const, filters: [{ field: "owner", operator: "eq" as const, value: "@me" }, { field: "state", operator: "in" as const, value: firstStates }] };
  const [recent, drafts, found] = await Promise.all([
    platform.elements.list(principal, { orderBy: "mdate:desc", slice: String(HOME_SLICE), fields: FIELDS }),
    firstStates.length === 0 ? undefined : platform.elements.list(principal, { orderBy: "mdate:desc", slice: String(HOME_SLICE), fields: FIELDS, filter: draftsFilter, count: true }),
    collections(platform, principal),
  ]);
  const links = collectionLinks(found, t);
  const allDrafts = listHref("elements", { filter: JSON.stringify(draftsFilter), orderBy: "mdate:desc" });
  return {
    title: t.home,
    current: "home" as const,
    body: html`<div class="home">
<section aria-labelledby="recent"><h2 id="recent">${t.recentChanges}</h2>${shortList(recent.documents, t.noElements, locale)}
<p><a href="${listHref("elements", { orderBy: "mdate:desc" })}">${t.allRecent}</a></p></section>
<section aria-labelledby="drafts"><h2 id="drafts">${t.myDrafts}</h2>${shortList(drafts?.documents ?? [], t.noDrafts, locale)}
${drafts && (drafts.requestParameters.total ?? 0) > 0 ? html`<p><a href="${allDrafts}">${t.allMyDrafts(drafts.requestParameters.total ?? 0)}</a></p>` : ""}</section>
<section aria-labelledby="home-views"><h2 id="home-views">${t.savedViews}</h2>${links.views}</section>
<section aria-labelledby="home-folders"><h2 id="home-folders">${t.folders}</h2>${links.folders}</section>
</div>
<p><a href="/console/structures">${t.structures}</a> · <a href="/console/search">${t.search}</a></p>`,
  };
}
