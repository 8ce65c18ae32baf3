import { isLineageError, LineageError, type ElementRevision, type Platform, type Principal } from "@lineage/core";
import type { Context } from "hono";
import { html } from "hono/html";
import type { HttpEnv } from "../http-env.ts";
import type { Fragment } from "./console-page.ts";
import type { ConsoleText } from "./console-text.ts";
import type { Flash } from "./flash.ts";
import { checkFormToken } from "./form-token.ts";
import { consoleReturn, listHref, PAGE_SIZES } from "./list-href.ts";
import { postedForm } from "./posted-form.ts";
import { shareChoice, shareText, viewShares, type ViewShare } from "./view-sharing.ts";

/*
 * Saved views: a list page kept as a REPORT element (its structure, filter, order, columns and page
 * size), the same the API runs at /api/v2/searches/<view>/smart-elements/. Opening one goes to
 * the list page it describes, where the filter bar shows its filter and can narrow it further.
 */

/** What a list page shows, as a view keeps it. */
export interface ViewState {
  readonly structure: string;
  /** The API's `filter`, as JSON; empty: none. */
  readonly filter: string;
  readonly orderBy: string;
  readonly columns: readonly string[];
  readonly size: string;
}

/** The form under a list that saves it as a view (a title to give, and who sees it when views may be shared). */
export function saveViewForm(t: ConsoleText, csrf: string, state: ViewState, sharing?: { readonly shares: readonly ViewShare[]; readonly locale: string }): Fragment {
  return html`<details class="save-view"><summary>${t.saveView}</summary>
<form method="post" action="/console/views">
<input type="hidden" name="csrf" value="${csrf}">
<input type="hidden" name="structure" value="${state.structure}">
<input type="hidden" name="filter" value="${state.filter}">
<input type="hidden" name="orderBy" value="${state.orderBy}">
${state.columns.map((column) => html`<input type="hidden" name="columns" value="${column}">`)}
<input type="hidden" name="size" value="${state.size}">
<div class="field"><label for="view-title">${t.viewTitle}</label><input id="view-title" name="title" required aria-required="true"></div>
${sharing ? shareChoice(sharing.shares, sharing.locale) : html`<p class="hint">${t.viewPrivate}</p>`}
<button type="submit">${t.saveViewButton}</button>
</form></details>`;
}

type Answer = { redirect: string; flash?: Flash };

/** POST /console/views: the list kept as a REPORT of the person's; then the view opened. */
export async function saveView(c: Context<HttpEnv>, platform: Platform, principal: Principal, t: ConsoleText, csrf: string | undefined): Promise<Answer> {
  const form = await postedForm(c);
  checkFormToken(csrf, form.one("csrf"), t);
  const structure = form.one("structure")?.trim() ?? "";
  const state = { structure, orderBy: form.one("orderBy") ?? "", columns: form.all("columns"), size: form.one("size") ?? "" };
  const filter = form.one("filter")?.trim() ?? "";
  const title = form.one("title")?.trim() ?? "";
  const back = listHref("elements", { ...state, filter });
  if (!title) return { redirect: back, flash: { message: t.viewNeedsTitle, refused: true } };
  const share = form.one("share")?.trim() ?? "";
  const locale = principal.account.locale;
  const shared = share ? viewShares(await platform.structures.definitions(), locale).find((candidate) => candidate.profile === share) : undefined;
  if (share && !shared) return { redirect: back, flash: { message: shareText(locale).badShare, refused: true } };
  const size = Number(state.size);
  const created = await platform.elements.createByApi(principal, "REPORT", {
    values: {
      ba_title: title, se_famid: structure, se_filter: filter, se_orderby: state.orderBy, rep_idcols: state.columns,
      ...((PAGE_SIZES as readonly number[]).includes(size) ? { rep_limit: size } : {}),
    },
  });
  // A shared view is the same REPORT under a profile of its own (its owner keeps it: the profile grants them edit).
  if (shared) await platform.elements.update(principal, String(created.revision.initid), { values: {}, ownProfile: shared.profile, comment: shareText(locale).sharedWith(shared.viewers) });
  return { redirect: `/console/views/${created.revision.initid}`, flash: { message: t.viewSaved(title) } };
}

