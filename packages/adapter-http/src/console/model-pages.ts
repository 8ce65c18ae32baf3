import { flattenFields, LineageError, translate, type Definitions, type Platform, type Principal, type SmartStructure } from "@lineage/core";
import type { Context } from "hono";
import { html } from "hono/html";
import type { HttpEnv } from "../http-env.ts";
import { adminNav, requireAdministrator } from "./admin-nav.ts";
import { adminText, type AdminText } from "./admin-text.ts";
import type { Fragment } from "./console-page.ts";
import type { ConsoleText } from "./console-text.ts";
import { lifecycleDiagram } from "./lifecycle-diagram.ts";

/*
 * The model, read-only, for administrators: the structures with their fields (type, visibility,
 * needed, multiple, and the ancestor each inherited field comes from), the lifecycles (states and
 * transitions as a diagram with a text alternative), and the profiles (who may do what). All of
 * it from the definitions the platform serves, in the person's language.
 */

const page = (title: string, body: Fragment) => ({ title, body, current: "admin" as const });

const structureLink = (name: string, definitions: Definitions, locale: string) => {
  const structure = definitions.structure(name);
  return structure ? html`<a href="/console/admin/model/structures/${encodeURIComponent(name)}">${translate(structure.title ?? name, locale)}</a>` : html`<code>${name}</code>`;
};
const lifecycleLink = (name: string | undefined, definitions: Definitions, locale: string, a: AdminText) => {
  if (!name) return a.none;
  const lifecycle = definitions.lifecycle(name);
  return lifecycle ? html`<a href="/console/admin/model/lifecycles/${encodeURIComponent(name)}">${translate(lifecycle.label ?? name, locale)}</a>` : html`<code>${name}</code>`;
};

/** Who a grant's entries name, in words; nobody but administrators when there is none. */
const grantees = (entries: readonly string[] | undefined, a: AdminText) => (entries && entries.length > 0 ? entries.map(a.grant).join(", ") : a.nobody);

/** GET /console/admin/model: the structures, lifecycles and profiles. */
export async function modelPage(platform: Platform, principal: Principal, t: ConsoleText) {
  requireAdministrator(principal);
  const a = adminText(principal.account.locale);
  const locale = principal.account.locale;
  const definitions = await platform.structures.definitions();
  const structures = [...definitions.structures()].sort((x, y) => x.name.localeCompare(y.name));
  const lifecycles = [...new Set(structures.flatMap((structure) => (structure.lifecycle ? [structure.lifecycle] : [])))].sort();
  const profiles = definitions.profiles();
  const body = html`${adminNav("model", t, a)}<p>${a.modelIntro}</p>
<section aria-labelledby="model-structures"><h2 id="model-structures">${t.structures}</h2><div class="scroll"><table>
<thead><tr><th scope="col">${t.structure}</th><th scope="col">${t.name}</th><th scope="col">${a.inherits}</th><th scope="col">${t.lifecycle}</th><th scope="col">${a.profile}</th><th scope="col">${t.fields}</th></tr></thead>
<tbody>${structures.map((structure) => html`<tr><td>${structureLink(structure.name, definitions, locale)}</td><td><code>${structure.name}</code></td>
<td>${structure.extends ? structureLink(structure.extends, definitions, locale) : a.noParent}</td><td>${lifecycleLink(structure.lifecycle, definitions, locale, a)}</td>
<td>${structure.profile ? html`<a href="#profile-${structure.profile}">${structure.profile}</a>` : a.none}</td><td class="number">${flattenFields(structure).length}</td></tr>`)}</tbody>
</table></div></section>
<section aria-labelledby="model-lifecycles"><h2 id="model-lifecycles">${a.lifecycles}</h2>
${lifecycles.length === 0 ? html`<p>${a.noLifecycle}</p>` : html`<ul>${lifecycles.map((name) => html`<li>${lifecycleLink(name, definitions, locale, a)} <code>${name}</code></li>`)}</ul>`}</section>
<section aria-labelledby="model-profiles"><h2 id="model-profiles">${a.profiles}</h2>
${profiles.length === 0 ? html`<p>${a.noProfiles}</p>` : profiles.map((profile) => html`<h3 id="profile-${profile.name}">${profile.name}</h3>
<p>${a.usedBy}: ${structures.filter((structure) => structure.profile === profile.name).map((structure, index) => html`${index > 0 ? ", " : ""}${structureLink(structure.name, definitions, locale)}`)}</p>
<div class="scroll" tabindex="0" role="region" aria-label="${a.profile} ${profile.name}"><table><caption class="visually-hidden">${a.profile} ${profile.name}</caption>
<thead><tr><th scope="col">${a.permission}</th><th scope="col">${a.grantedTo}</th></tr></thead>
<tbody>${(["view", "edit", "delete", "create"] as const).map((permission) => html`<tr><th scope="row">${a.permissionName(permission)}</th><td>${grantees(profile.grants[permission], a)}</td></tr>`)}</tbody>
</table></div>`)}</section>`;
  return page(a.model, body);
}

