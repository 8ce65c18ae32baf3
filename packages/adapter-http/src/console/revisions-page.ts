import type { DocumentView, FieldDescription, Platform, Principal, RenderedValue } from "@lineage/core";
import type { Context } from "hono";
import { html } from "hono/html";
import type { HttpEnv } from "../http-env.ts";
import { withoutSets } from "./field-groups.ts";
import type { ConsoleText } from "./console-text.ts";
import { fieldValue, localDate } from "./element-fields.ts";

/*
 * An element's revisions, through the API's revision use cases: the list, newest first, and two
 * of them side by side, the fields whose values differ marked (in words too, not by colour alone).
 */

const property = (document: DocumentView, name: string) => document.properties?.[name];
const stateText = (document: DocumentView) => (property(document, "state") as { displayValue?: string } | undefined)?.displayValue ?? "";

/** What two revisions' values are compared by: the stored values, not their addresses (a file's URL names its revision). */
function comparable(rendered: unknown): unknown {
  if (Array.isArray(rendered)) return rendered.map(comparable);
  if (typeof rendered === "object" && rendered !== null && "value" in rendered) return (rendered as { value: unknown }).value ?? null;
  return rendered ?? null;
}

/** The fields of a structure one after the other, the columns of arrays in their place (arrays hold no value of their own). */
function leafFields(structure: Readonly<Record<string, FieldDescription>>): FieldDescription[] {
  return Object.values(withoutSets(structure)).sort((a, b) => a.logicalOrder - b.logicalOrder)
    .flatMap((field) => (field.type === "array" ? leafFields(field.content ?? {}) : [field]));
}

/** The revisions page: the list, the form choosing two, and their comparison. */
export async function revisionsPage(c: Context<HttpEnv>, platform: Platform, principal: Principal, t: ConsoleText) {
  const ref = c.req.param("docid") ?? "";
  const reading = await platform.elements.read(principal, ref, { fields: "document.properties.title" });
  const { initid } = reading.revision;
  const listed = await platform.revisions.list(principal, String(initid), {
    slice: "all", fields: "document.properties.revision,document.properties.title,document.properties.mdate,document.properties.state",
  });
  const revisions = listed.data.revisions;
  const numbers = revisions.map((revision) => String(property(revision, "revision")));
  const pick = (name: string, fallback: string | undefined) => {
    const asked = c.req.query(name);
    return asked !== undefined && numbers.includes(asked) ? asked : fallback;
  };
  // By default, the latest revision against the one before it.
  const right = pick("b", numbers[0]);
  const left = pick("a", numbers[1] ?? numbers[0]);
  const title = t.revisionsOf(reading.revision.title);
  const onlyDifferences = c.req.query("only") === "differences";
  const choice = (name: string, label: string, chosen: string | undefined) => html`<label for="${name}">${label}</label>
<select id="${name}" name="${name}">${numbers.map((number) => html`<option value="${number}"${number === chosen ? html` selected` : ""}>${t.revision} ${number}</option>`)}</select>`;
  // A table wider than a phone scrolls in its box, which the keyboard reaches (its region named by its caption).
  const list = html`<div class="scroll" tabindex="0" role="region" aria-labelledby="revisions-caption"><table>
<caption id="revisions-caption">${t.revisionCount(revisions.length)}</caption>
<thead><tr><th scope="col">${t.revision}</th><th scope="col">${t.title}</th><th scope="col">${t.state}</th><th scope="col">${t.modified}</th></tr></thead>
<tbody>${revisions.map((revision) => html`<tr><td class="number">${String(property(revision, "revision"))}</td><td>${String(property(revision, "title") ?? "")}</td>
<td>${stateText(revision)}</td><td>${localDate(String(property(revision, "mdate") ?? ""), principal.account.locale)}</td></tr>`)}</tbody>
</table></div>
<form method="get" action="/console/elements/${initid}/revisions" class="compare"><fieldset><legend>${t.compare}</legend>
${choice("a", t.compareLeft, left)} ${choice("b", t.compareRight, right)}
<label class="choice"><input type="checkbox" name="only" value="differences"${onlyDifferences ? html` checked` : ""}> ${t.differencesOnly}</label>
<button type="submit">${t.compare}</button></fieldset></form>`;
  if (left === undefined || right === undefined) return { title, body: list };

  const fields = "document.properties.revision,document.properties.title,document.properties.state,document.properties.mdate,document.attributes";
  const [a, b] = await Promise.all([left, right].map((number) => platform.revisions.read(principal, String(initid), number, { fields })));
  const structure = (await platform.structures.read(principal, reading.revision.structure, { fields: "family.structure" })).data.family?.structure ?? {};
  const one = a!.data.revision;
  const other = b!.data.revision;
  const valueOf = (document: DocumentView, id: string) => document.attributes?.[id] as RenderedValue | undefined;
  const rows = [
    { label: t.state, left: html`${stateText(one)}`, right: html`${stateText(other)}`, differs: stateText(one) !== stateText(other) },
    ...leafFields(structure as Record<string, FieldDescription>).map((field) => ({
      label: field.label,
      left: fieldValue(field, valueOf(one, field.id), t),
      right: fieldValue(field, valueOf(other, field.id), t),
      differs: JSON.stringify(comparable(valueOf(one, field.id))) !== JSON.stringify(comparable(valueOf(other, field.id))),
    })),
  ];
  const differing = rows.filter((row) => row.differs).length;
  const comparison = html`<section aria-labelledby="comparison"><h2 id="comparison">${t.comparison(left, right)}</h2>
<p role="status">${t.differences(differing)}</p>
<div class="scroll" tabindex="0" role="region" aria-labelledby="comparison"><table class="comparison">
<thead><tr><th scope="col">${t.fields}</th><th scope="col">${t.revision} ${left}</th><th scope="col">${t.revision} ${right}</th></tr></thead>
<tbody>${rows.filter((row) => row.differs || !onlyDifferences).map((row) => html`<tr${row.differs ? html` class="differs"` : ""}><th scope="row">${row.label}${row.differs ? html` <span class="badge">${t.differs}</span>` : ""}</th>
<td>${row.left}</td><td>${row.right}</td></tr>`)}</tbody>
</table></div></section>`;
  return { title, body: html`<p><a href="/console/elements/${initid}">${t.backToElement}</a></p>${list}${comparison}` };
}