const text = (value: unknown) => (typeof value === "string" ? value : "");

/** A saved view (or search) the person may view, by its reference: its revision; ROUTES0126 for an element of another kind. */
async function viewRevision(platform: Platform, principal: Principal, ref: string): Promise<ElementRevision> {
  const reading = await platform.elements.read(principal, ref, { fields: "document.properties.title" });
  const definitions = await platform.structures.definitions();
  if (!definitions.withDescendants("SEARCH").includes(reading.revision.structure)) throw new LineageError("ROUTES0126", [ref]);
  return reading.revision;
}

/**
 * Under a list opened from a saved view: who sees that view, and for its owner (when views may be
 * shared) the form that changes it; nothing for a view that is gone or not the person's to share.
 */
export async function viewSharingForm(platform: Platform, principal: Principal, csrf: string, ref: string, returnTo: string): Promise<Fragment> {
  let revision: ElementRevision;
  try {
    revision = await viewRevision(platform, principal, ref);
  } catch (error) {
    if (isLineageError(error)) return html``;
    throw error;
  }
  const locale = principal.account.locale;
  const words = shareText(locale);
  const shares = viewShares(await platform.structures.definitions(), locale);
  if (revision.owner !== principal.account.id || shares.length === 0) return html``;
  const title = revision.title;
  const current = shares.find((share) => share.profile === revision.ownProfile);
  return html`<details class="view-sharing"><summary>${words.whoSees}${words.colon}${current ? words.sharedWith(current.viewers) : words.onlyMe}</summary>
<form method="post" action="/console/views/${revision.initid}/sharing">
<input type="hidden" name="csrf" value="${csrf}"><input type="hidden" name="return" value="${returnTo}">
${shareChoice(shares, locale, current ? current.profile : null, words.whoSeesView(title))}
<button type="submit">${words.change}</button>
</form></details>`;
}

/** POST /console/views/ID/sharing: the view kept private or shared under another profile, by its owner; then back to the list. */
export async function changeViewSharing(c: Context<HttpEnv>, platform: Platform, principal: Principal, t: ConsoleText, csrf: string | undefined): Promise<Answer> {
  const form = await postedForm(c);
  checkFormToken(csrf, form.one("csrf"), t);
  const ref = c.req.param("view") ?? "";
  const revision = await viewRevision(platform, principal, ref);
  const back = consoleReturn(form.one("return"), `/console/views/${revision.initid}`);
  const locale = principal.account.locale;
  const words = shareText(locale);
  if (revision.owner !== principal.account.id) return { redirect: back, flash: { message: words.notOwner, refused: true } };
  const share = form.one("share")?.trim() ?? "";
  const shared = share ? viewShares(await platform.structures.definitions(), locale).find((candidate) => candidate.profile === share) : undefined;
  if (share && !shared) return { redirect: back, flash: { message: words.badShare, refused: true } };
  const message = shared ? words.nowShared(revision.title, shared.viewers) : words.nowPrivate(revision.title);
  await platform.elements.update(principal, String(revision.initid), { values: {}, ownProfile: shared ? shared.profile : null, comment: message });
  return { redirect: back, flash: { message } };
}

/** GET /console/views/ID: the list page the saved view (or search) describes. */
export async function openView(c: Context<HttpEnv>, platform: Platform, principal: Principal): Promise<Answer> {
  const ref = c.req.param("view") ?? "";
  const reading = await platform.elements.read(principal, ref, { fields: "document.properties.title" });
  const definitions = await platform.structures.definitions();
  if (!definitions.withDescendants("SEARCH").includes(reading.revision.structure)) throw new LineageError("ROUTES0126", [ref]);
  const values = reading.revision.values;
  const columns = Array.isArray(values.rep_idcols) ? values.rep_idcols.map(String) : [];
  const size = typeof values.rep_limit === "number" ? String(values.rep_limit) : undefined;
  const kind = values.se_trash === "only" ? "trash" as const : "elements" as const;
  return {
    redirect: listHref(kind, {
      ...(kind === "elements" ? { structure: text(values.se_famid), columns } : {}),
      filter: text(values.se_filter), orderBy: text(values.se_orderby), size, view: String(reading.revision.initid),
    }),
  };
}
