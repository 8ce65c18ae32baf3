import { isLineageError, translate, type Definitions, type DocumentView, type Platform, type Principal } from "@lineage/core";
import type { Context } from "hono";
import { html } from "hono/html";
import type { HttpEnv } from "../http-env.ts";
import { collections } from "./collections-panel.ts";
import type { Fragment } from "./console-page.ts";
import type { ConsoleText } from "./console-text.ts";
import type { Flash } from "./flash.ts";
import { checkFormToken } from "./form-token.ts";
import { consoleReturn } from "./list-href.ts";
import { postedForm } from "./posted-form.ts";
import { refusalText } from "./refusal-text.ts";

/*
 * Actions on the rows a person selects in a list: put them in the trash, add them to a folder,
 * take them out of the folder listed, run a transition. Each element goes through the same use
 * case as alone (its own rights, its own transaction): those refused are named in the message,
 * the others done.
 */

/** The most elements one action takes (a page of the largest size). */
const MAX_SELECTED = 100;

/** A row's checkbox, tied to the actions' form by its `form` attribute (the table is outside it). */
export function rowCheckbox(document: DocumentView, t: ConsoleText): Fragment {
  const title = String(document.properties?.title ?? "");
  return html`<input type="checkbox" name="ids" value="${String(document.properties?.initid ?? "")}" form="bulk" aria-label="${t.selectRow(title)}">`;
}

/** The actions' form above a list: the action to run on the selected rows. */
export async function bulkForm(platform: Platform, principal: Principal, t: ConsoleText, csrf: string, list: {
  readonly returnTo: string; readonly structureName: string | undefined; readonly folderRef: string | undefined; readonly definitions: Definitions;
}): Promise<Fragment> {
  const locale = principal.account.locale;
  const { folders } = await collections(platform, principal);
  const structure = list.structureName ? list.definitions.structure(list.structureName) : undefined;
  const lifecycle = structure?.lifecycle ? list.definitions.lifecycle(structure.lifecycle) : undefined;
  const transitions = [...(lifecycle?.transitions ?? [])]
    .map((transition) => ({ id: transition.id, label: translate(transition.label ?? transition.id, locale) }))
    .sort((a, b) => a.label.localeCompare(b.label, locale));
  return html`<form id="bulk" method="post" action="/console/bulk" class="bulk">
<input type="hidden" name="csrf" value="${csrf}"><input type="hidden" name="return" value="${list.returnTo}">
<label for="bulk-action">${t.withSelected}</label>
<select id="bulk-action" name="action">
<option value="trash">${t.moveToTrash}</option>
${list.folderRef ? html`<option value="unfolder:${list.folderRef}">${t.removeFromFolder}</option>` : ""}
${folders.length > 0 ? html`<optgroup label="${t.addToFolder}">${folders.map((folder) => html`<option value="folder:${folder.initid}">${t.addToFolderNamed(folder.title)}</option>`)}</optgroup>` : ""}
${transitions.length > 0 ? html`<optgroup label="${t.runATransition}">${transitions.map((transition) => html`<option value="transition:${transition.id}">${transition.label}</option>`)}</optgroup>` : ""}
</select>
<button type="submit">${t.applyToSelected}</button>
</form>`;
}

/** POST /console/bulk: the action run on each selected element, then back to the list with what was done and what was refused. */
export async function runBulk(c: Context<HttpEnv>, platform: Platform, principal: Principal, t: ConsoleText, csrf: string | undefined): Promise<{ redirect: string; flash: Flash }> {
  const form = await postedForm(c);
  checkFormToken(csrf, form.one("csrf"), t);
  const back = consoleReturn(form.one("return"), "/console/elements");
  const ids = [...new Set(form.all("ids").filter((id) => /^\d+$/.test(id)))].slice(0, MAX_SELECTED);
  if (ids.length === 0) return { redirect: back, flash: { message: t.noneSelected, refused: true } };
  const [kind = "", target = ""] = (form.one("action") ?? "").split(/:(.*)/s);
  const run = async (id: string): Promise<unknown> => {
    switch (kind) {
      case "trash": return platform.elements.delete(principal, id);
      case "folder": return platform.folders.add(principal, target, id);
      case "unfolder": return platform.folders.remove(principal, target, id);
      case "transition": return platform.lifecycle.runTransition(principal, id, target);
      default: throw new Error("unknown action");
    }
  };
  if (!["trash", "folder", "unfolder", "transition"].includes(kind) || (kind !== "trash" && !target)) {
    return { redirect: back, flash: { message: t.unknownAction, refused: true } };
  }
  let done = 0;
  const refusals: string[] = [];
  for (const id of ids) {
    try {
      await run(id);
      done++;
    } catch (error) {
      if (!isLineageError(error)) throw error;
      refusals.push(`${await titleOf(platform, principal, id)}${t.colon}${refusalText(error, principal.account.locale)}`);
    }
  }
  const message = [t.bulkDone(done), ...refusals].join(" ");
  return { redirect: back, flash: { message, refused: refusals.length > 0, ...(kind === "trash" && done === 1 && ids.length === 1 ? { undo: Number(ids[0]) } : {}) } };
}

/** An element's title for a message, its id when the person may not read it. */
async function titleOf(platform: Platform, principal: Principal, id: string): Promise<string> {
  try {
    return (await platform.elements.read(principal, id, { fields: "document.properties.title" })).revision.title || id;
  } catch {
    return `#${id}`;
  }
}
