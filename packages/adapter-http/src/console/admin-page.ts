import { ADMIN_ROLE, LineageError, requireAccess, type Platform, type Principal } from "@lineage/core";
import type { Context } from "hono";
import { html } from "hono/html";
import type { HttpEnv } from "../http-env.ts";
import type { Fragment } from "./console-page.ts";
import type { ConsoleText } from "./console-text.ts";
import { checkFormToken } from "./form-token.ts";
import { postedForm } from "./posted-form.ts";
import { adminNav } from "./admin-nav.ts";
import { adminText } from "./admin-text.ts";

/*
 * The administration pages (administrators only, as the API's token and search administration
 * routes): the accounts with their roles and groups, the access tokens (made here with their
 * routes and expiry, the secret shown once; revoked here), and the state of the search domains
 * with a button that reindexes what is outdated. Every refusal is the core's (403 ROUTES0131).
 */

/** The route the refusal names when someone else asks for these pages. */
const ADMIN_PAGES = { route: "console::administration", anyRole: [ADMIN_ROLE] } as const;

/** How long a new token lives, in seconds (-1: for ever), as the form offers it. */
const EXPIRIES = [3600, 86_400, 2_592_000, 31_536_000, -1] as const;

/** The administration page; `created`, the secret of the token just made (shown this once). */
export async function adminPage(platform: Platform, principal: Principal, t: ConsoleText, csrf: string | undefined, created?: string) {
  requireAccess(principal, ADMIN_PAGES);
  const accounts = await platform.accounts.listAs(principal);
  const tokens = await platform.tokens.list(principal);
  const domains = await platform.fullsearch.describeDomains(principal);
  const hidden = html`<input type="hidden" name="csrf" value="${csrf ?? ""}">`;

  const users = html`${adminNav("overview", t, adminText(principal.account.locale))}<section aria-labelledby="users"><h2 id="users">${t.users}</h2><div class="scroll"><table>
<thead><tr><th scope="col">${t.login}</th><th scope="col">${t.name}</th><th scope="col">${t.roles}</th><th scope="col">${t.groups}</th><th scope="col">${t.language}</th><th scope="col">${t.accountState}</th></tr></thead>
<tbody>${accounts.map((account) => html`<tr><td><a href="/console/admin/users/${encodeURIComponent(account.login)}"><code>${account.login}</code></a></td><td>${account.displayName}</td><td>${account.roles.join(", ")}</td>
<td>${account.groups.join(", ")}</td><td>${account.locale}</td><td>${account.disabled ? t.disabled : t.active}</td></tr>`)}</tbody>
</table></div><p><a href="/console/admin/new-user">${adminText(principal.account.locale).addUser}</a></p></section>`;

  const secret = created ? html`<div class="secret" role="status"><p><strong>${t.tokenCreated}</strong></p>
<p><label for="secret">${t.secret}</label> <input id="secret" readonly value="${created}" size="44"></p><p>${t.secretOnce}</p></div>` : "";
  const tokenRows = tokens.length === 0 ? html`<p>${t.noTokens}</p>` : html`<div class="scroll"><table>
<thead><tr><th scope="col">${t.tokenId}</th><th scope="col">${t.login}</th><th scope="col">${t.routes}</th><th scope="col">${t.expires}</th><th scope="col">${t.description}</th><th scope="col">${t.actions}</th></tr></thead>
<tbody>${tokens.map((token) => html`<tr><td><code>${token.id}</code></td><td>${token.login}</td>
<td>${token.routes.map((route) => html`<code>${route.methods.join(",")} ${route.pattern}</code> `)}</td>
<td>${token.expiresAt ? (token.expired ? t.expired : token.expiresAt.slice(0, 16).replace("T", " ")) : t.never}${token.oneshot ? html` · ${t.oneshot}` : ""}</td>
<td>${token.description}</td>
<td>${csrf ? html`<form method="post" action="/console/admin/tokens/${token.id}/revoke">${hidden}<button type="submit" aria-label="${t.revoke} ${token.id}">${t.revoke}</button></form>` : ""}</td></tr>`)}</tbody>
</table></div>`;
  const tokenForm = csrf ? html`<form method="post" action="/console/admin/tokens"><fieldset><legend>${t.newToken}</legend>${hidden}
<div class="field"><label for="token-login">${t.login}</label><select id="token-login" name="login">${accounts.filter((account) => !account.disabled).map((account) =>
    html`<option value="${account.login}">${account.login}</option>`)}</select></div>
<div class="field"><label for="token-routes">${t.routes}</label><textarea id="token-routes" name="routes" rows="3" aria-describedby="token-routes-hint" required>GET /api/v2/*</textarea>
<p id="token-routes-hint" class="hint">${t.routesHint}</p></div>
<div class="field"><label for="token-expiry">${t.expires}</label><select id="token-expiry" name="expiry">${EXPIRIES.map((seconds) =>
    html`<option value="${seconds}"${seconds === 86_400 ? html` selected` : ""}>${t.expiry(seconds)}</option>`)}</select></div>
<div class="field"><label for="token-description">${t.description}</label><input id="token-description" name="description" maxlength="1000"></div>
<div class="field"><label><input type="checkbox" name="oneshot" value="1"> ${t.oneshot}</label></div>
<button type="submit">${t.createToken}</button></fieldset></form>` : "";
  const tokensSection = html`<section aria-labelledby="tokens"><h2 id="tokens">${t.tokens}</h2>${secret}${tokenRows}${tokenForm}</section>`;

  const search = html`<section aria-labelledby="search-domains"><h2 id="search-domains">${t.searchDomains}</h2>
${domains.config.length === 0 ? html`<p>${t.noDomains}</p>` : html`<div class="scroll" tabindex="0" role="region" aria-labelledby="search-domains"><table>
<thead><tr><th scope="col">${t.domain}</th><th scope="col">${t.structure}</th><th scope="col">${t.toIndex}</th><th scope="col">${t.indexed}</th><th scope="col">${t.outdated}</th></tr></thead>
<tbody>${domains.config.flatMap((domain) => Object.entries(domain.database.structures).map(([structure, counts]) => html`<tr>
<td>${domain.description} <code>${domain.name}</code></td><td><code>${structure}</code></td><td class="number">${counts.totalToIndex}</td>
<td class="number">${counts.totalIndexed}</td><td class="number">${counts.totalDirty}</td></tr>`))}</tbody>
</table></div>
<p>${t.nextUpdate(domains.nextUpdateDate)}</p>
${csrf ? html`<form method="post" action="/console/admin/search/reindex">${hidden}<button type="submit">${t.reindex}</button></form>` : ""}`}
</section>`;
  return { title: t.administration, body: html`${users}${tokensSection}${search}` as Fragment, current: "admin" as const };
}

