import { translate, type ChangeValue, type Definitions, type ElementEvent, type FieldDescription, type Platform, type Principal } from "@lineage/core";
import { html } from "hono/html";
import type { Fragment } from "./console-page.ts";
import type { ConsoleText } from "./console-text.ts";
import { localDate } from "./element-fields.ts";

/*
 * An element's history from the event log: each change with the fields it changed, from what to
 * what, as the reader may see them (the log leaves out the fields they may not see, and passwords).
 */

/** The most events of one element the page reads. */
const MAX_EVENTS = 1000;

/** The element's events the person may see, oldest first. */
export async function elementEvents(platform: Platform, principal: Principal, initid: number): Promise<ElementEvent[]> {
  return (await platform.events.read(principal, { initid, slice: MAX_EVENTS })).events;
}

/** Every field of a structure description, array columns included, by id. */
function fieldsById(tree: Readonly<Record<string, FieldDescription>>): Map<string, FieldDescription> {
  const all = new Map<string, FieldDescription>();
  const walk = (level: Readonly<Record<string, FieldDescription>>) => {
    for (const field of Object.values(level)) {
      all.set(field.id, field);
      if (field.content) walk(field.content);
    }
  };
  walk(tree);
  return all;
}

/** A changed value as text: enumerate keys by their label, lists joined, nothing as a dash. */
function changeText(value: ChangeValue, field: FieldDescription | undefined, definitions: Definitions, locale: string): string {
  if (value === null || value === "") return "—";
  if (Array.isArray(value)) return value.length === 0 ? "—" : value.map((item) => changeText(item as ChangeValue, field, definitions, locale)).join(", ");
  if (field?.type === "enum" && field.enum) {
    const item = definitions.enumerate(field.enum)?.items.find((candidate) => candidate.key === value);
    if (item) return translate(item.label, locale);
  }
  if (field?.type === "htmltext") return String(value).replace(/<[^>]*>/g, "");
  return String(value);
}

/** "What changed": each event newest first, with a table of its changed fields (label, before, after). */
export function changesSection(events: readonly ElementEvent[], structure: Readonly<Record<string, FieldDescription>>, definitions: Definitions, t: ConsoleText, locale: string): Fragment {
  const fields = fieldsById(structure);
  const items = [...events].reverse().map((event) => {
    const changes = Object.entries(event.changes ?? {});
    const lifecycleName = definitions.structure(event.structure)?.lifecycle;
    const lifecycle = lifecycleName ? definitions.lifecycle(lifecycleName) : undefined;
    const stateLabel = (id: string) => {
      const state = lifecycle?.states.find((candidate) => candidate.id === id);
      return state ? translate(state.label ?? id, locale) : id;
    };
    const transition = event.transition ? html` (${stateLabel(event.transition.from)} → ${stateLabel(event.transition.to)})` : "";
    return html`<li>${localDate(event.time, locale)} · ${t.eventType(event.type, event.actor)}${transition} · ${t.revision} ${event.revision}
${changes.length === 0 ? "" : html`<div class="scroll" tabindex="0" role="region" aria-label="${t.whatChanged}"><table class="changes">
<thead><tr><th scope="col">${t.changeField}</th><th scope="col">${t.before}</th><th scope="col">${t.after}</th></tr></thead>
<tbody>${changes.map(([id, change]) => {
    const field = fields.get(id);
    return html`<tr><th scope="row">${field?.label ?? id}</th><td>${changeText(change.before, field, definitions, locale)}</td><td>${changeText(change.after, field, definitions, locale)}</td></tr>`;
  })}</tbody></table></div>`}</li>`;
  });
  return html`<section aria-labelledby="changes"><h2 id="changes">${t.whatChanged}</h2>
${items.length === 0 ? html`<p>${t.noChanges}</p>` : html`<ol class="timeline events">${items}</ol>`}</section>`;
}

/** The side panel's recent activity: the last five events in a line each. */
export function recentActivity(events: readonly ElementEvent[], t: ConsoleText, locale: string): Fragment {
  const last = events.slice(-5).reverse();
  return html`<section aria-labelledby="activity"><h2 id="activity">${t.recentActivity}</h2>
${last.length === 0 ? html`<p>${t.noChanges}</p>` : html`<ul class="plain">${last.map((event) => html`<li>${localDate(event.time, locale)}<br>${t.eventType(event.type, event.actor)}</li>`)}</ul>`}
</section>`;
}
