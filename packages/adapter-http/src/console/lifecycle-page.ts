import { isLineageError, LineageError, translate, type Enumerate, type FieldDescription, type Platform, type Principal } from "@lineage/core";
import type { Context } from "hono";
import { html } from "hono/html";
import type { HttpEnv } from "../http-env.ts";
import type { Fragment } from "./console-page.ts";
import type { ConsoleText } from "./console-text.ts";
import { checkFormToken } from "./form-token.ts";
import { errorSummary, fieldControl, postedFormValues, postedValues, type FormValue } from "./edit-form.ts";
import { postedForm } from "./posted-form.ts";
import { refusalText } from "./refusal-text.ts";

/*
 * An element's lifecycle in the console, through the API's lifecycle use cases: the transitions
 * the person may run from the current state as buttons, those a guard (hook m0) refuses with its
 * message, and the form of one transition with its parameters and comment.
 */

/** The lifecycle part of an element's page; nothing for an element without lifecycle. */
export async function lifecycleSection(platform: Platform, principal: Principal, initid: number, csrf: string | undefined, t: ConsoleText): Promise<Fragment> {
  let states;
  try {
    states = (await platform.lifecycle.listStates(principal, String(initid))).states;
  } catch (error) {
    if (isLineageError(error) && error.code === "CRUD0227") return html``;
    throw error;
  }
  // Transitions the person may not run are not offered; those a guard refuses say why.
  const offered = states.flatMap((state) => (state.transition?.authorized ? [{ state, transition: state.transition }] : []));
  const runnable = offered.filter(({ transition }) => transition.error === null);
  const refused = offered.filter(({ transition }) => transition.error !== null);
  if (offered.length === 0) return html``;
  return html`<section aria-labelledby="lifecycle"><h2 id="lifecycle">${t.lifecycle}</h2>
${runnable.length > 0 && csrf ? html`<ul class="actions plain">${runnable.map(({ state, transition }) => html`<li><form method="get" action="/console/elements/${initid}/transitions/${encodeURIComponent(transition.id)}" class="inline">
<button type="submit" aria-describedby="to-${state.id}">${transition.label}</button> <span id="to-${state.id}">${t.toState(state.displayValue)}</span></form></li>`)}</ul>` : ""}
${refused.length > 0 ? html`<ul>${refused.map(({ transition }) => html`<li class="refused"><strong>${transition.label}</strong>: <span class="guard">${transition.error}</span></li>`)}</ul>` : ""}
</section>`;
}

/** A transition's parameters described as fields, with their enumerates, in the person's locale. */
async function parametersOf(platform: Platform, principal: Principal, structureName: string, transitionId: string) {
  const definitions = await platform.structures.definitions();
  const lifecycleName = definitions.structure(structureName)?.lifecycle;
  const transition = lifecycleName ? definitions.lifecycle(lifecycleName)?.transitions.find((candidate) => candidate.id === transitionId) : undefined;
  const locale = principal.account.locale;
  const fields: Record<string, FieldDescription> = {};
  const enumerates = new Map<string, Enumerate>();
  (transition?.askAttributes ?? []).forEach((parameter, index) => {
    fields[parameter.id] = {
      id: parameter.id, label: translate(parameter.label ?? parameter.id, locale), type: parameter.type, logicalOrder: index + 1,
      multiple: parameter.multiple === true, options: { ...parameter.options }, needed: parameter.needed === true, visibility: "W",
      ...(parameter.enum ? { enum: parameter.enum } : {}),
    };
    const found = parameter.enum ? definitions.enumerate(parameter.enum) : undefined;
    if (found) enumerates.set(found.name, found);
  });
  return { fields, enumerates };
}

/** The parameter a refusal names (WFL0310 and WFL0311 name it first). */
function refusedParameter(error: LineageError): string | undefined {
  if (error.code !== "WFL0310" && error.code !== "WFL0311") return undefined;
  return /^Transition parameter "([^"]+)"/.exec(error.message)?.[1];
}

/**
 * GET: the form of one transition (its parameters, a comment); POST: runs it through the API's
 * use case and goes back to the element, or shows the form again with the refusal (a guard's
 * message, a parameter refused at its input) and what the person typed.
 */
export async function transitionPage(c: Context<HttpEnv>, platform: Platform, principal: Principal, t: ConsoleText, csrf: string | undefined) {
  const ref = c.req.param("docid") ?? "";
  const id = c.req.param("transition") ?? "";
  const { transition } = await platform.lifecycle.readTransition(principal, ref, id);
  const reading = await platform.elements.read(principal, ref, { fields: "document.properties.title" });
  const { initid } = reading.revision;
  const { fields, enumerates } = await parametersOf(platform, principal, reading.revision.structure, id);
  const title = t.runTransition(transition.label, reading.revision.title);
  const form = (values: Record<string, FormValue>, comment: string, refusal?: { field?: string; message: string }) => html`<p>${t.fromTo(transition.beginState.displayValue, transition.endState.displayValue)}</p>
<form method="post" action="/console/elements/${initid}/transitions/${encodeURIComponent(id)}" novalidate>
${refusal ? errorSummary(fields, refusal, new Set(Object.keys(fields)), t) : ""}
<input type="hidden" name="csrf" value="${csrf ?? ""}">
${Object.values(fields).map((field) => html`<div class="field">${fieldControl(field, { values, enumerates, locale: principal.account.locale, refusal })}</div>`)}
<div class="field"><label for="comment">${t.comment}${transition.askComment ? "" : html` <span class="hint">(${t.optional})</span>`}</label>
<textarea id="comment" name="comment" rows="3">${comment}</textarea></div>
<p class="actions"><button type="submit">${transition.label}</button> <a href="/console/elements/${initid}">${t.cancel}</a></p>
</form>`;
  if (c.req.method === "GET") {
    if (!csrf) return { title, body: html`<p role="alert" class="alert">${t.needSession}</p>` };
    // The form of a transition the element's page offers no button for is refused as running it would be.
    const offered = (await platform.lifecycle.listStates(principal, String(initid))).states.find((state) => state.transition?.id === id)?.transition;
    if (!offered?.authorized || offered.error !== null) {
      const why = offered?.authorized ? offered.error ?? "" : t.transitionRefused(transition.label);
      throw new LineageError("WFL0300", [why], { userMessage: why });
    }
    return { title, body: form({}, "") };
  }
  const posted = await postedForm(c);
  checkFormToken(csrf, posted.one("csrf"), t);
  const comment = posted.one("comment") ?? "";
  const parameters = postedValues(fields, posted, principal.account.locale);
  // An optional parameter left empty is not given at all, as a client of the API would leave it out.
  for (const [key, value] of Object.entries(parameters)) if (value === "" || (Array.isArray(value) && value.length === 0)) delete parameters[key];
  try {
    const ran = await platform.lifecycle.runTransition(principal, ref, id, { comment: comment === "" ? undefined : comment, parameters });
    return { redirect: `/console/elements/${initid}`, flash: { message: t.transitionDone(transition.label, ran.data.state.label) } };
  } catch (error) {
    if (!isLineageError(error) || error.status >= 500 || error.status === 404) throw error;
    const field = refusedParameter(error);
    const refusal = { ...(field ? { field } : {}), message: refusalText(error, principal.account.locale, (name) => fields[name]?.label) };
    return { title, status: error.status, body: form(postedFormValues(fields, posted), comment, refusal) };
  }
}
