import { EVENT_TYPES, isLineageError, LineageError, type CreatedWebhook, type Platform, type Principal } from "@lineage/core";
import type { Context } from "hono";
import { html } from "hono/html";
import type { HttpEnv } from "../http-env.ts";
import { adminNav, requireAdministrator } from "./admin-nav.ts";
import { adminText, type AdminText } from "./admin-text.ts";
import type { Fragment } from "./console-page.ts";
import type { ConsoleText } from "./console-text.ts";
import { checkFormToken } from "./form-token.ts";
import { postedForm } from "./posted-form.ts";

/*
 * The webhooks' administration page, through the webhooks façade (the admin routes' use cases):
 * every webhook with its status and latest delivery, a form that registers one (its signing secret
 * shown once on the page that answers), each webhook's deliveries with their attempts and errors,
 * and a button that sends a delivery again now.
 */

const page = (title: string, body: Fragment, status?: number) => ({ title, body, current: "admin" as const, ...(status ? { status } : {}) });

/** A time as the person reads it: date and minutes, UTC. */
const when = (iso: string | null, a: AdminText) => (iso === null ? a.none : `${iso.slice(0, 16).replace("T", " ")} UTC`);

/** What the webhook form was given, kept when it is refused. */
interface WebhookValues {
  readonly url: string;
  readonly types: readonly string[];
  readonly structures: readonly string[];
  readonly description: string;
}

/** The refused field, and the person's words for what the core refused (WEBHOOK0400 names its key first). */
function refusalOf(error: unknown, a: AdminText): { field: string; message: string } | undefined {
  if (!isLineageError(error) || error.code !== "WEBHOOK0400") return undefined;
  const why = error.message.replace(/^Invalid webhook: /, "");
  const field = why.startsWith("types") ? "types" : why.startsWith("structures") ? "structures" : why.startsWith("description") ? "description" : "url";
  const words: Record<string, string> = { url: a.urlRefused, types: a.unknownType, structures: a.unknownStructure, description: a.descriptionTooLong };
  if (field === "url" && /cannot be resolved/.test(why)) return { field, message: a.hostUnresolved };
  if (field === "url" && /resolves to/.test(why)) return { field, message: a.privateNetwork };
  return { field, message: words[field]! };
}

