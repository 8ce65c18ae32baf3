import { translate, type Lifecycle } from "@lineage/core";
import { html } from "hono/html";
import type { AdminText } from "./admin-text.ts";
import type { Fragment } from "./console-page.ts";

/*
 * A lifecycle drawn on the server as SVG, no script: the states as boxes in columns by how many
 * transitions they are from the first state, the transitions as curved arrows with their labels
 * (a transition and its way back curve to either side, so both stay readable). The picture has a
 * title and a description in words; the page also lists the transitions as a table.
 */

const BOX = { width: 150, height: 46 };
const GAP = { x: 90, y: 50 };
const MARGIN = 30;
/** How far a curve's middle leaves the straight line, so that A→B and B→A part. */
const BEND = 26;

interface Point {
  readonly x: number;
  readonly y: number;
}

/** Each state's column: transitions away from the first state (breadth first); states it never reaches go last. */
function columnsOf(lifecycle: Lifecycle): string[][] {
  const level = new Map<string, number>([[lifecycle.firstState, 0]]);
  const queue = [lifecycle.firstState];
  while (queue.length > 0) {
    const from = queue.shift()!;
    for (const transition of lifecycle.transitions) {
      if (transition.from !== from || level.has(transition.to)) continue;
      level.set(transition.to, level.get(from)! + 1);
      queue.push(transition.to);
    }
  }
  const last = Math.max(0, ...level.values());
  const columns: string[][] = [];
  for (const state of lifecycle.states) {
    const column = level.get(state.id) ?? last + 1;
    (columns[column] ??= []).push(state.id);
  }
  return columns.filter((column) => column !== undefined);
}

/** Where the line from a box's centre towards `toward` leaves the box. */
function edgeOf(centre: Point, toward: Point): Point {
  const dx = toward.x - centre.x;
  const dy = toward.y - centre.y;
  const scale = Math.min(dx === 0 ? Infinity : BOX.width / 2 / Math.abs(dx), dy === 0 ? Infinity : BOX.height / 2 / Math.abs(dy));
  return { x: centre.x + dx * scale, y: centre.y + dy * scale };
}

const round = (value: number) => Math.round(value * 10) / 10;
/** A colour of the definitions, or none: only hexadecimal colours reach the picture. */
const colourOf = (colour: string | undefined) => (colour && /^#[0-9a-fA-F]{3,8}$/.test(colour) ? colour : "#1f3b57");

/** The SVG diagram of a lifecycle, with its title and description in the person's words. */
export function lifecycleDiagram(lifecycle: Lifecycle, locale: string, a: AdminText): Fragment {
  const columns = columnsOf(lifecycle);
  const rows = Math.max(1, ...columns.map((column) => column.length));
  const width = MARGIN * 2 + columns.length * BOX.width + (columns.length - 1) * GAP.x;
  const height = MARGIN * 2 + rows * BOX.height + (rows - 1) * GAP.y;
  const centres = new Map<string, Point>();
  columns.forEach((column, x) => column.forEach((state, y) => {
    // Each column centred vertically.
    const top = (height - (column.length * BOX.height + (column.length - 1) * GAP.y)) / 2;
    centres.set(state, { x: MARGIN + x * (BOX.width + GAP.x) + BOX.width / 2, y: top + y * (BOX.height + GAP.y) + BOX.height / 2 });
  }));
  const stateLabel = (id: string) => {
    const state = lifecycle.states.find((candidate) => candidate.id === id);
    return state ? translate(state.label ?? state.id, locale) : id;
  };
  const title = translate(lifecycle.label ?? lifecycle.name, locale);
  const description = lifecycle.transitions
    .map((transition) => a.transitionLine(translate(transition.label ?? transition.id, locale), stateLabel(transition.from), stateLabel(transition.to))).join(". ");

  const arrows = lifecycle.transitions.flatMap((transition) => {
    const from = centres.get(transition.from);
    const to = centres.get(transition.to);
    if (!from || !to || transition.from === transition.to) return [];
    const length = Math.hypot(to.x - from.x, to.y - from.y) || 1;
    const normal = { x: -(to.y - from.y) / length, y: (to.x - from.x) / length };
    const control = { x: (from.x + to.x) / 2 + normal.x * BEND * 2, y: (from.y + to.y) / 2 + normal.y * BEND * 2 };
    const start = edgeOf(from, control);
    const end = edgeOf(to, control);
    const middle = { x: 0.25 * start.x + 0.5 * control.x + 0.25 * end.x, y: 0.25 * start.y + 0.5 * control.y + 0.25 * end.y };
    return [html`<g class="transition"><path d="M${round(start.x)},${round(start.y)} Q${round(control.x)},${round(control.y)} ${round(end.x)},${round(end.y)}" fill="none" stroke="#444" stroke-width="1.5" marker-end="url(#lifecycle-arrow)"/>
<text x="${round(middle.x)}" y="${round(middle.y)}" text-anchor="middle" dominant-baseline="middle" font-size="13" fill="#1d1d1f" stroke="#fafafa" stroke-width="4" paint-order="stroke">${translate(transition.label ?? transition.id, locale)}</text></g>`];
  });
  const boxes = lifecycle.states.flatMap((state) => {
    const centre = centres.get(state.id);
    if (!centre) return [];
    const first = state.id === lifecycle.firstState;
    return [html`<g class="state-box"><rect x="${round(centre.x - BOX.width / 2)}" y="${round(centre.y - BOX.height / 2)}" width="${BOX.width}" height="${BOX.height}" rx="8" fill="#fff" stroke="${colourOf(state.color)}" stroke-width="${first ? 4 : 2.5}"/>
<text x="${round(centre.x)}" y="${round(centre.y)}" text-anchor="middle" dominant-baseline="middle" font-size="14" font-weight="${first ? 700 : 400}" fill="#1d1d1f">${stateLabel(state.id)}</text></g>`];
  });
  return html`<div class="diagram"><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" role="img" aria-labelledby="lifecycle-title lifecycle-desc" style="max-width:100%;height:auto">
<title id="lifecycle-title">${title}</title>
<desc id="lifecycle-desc">${description}</desc>
<defs><marker id="lifecycle-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#444"/></marker></defs>
${arrows}${boxes}
</svg></div>`;
}
