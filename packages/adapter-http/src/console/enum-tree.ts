import { translate, type EnumItem, type Enumerate } from "@lineage/core";
import { html } from "hono/html";
import type { Fragment } from "./console-page.ts";

/*
 * A multiple enum field as checkboxes keeping the enumerate's tree: an item's children listed under
 * it, indented, each a checkbox of its own (choosing a child does not choose its parent, as the
 * values do not). Posted as `f_ID` once per checked box, as a multiple select would.
 */

interface Node {
  readonly item: EnumItem;
  readonly children: Node[];
}

/** The enumerate's items as a forest in definition order; an item whose parent is unknown (or a cycle) is a root. */
export function enumForest(enumerate: Enumerate): Node[] {
  const nodes = new Map(enumerate.items.map((item) => [item.key, { item, children: [] as Node[] }]));
  const roots: Node[] = [];
  for (const node of nodes.values()) {
    const parent = node.item.parentKey ? nodes.get(node.item.parentKey) : undefined;
    let ancestor = parent;
    // A parent chain that comes back to the item would hide it: it is shown as a root instead.
    for (let depth = 0; ancestor && depth < nodes.size; depth++) {
      if (ancestor === node) break;
      ancestor = ancestor.item.parentKey ? nodes.get(ancestor.item.parentKey) : undefined;
    }
    if (parent && ancestor !== node) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}

/** The checkboxes of a multiple enum field, in a group labelled by the field, nested as the enumerate's tree. */
export function enumCheckboxes(options: {
  readonly id: string;
  readonly label: string;
  readonly enumerate: Enumerate | undefined;
  readonly chosen: readonly string[];
  readonly locale: string;
  readonly mark: Fragment | string;
  readonly error: Fragment | string;
  readonly message: Fragment | string;
}): Fragment {
  const { id, chosen, locale } = options;
  const list = (nodes: readonly Node[]): Fragment => html`<ul class="tree">${nodes.map((node) => html`<li><label class="choice"><input type="checkbox" name="${id}" value="${node.item.key}"${
    chosen.includes(node.item.key) ? html` checked` : ""}> ${translate(node.item.label, locale)}</label>${node.children.length > 0 ? list(node.children) : ""}</li>`)}</ul>`;
  return html`<fieldset id="${id}" tabindex="-1" class="enum-tree"${options.error}><legend>${options.label}${options.mark}</legend>${list(options.enumerate ? enumForest(options.enumerate) : [])}</fieldset>${options.message}`;
}