/** GET /console/admin/webhooks (and the page a creation answers, with the secret once, or the refused form). */
export async function webhooksPage(platform: Platform, principal: Principal, t: ConsoleText, csrf: string | undefined,
  answer?: { created?: CreatedWebhook; refused?: { values: WebhookValues; field: string; message: string } }) {
  requireAdministrator(principal);
  const a = adminText(principal.account.locale);
  const webhooks = await platform.webhooks.list(principal);
  const structures = await platform.structures.list(principal);
  const hidden = html`<input type="hidden" name="csrf" value="${csrf ?? ""}">`;
  const created = answer?.created;
  const secret = created ? html`<div class="secret" role="status"><p><strong>${a.webhookCreated}</strong> <code>${created.url}</code></p>
<p><label for="webhook-secret">${a.signingSecret}</label> <input id="webhook-secret" readonly value="${created.secret}" size="44"></p><p>${a.webhookSecretOnce}</p></div>` : "";
  const list = webhooks.length === 0 ? html`<p>${a.noWebhooks}</p>` : html`<div class="scroll"><table>
<thead><tr><th scope="col">${a.url}</th><th scope="col">${a.eventTypes}</th><th scope="col">${t.structures}</th><th scope="col">${a.status}</th><th scope="col">${a.lastDelivery}</th><th scope="col">${t.actions}</th></tr></thead>
<tbody>${webhooks.map((webhook) => html`<tr><td><a href="/console/admin/webhooks/${encodeURIComponent(webhook.id)}">${webhook.url}</a>${webhook.description ? html`<span class="hint"> ${webhook.description}</span>` : ""}</td>
<td>${webhook.types.length === 0 ? a.everyType : webhook.types.join(", ")}</td><td>${webhook.structures.length === 0 ? a.everyStructure : webhook.structures.join(", ")}</td>
<td>${a.webhookStatus(webhook.status)}</td>
<td>${webhook.lastDelivery ? html`${a.deliveryStatus(webhook.lastDelivery.status)}, ${when(webhook.lastDelivery.updatedAt, a)}` : a.none}</td>
<td><a href="/console/admin/webhooks/${encodeURIComponent(webhook.id)}/remove" aria-label="${a.removeWebhook(webhook.url)}">${a.remove}</a></td></tr>`)}</tbody>
</table></div>`;
  const refused = answer?.refused;
  const values = refused?.values ?? { url: "", types: [], structures: [], description: "" };
  const invalid = (field: string) => (refused?.field === field ? html` aria-invalid="true" aria-describedby="webhook-${field}-error"` : "");
  const refusalAt = (field: string) => (refused?.field === field ? html`<p id="webhook-${field}-error" class="guard">${refused.message}</p>` : "");
  const labels: Record<string, string> = { url: a.url, types: a.eventTypes, structures: t.structures, description: t.description };
  const form = csrf ? html`<form method="post" action="/console/admin/webhooks" novalidate><fieldset><legend>${a.newWebhook}</legend>${hidden}
${refused ? html`<div role="alert" class="alert summary"><p>${a.webhookRefused}</p><ul><li><a href="#webhook-${refused.field}">${labels[refused.field]}</a>${a.colon}${refused.message}</li></ul></div>` : ""}
<div class="field"><label for="webhook-url">${a.url}</label><input id="webhook-url" name="url" type="url" value="${values.url}" required maxlength="2048"${invalid("url")}>
<p class="hint">${a.urlHint}</p>${refusalAt("url")}</div>
<fieldset id="webhook-types" class="field"${invalid("types")}><legend>${a.eventTypes}</legend><p class="hint">${a.eventTypesHint}</p>
${EVENT_TYPES.map((type) => html`<label class="choice"><input type="checkbox" name="types" value="${type}"${values.types.includes(type) ? html` checked` : ""}> ${a.eventName(type)} <code>${type}</code></label>`)}
${refusalAt("types")}</fieldset>
<fieldset id="webhook-structures" class="field"${invalid("structures")}><legend>${t.structures}</legend><p class="hint">${a.structuresHint}</p>
${structures.map((structure) => html`<label class="choice"><input type="checkbox" name="structures" value="${structure.name}"${values.structures.includes(structure.name) ? html` checked` : ""}> ${structure.title}</label>`)}
${refusalAt("structures")}</fieldset>
<div class="field"><label for="webhook-description">${t.description}</label><input id="webhook-description" name="description" maxlength="1000" value="${values.description}"${invalid("description")}>${refusalAt("description")}</div>
<button type="submit">${a.createWebhook}</button></fieldset></form>` : html`<p role="alert" class="alert">${t.needSession}</p>`;
  return page(a.webhooks, html`${adminNav("webhooks", t, a)}${secret}${list}${form}`, created ? 201 : refused ? 400 : undefined);
}

/** POST /console/admin/webhooks: registers the webhook, and answers the page with its secret, this once. */
export async function createWebhookPage(c: Context<HttpEnv>, platform: Platform, principal: Principal, t: ConsoleText, csrf: string | undefined) {
  requireAdministrator(principal);
  const form = await postedForm(c);
  checkFormToken(csrf, form.one("csrf"), t);
  const values: WebhookValues = {
    url: (form.one("url") ?? "").trim(), types: form.all("types"), structures: form.all("structures"), description: form.one("description") ?? "",
  };
  try {
    const created = await platform.webhooks.create(principal, values);
    return await webhooksPage(platform, principal, t, csrf, { created });
  } catch (error) {
    const refusal = refusalOf(error, adminText(principal.account.locale));
    if (!refusal) throw error;
    return webhooksPage(platform, principal, t, csrf, { refused: { values, ...refusal } });
  }
}

/** A refusal of an unknown webhook or delivery, in the person's words (404). */
async function orNotFound<T>(run: () => Promise<T>, a: AdminText): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (isLineageError(error) && error.code === "WEBHOOK0404") throw new LineageError("WEBHOOK0404", [error.message], { userMessage: a.noSuchWebhook });
    throw error;
  }
}

