import { displayDate, isLineageError, translate, type ChangeValue, type Definitions, type ElementEvent, type FieldDescription, type Platform, type Principal } from "@lineage/core";
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

/** The most related elements whose titles the changes name; beyond, their ids. */
const MAX_TITLES = 200;

/**
 * The titles of the elements the changes' relation fields name, by id, as the person may see them
 * (one they may not view keeps its id): a change names its relation by id, the page by title.
 */
export async function relationTitles(platform: Platform, principal: Principal, events: readonly ElementEvent[], structure: Readonly<Record<string, FieldDescription>>): Promise<Map<string, string>> {
  const fields = fieldsById(structure);
  const ids = new Set<string>();
  const collect = (value: ChangeValue) => {
    if (Array.isArray(value)) for (const item of value) collect(item as ChangeValue);
    else if (value !== null && value !== "") ids.add(String(value));
  };
  for (const event of events) {
    for (const [id, change] of Object.entries(event.changes ?? {})) {
      if (fields.get(id)?.type !== "docid") continue;
      collect(change.before);
      collect(change.after);
    }
  }
  const titles = new Map<string, string>();
  await Promise.all([...ids].slice(0, MAX_TITLES).map(async (id) => {
    try {
      titles.set(id, (await platform.elements.read(principal, id, { fields: "document.properties.title" })).revision.title);
    } catch (error) {
      if (!isLineageError(error)) throw error;
    }
  }));
  return titles;
}

/** How the changes' values read: the person's locale, separator of decimals and the titles of related elements. */
export interface ChangeReading {
  readonly definitions: Definitions;
  readonly locale: string;
  readonly decimalSeparator: string;
  readonly titles: ReadonlyMap<string, string>;
}

/**
 * A changed value as text, as the element's page shows it: enumerate keys by their label, a relation
 * by its element's title, dates and decimals in the person's way, a file by its name, lists joined,
 * nothing as a dash.
 */
function changeText(value: ChangeValue, field: FieldDescription | undefined, reading: ChangeReading): Fragment | string {
  if (value === null || value === "") return "—";
  if (Array.isArray(value)) {
    if (value.length === 0) return "—";
    return html`${value.map((item, i) => html`${i > 0 ? ", " : ""}${changeText(item as ChangeValue, field, reading)}`)}`;
  }
  const text = String(value);
  switch (field?.type) {
    case "enum": {
      const item = field.enum ? reading.definitions.enumerate(field.enum)?.items.find((candidate) => candidate.key === value) : undefined;
      return item ? translate(item.label, reading.locale) : text;
    }
    case "htmltext": return text.replace(/<[^>]*>/g, "");
    case "docid": return reading.titles.get(text) ?? `#${text}`;
    // A day as the element's own values show it (a value that is not one, as it is).
    case "date": return /^\d{4}-\d{2}-\d{2}$/.test(text) ? displayDate(text, reading.locale.toLowerCase()) : text;
    case "timestamp": return localDate(/[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text}Z`, reading.locale);
    case "double":
    case "money": return /^-?\d+\.\d+$/.test(text) ? text.replace(".", reading.decimalSeparator) : text;
    // A stored file is "mime|vault id|name": its name.
    case "file":
    case "image": return text.split("|").at(-1) ?? text;
    default: return text;
  }
}

/** "What changed": each event newest first, with a table of its changed fields (label, before, after). */
export function changesSection(events: readonly ElementEvent[], structure: Readonly<Record<string, FieldDescription>>, reading: ChangeReading, t: ConsoleText): Fragment {
  const { definitions, locale } = reading;
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
    return html`<tr><th scope="row">${field?.label ?? id}</th><td>${changeText(change.before, field, reading)}</td><td>${changeText(change.after, field, reading)}</td></tr>`;
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
