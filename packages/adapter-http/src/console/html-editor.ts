import type { FieldDescription } from "@lineage/core";
import { html } from "hono/html";
import type { Fragment } from "./console-page.ts";
import { sanitizedHtml } from "./element-fields.ts";
import type { FormText } from "./form-text.ts";

/*
 * The editor of an htmltext field: a text area of HTML (what the page shows without script), which
 * console.js turns into an editable area with a toolbar, writing its HTML back into the text area.
 * Either way the server keeps only what the console shows (sanitizedHtml) when the form is saved;
 * the text area starts from the same, so that the editor never holds what the page would not show.
 */

/** The text area of an htmltext field, with the toolbar's words for the script and the hint of what is kept. */
export function htmlEditor(field: FieldDescription, attributes: Fragment | string, value: string, text: FormText): Fragment {
  const words = JSON.stringify({
    toolbar: text.htmlToolbar(field.label), bold: text.bold, italic: text.italic, bullets: text.bulletList, numbers: text.numberedList,
    link: text.link, address: text.linkAddress, heading: text.heading, paragraph: text.paragraph, clear: text.removeFormat,
  });
  const hint = `f_${field.id}-html-hint`;
  // A refused field is described by its message already (an attribute given twice would be ignored).
  const describedBy = String(attributes).includes("aria-describedby") ? "" : html` aria-describedby="${hint}"`;
  return html`<textarea ${attributes} rows="8" data-html-editor="${words}"${describedBy}>${sanitizedHtml(value)}</textarea><p class="hint" id="${hint}">${text.htmlHint}</p>`;
}
