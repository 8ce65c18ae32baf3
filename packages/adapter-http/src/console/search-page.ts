import { translate, type Platform, type Principal } from "@lineage/core";
import type { Context } from "hono";
import { html } from "hono/html";
import type { HttpEnv } from "../http-env.ts";
import type { ConsoleText } from "./console-text.ts";

/** A highlight as the search answers it (plain text, matches within `[[[ ]]]`), marked up safely. */
function markedHighlight(text: string) {
  return text.split(/(\[\[\[.*?\]\]\])/s).map((part) => (part.startsWith("[[[") && part.endsWith("]]]") ? html`<mark>${part.slice(3, -3)}</mark>` : html`${part}`));
}

/** The search form over the domains, and the results of a query with their highlights. */
export async function searchPage(c: Context<HttpEnv>, platform: Platform, principal: Principal, t: ConsoleText) {
  const domains = await platform.fullsearch.engine.domains();
  const domain = c.req.query("domain") || domains[0]?.name;
  const q = c.req.query("q") ?? "";
  if (!domain) return { title: t.search, body: html`<p>${t.noDomains}</p>`, current: "search" as const };
  const form = html`<form method="get" action="/console/search" role="search">
<label for="domain">${t.domain}</label>
<select id="domain" name="domain">${domains.map((d) => html`<option value="${d.name}"${d.name === domain ? html` selected` : ""}>${translate(d.label ?? d.name, principal.account.locale)}</option>`)}</select>
<label for="q">${t.words}</label>
<input id="q" name="q" type="search" value="${q}">
<button type="submit">${t.search}</button>
</form>`;
  if (q.trim() === "") return { title: t.search, body: form, current: "search" as const };
  const found = await platform.fullsearch.search(principal, domain, { q, slice: "25", fields: "document.properties.title,document.properties.initid" });
  const results = found.documents.length === 0 ? html`<p role="status">${t.noResults}</p>` : html`<p role="status">${t.results(found.documents.length)}</p>
<ol>${found.documents.map((document) => html`<li><a href="/console/elements/${String(document.properties?.initid ?? "")}">${String(document.properties?.title ?? "")}</a>
${document.highlights ? html`<p>${markedHighlight(document.highlights)}</p>` : ""}</li>`)}</ol>`;
  return { title: t.search, body: html`${form}${results}`, current: "search" as const };
}