/** POST /console/admin/tokens: makes the token and shows the page with its secret, this once. */
export async function createTokenPage(c: Context<HttpEnv>, platform: Platform, principal: Principal, t: ConsoleText, csrf: string | undefined) {
  requireAccess(principal, ADMIN_PAGES);
  const form = await postedForm(c);
  checkFormToken(csrf, form.one("csrf"), t);
  const routes = (form.one("routes") ?? "").split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== "");
  if (routes.length === 0) throw new LineageError("AUTH0410", ["give at least one route"], { userMessage: t.routesNeeded });
  // Only the choices the form offers: anything else is a forged or broken post, never "no expiry".
  const expiry = EXPIRIES.find((seconds) => String(seconds) === form.one("expiry"));
  if (expiry === undefined) throw new LineageError("AUTH0410", [`unknown expiry ${JSON.stringify(form.one("expiry") ?? "")}`]);
  const secret = await platform.tokens.issue(principal, {
    login: form.one("login") ?? "", routes, expiration: expiry,
    oneshot: form.one("oneshot") === "1", description: form.one("description") ?? "",
  });
  return { ...(await adminPage(platform, principal, t, csrf, secret)), status: 201 };
}

/** POST /console/admin/tokens/ID/revoke. */
export async function revokeTokenPage(c: Context<HttpEnv>, platform: Platform, principal: Principal, t: ConsoleText, csrf: string | undefined) {
  requireAccess(principal, ADMIN_PAGES);
  checkFormToken(csrf, (await postedForm(c)).one("csrf"), t);
  await platform.tokens.revoke(principal, c.req.param("token") ?? "");
  return { redirect: "/console/admin#tokens" };
}

/** POST /console/admin/search/reindex: reindexes what is outdated, then the page with what was done. */
export async function reindexPage(c: Context<HttpEnv>, platform: Platform, principal: Principal, t: ConsoleText, csrf: string | undefined) {
  requireAccess(principal, ADMIN_PAGES);
  checkFormToken(csrf, (await postedForm(c)).one("csrf"), t);
  const report = await platform.fullsearch.reindexOutdated(principal);
  const count = Object.values(report).reduce((sum, elements) => sum + elements.length, 0);
  const page = await adminPage(platform, principal, t, csrf);
  return { ...page, body: html`<p role="status" class="notice">${t.reindexed(count)}</p>${page.body}` as Fragment };
}
