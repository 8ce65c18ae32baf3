import { visibilityOf } from "../structures/smart-field.ts";
import { flattenFields } from "../structures/smart-structure.ts";
import { renderFieldValue, type AttributeValue, type RenderedValue } from "../values/display-value.ts";
import type { ViewContext } from "./element-view.ts";
import { statusProperty, type ElementRevision } from "./smart-element.ts";

const escapeXml = (text: string) =>
  text.replace(/[<>&"']/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c] ?? c)
    // Characters XML 1.0 cannot carry at all.
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "");

function valueXml(tag: string, rendered: RenderedValue): string {
  if (!Array.isArray(rendered)) {
    const one = rendered as AttributeValue;
    return one.value === null ? `<${tag}/>` : `<${tag}>${escapeXml(String(one.value))}</${tag}>`;
  }
  return rendered.map((item) => valueXml(tag, item as RenderedValue)).join("");
}

/** The XML export of an element (`<docid>.xml`): properties as attributes, readable fields as children. */
export function renderElementXml(revision: ElementRevision, context: ViewContext): string {
  const structure = context.structure(revision.structure);
  const fields = structure ? flattenFields(structure).filter((f) => f.type !== "array" && visibilityOf(f) !== "I") : [];
  const attributes = [
    ["id", revision.id], ["initid", revision.initid], ["name", revision.name ?? ""], ["revision", revision.revision],
    ["status", statusProperty(revision)], ["title", revision.title], ["mdate", revision.modifiedAt],
  ].map(([key, value]) => `${key}="${escapeXml(String(value))}"`).join(" ");
  const body = fields.map((field) => valueXml(field.id, renderFieldValue(field, revision.values[field.id], context))).join("\n  ");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<${revision.structure} ${attributes}>\n  ${body}\n</${revision.structure}>\n`;
}
