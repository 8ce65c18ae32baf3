import type { FieldDescription } from "@lineage/core";
import { html } from "hono/html";
import type { Fragment } from "./console-page.ts";
import type { ConsoleText } from "./console-text.ts";

/*
 * The structure's frames and tabs in the console's pages: a frame is a group of fields (a fieldset
 * with its legend in forms, a section with its heading on pages), a tab a section of its own. All
 * tabs are shown one after the other, with a list of links to each at the top: they work without
 * any script.
 */

const isSet = (node: FieldDescription) => node.type === "frame" || node.type === "tab";
const inOrder = (tree: Readonly<Record<string, FieldDescription>>) => Object.values(tree).sort((a, b) => a.logicalOrder - b.logicalOrder);

/** The structure's fields by id with frames and tabs taken away (arrays keep their columns), in order. */
export function withoutSets(tree: Readonly<Record<string, FieldDescription>>): Record<string, FieldDescription> {
  const flat: Record<string, FieldDescription> = {};
  const visit = (nodes: Readonly<Record<string, FieldDescription>>) => {
    for (const node of inOrder(nodes)) {
      if (isSet(node)) visit(node.content ?? {});
      else flat[node.id] = node;
    }
  };
  visit(tree);
  return flat;
}

/**
 * The fields of a structure in their groups: `render` draws a list of fields (those it is given
 * may be fewer: it draws those it shows). A frame or tab with nothing to show is left out; one of
 * visibility H too, as its fields are.
 */
export function groupedFields(
  tree: Readonly<Record<string, FieldDescription>>, render: (fields: FieldDescription[]) => Fragment | undefined, kind: "form" | "page", t: ConsoleText,
  headingLevel = 2,
): Fragment {
  const top = inOrder(tree);
  const drawn = (fields: FieldDescription[]) => (fields.length === 0 ? undefined : render(fields));
  const frame = (node: FieldDescription, level: number): Fragment | undefined => {
    const inside = drawn(inOrder(node.content ?? {}).filter((field) => !isSet(field)));
    if (!inside || node.visibility === "H") return undefined;
    const id = `set-${node.id}`;
    return kind === "form"
      ? html`<fieldset class="frame" id="${id}"><legend>${node.label}</legend>${inside}</fieldset>`
      : html`<section class="frame" id="${id}" aria-labelledby="${id}-label">${heading(level, `${id}-label`, node.label)}${inside}</section>`;
  };
  const tab = (node: FieldDescription): Fragment | undefined => {
    if (node.visibility === "H") return undefined;
    const frames = inOrder(node.content ?? {}).filter(isSet).map((inner) => frame(inner, headingLevel + 1)).filter((part) => part !== undefined);
    if (frames.length === 0) return undefined;
    const id = `set-${node.id}`;
    return html`<section class="tab" id="${id}" aria-labelledby="${id}-label">${heading(headingLevel, `${id}-label`, node.label)}${frames}</section>`;
  };
  const loose = drawn(top.filter((node) => !isSet(node)));
  const parts = top.filter(isSet).map((node) => ({ node, part: node.type === "tab" ? tab(node) : frame(node, headingLevel) }))
    .filter((entry): entry is { node: FieldDescription; part: Fragment } => entry.part !== undefined);
  const tabs = parts.filter((entry) => entry.node.type === "tab");
  const list = tabs.length === 0 ? "" : html`<nav class="tab-list" aria-label="${t.tabs}"><ul>${tabs.map(({ node }) => html`<li><a href="#set-${node.id}">${node.label}</a></li>`)}</ul></nav>`;
  return html`${loose ?? ""}${list}${parts.map((entry) => entry.part)}`;
}

function heading(level: number, id: string, label: string): Fragment {
  const tag = `h${Math.min(6, level)}`;
  return html`<${tag} id="${id}">${label}</${tag}>`;
}