/** Where each field of a structure comes from: the farthest ancestor that has it, or the structure itself. */
function originsOf(structure: SmartStructure, definitions: Definitions): Map<string, string> {
  const origins = new Map<string, string>();
  // Ancestors are listed parent first: the root is looked at first.
  for (const ancestor of [...(structure.ancestors ?? [])].reverse()) {
    const found = definitions.structure(ancestor);
    if (!found) continue;
    for (const field of flattenFields(found)) if (!origins.has(field.id)) origins.set(field.id, ancestor);
  }
  return origins;
}

/** GET /console/admin/model/structures/NAME: its fields, each with where it comes from. */
export async function structureModelPage(c: Context<HttpEnv>, platform: Platform, principal: Principal, t: ConsoleText) {
  requireAdministrator(principal);
  const a = adminText(principal.account.locale);
  const locale = principal.account.locale;
  const definitions = await platform.structures.definitions();
  const name = c.req.param("structure") ?? "";
  const structure = definitions.structure(name);
  if (!structure) throw new LineageError("ROUTES0105", [name]);
  const origins = originsOf(structure, definitions);
  const fields = flattenFields(structure);
  const label = (id: string | undefined) => {
    const field = fields.find((candidate) => candidate.id === id);
    return field ? translate(field.label ?? field.id, locale) : id ?? "";
  };
  const chain = structure.ancestors ?? [];
  const body = html`${adminNav("model", t, a)}
<dl class="facts">
<dt>${t.name}</dt><dd><code>${structure.name}</code></dd>
<dt>${a.inherits}</dt><dd>${chain.length === 0 ? a.noParent : chain.map((ancestor, index) => html`${index > 0 ? " → " : ""}${structureLink(ancestor, definitions, locale)}`)}</dd>
<dt>${t.lifecycle}</dt><dd>${lifecycleLink(structure.lifecycle, definitions, locale, a)}</dd>
<dt>${a.profile}</dt><dd>${structure.profile ? html`<a href="/console/admin/model#profile-${structure.profile}">${structure.profile}</a>` : a.none}</dd>
<dt>${t.title}</dt><dd>${(structure.titleFields ?? (structure.titleField ? [structure.titleField] : [])).map(label).join(" + ") || a.none}</dd>
</dl>
<section aria-labelledby="model-fields"><h2 id="model-fields">${t.fields}</h2><div class="scroll" tabindex="0" role="region" aria-labelledby="model-fields"><table>
<thead><tr><th scope="col">${a.field}</th><th scope="col">${a.id}</th><th scope="col">${a.type}</th><th scope="col">${a.visibility}</th><th scope="col">${a.needed}</th><th scope="col">${a.multiple}</th><th scope="col">${a.from}</th></tr></thead>
<tbody>${fields.map((field) => {
    const origin = origins.get(field.id);
    return html`<tr><th scope="row">${translate(field.label ?? field.id, locale)}${field.arrayId ? html` <span class="hint">(${a.inside(label(field.arrayId))})</span>` : ""}</th>
<td><code>${field.id}</code></td><td>${a.typeName(field.type)}${field.enum ? html` <code>${field.enum}</code>` : ""}${field.structure ? html` → ${structureLink(field.structure, definitions, locale)}` : ""}</td>
<td>${a.visibilityName(field.visibility ?? "W")}</td><td>${field.needed ? t.yes : t.no}</td><td>${field.multiple ? t.yes : t.no}</td>
<td>${origin ? structureLink(origin, definitions, locale) : a.thisStructure}</td></tr>`;
  })}</tbody>
</table></div></section>`;
  return page(a.structureTitle(translate(structure.title ?? structure.name, locale)), body);
}