/** GET /console/admin/webhooks/ID: its recent deliveries, newest first, each with its attempts and errors, and a retry button. */
export async function webhookPage(c: Context<HttpEnv>, platform: Platform, principal: Principal, t: ConsoleText, csrf: string | undefined) {
  requireAdministrator(principal);
  const a = adminText(principal.account.locale);
  const id = c.req.param("webhook") ?? "";
  const deliveries = await orNotFound(() => platform.webhooks.deliveries(principal, id), a);
  const webhook = (await platform.webhooks.list(principal)).find((candidate) => candidate.id === id);
  const url = webhook?.url ?? id;
  const base = `/console/admin/webhooks/${encodeURIComponent(id)}`;
  const body = deliveries.length === 0 ? html`<p>${a.noDeliveries}</p>` : html`<ol class="plain deliveries">${deliveries.map((delivery) => html`<li>
<section aria-labelledby="delivery-${delivery.id}"><h2 id="delivery-${delivery.id}">${a.eventName(delivery.type)} · ${a.deliveryStatus(delivery.status)}</h2>
<p><code>${delivery.id}</code> · ${a.event} ${delivery.seq} · ${a.attempts}: ${delivery.attempts}${delivery.nextAttemptAt ? html` · ${a.nextAttempt}: ${when(delivery.nextAttemptAt, a)}` : ""}</p>
${delivery.attemptLog.length === 0 ? "" : html`<div class="scroll" tabindex="0" role="region" aria-label="${a.attempts}: ${delivery.id}"><table>
<caption class="visually-hidden">${a.attempts}: ${delivery.id}</caption>
<thead><tr><th scope="col">${a.attempt}</th><th scope="col">${a.started}</th><th scope="col">${a.node}</th><th scope="col">${a.answer}</th><th scope="col">${a.errorText}</th></tr></thead>
<tbody>${delivery.attemptLog.map((attempt) => html`<tr><td class="number">${attempt.attempt}</td><td>${when(attempt.startedAt, a)}</td><td>${attempt.node}</td>
<td>${attempt.statusCode ?? a.none}</td><td>${attempt.error ?? a.none}</td></tr>`)}</tbody></table></div>`}
${csrf && delivery.status !== "delivered" ? html`<form method="post" action="${base}/deliveries/${encodeURIComponent(delivery.id)}/retry">
<input type="hidden" name="csrf" value="${csrf}"><button type="submit" aria-label="${a.retryLabel(delivery.id)}">${a.retry}</button></form>` : ""}
</section></li>`)}</ol>`;
  return page(a.deliveriesOf(url), html`${adminNav("webhooks", t, a)}<p><a href="/console/admin/webhooks">${a.backToWebhooks}</a></p>${body}`);
}

/** POST /console/admin/webhooks/ID/deliveries/DELIVERY/retry: due again now; back to the deliveries. */
export async function retryDeliveryPage(c: Context<HttpEnv>, platform: Platform, principal: Principal, t: ConsoleText, csrf: string | undefined) {
  requireAdministrator(principal);
  const a = adminText(principal.account.locale);
  checkFormToken(csrf, (await postedForm(c)).one("csrf"), t);
  const id = c.req.param("webhook") ?? "";
  await orNotFound(() => platform.webhooks.retry(principal, id, c.req.param("delivery") ?? ""), a);
  return { redirect: `/console/admin/webhooks/${encodeURIComponent(id)}`, flash: { message: a.retried } };
}

/** GET /console/admin/webhooks/ID/remove asks first (a page of its own: no script needed); POST removes the webhook with its deliveries. */
export async function removeWebhookPage(c: Context<HttpEnv>, platform: Platform, principal: Principal, t: ConsoleText, csrf: string | undefined) {
  requireAdministrator(principal);
  const a = adminText(principal.account.locale);
  if (c.req.method === "GET") {
    const id = c.req.param("webhook") ?? "";
    const webhook = (await platform.webhooks.list(principal)).find((candidate) => candidate.id === id);
    if (!webhook) throw new LineageError("WEBHOOK0404", [`webhook "${id}"`], { userMessage: a.noSuchWebhook });
    const title = `${a.removeWebhook(webhook.url)}${a.questionMark}`;
    if (!csrf) return page(title, html`<p role="alert" class="alert">${t.needSession}</p>`);
    return page(title, html`${adminNav("webhooks", t, a)}<p>${a.removeQuestion}</p>
<form method="post" action="/console/admin/webhooks/${encodeURIComponent(id)}/remove" class="actions"><input type="hidden" name="csrf" value="${csrf}">
<button type="submit" class="danger">${a.remove}</button> <a href="/console/admin/webhooks">${t.cancel}</a></form>`);
  }
  checkFormToken(csrf, (await postedForm(c)).one("csrf"), t);
  await orNotFound(() => platform.webhooks.remove(principal, c.req.param("webhook") ?? ""), a);
  return { redirect: "/console/admin/webhooks", flash: { message: a.webhookRemoved } };
}