/** GET /console/admin/model/lifecycles/NAME: its states and transitions, drawn and as text. */
export async function lifecycleModelPage(c: Context<HttpEnv>, platform: Platform, principal: Principal, t: ConsoleText) {
  requireAdministrator(principal);
  const a = adminText(principal.account.locale);
  const locale = principal.account.locale;
  const definitions = await platform.structures.definitions();
  const name = c.req.param("lifecycle") ?? "";
  const lifecycle = definitions.lifecycle(name);
  if (!lifecycle) throw new LineageError("API0004", [c.req.path], { userMessage: a.noSuchLifecycle });
  const stateLabel = (id: string) => {
    const state = lifecycle.states.find((candidate) => candidate.id === id);
    return state ? translate(state.label ?? state.id, locale) : id;
  };
  const users = definitions.structures().filter((structure) => structure.lifecycle === name);
  const body = html`${adminNav("model", t, a)}
<p>${a.usedBy}: ${users.length === 0 ? a.none : users.map((structure, index) => html`${index > 0 ? ", " : ""}${structureLink(structure.name, definitions, locale)}`)}</p>
<section aria-labelledby="model-diagram"><h2 id="model-diagram">${a.diagram}</h2>
${lifecycleDiagram(lifecycle, locale, a)}</section>
<section aria-labelledby="model-states"><h2 id="model-states">${a.states}</h2><ul class="plain">
${lifecycle.states.map((state) => html`<li><span class="state" style="background:${/^#[0-9a-fA-F]{3,8}$/.test(state.color ?? "") ? state.color : "#ffffff"}" aria-hidden="true"></span>${stateLabel(state.id)} <code>${state.id}</code>${state.id === lifecycle.firstState ? html` <span class="badge">${a.initialState}</span>` : ""}${state.activity ? html` <span class="hint">(${translate(state.activity, locale)})</span>` : ""}</li>`)}
</ul></section>
<section aria-labelledby="model-transitions"><h2 id="model-transitions">${a.diagramText}</h2><div class="scroll" tabindex="0" role="region" aria-labelledby="model-transitions"><table>
<thead><tr><th scope="col">${a.transitions}</th><th scope="col">${a.fromState}</th><th scope="col">${a.toState}</th><th scope="col">${a.grantedTo}</th><th scope="col">${a.asks}</th></tr></thead>
<tbody>${lifecycle.transitions.map((transition) => html`<tr><th scope="row">${translate(transition.label ?? transition.id, locale)} <code>${transition.id}</code></th>
<td>${stateLabel(transition.from)}</td><td>${stateLabel(transition.to)}</td><td>${grantees(transition.grants, a)}</td>
<td>${[...(transition.askComment ? [t.comment] : []), ...(transition.askAttributes ?? []).map((parameter) => translate(parameter.label ?? parameter.id, locale))].join(", ") || a.none}</td></tr>`)}</tbody>
</table></div></section>`;
  return page(a.lifecycleTitle(translate(lifecycle.label ?? lifecycle.name, locale)), body);
}
