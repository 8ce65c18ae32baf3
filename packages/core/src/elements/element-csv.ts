import { translate } from "../i18n/label.ts";
import { visibilityOf, type ResolvedField } from "../structures/smart-field.ts";
import { flattenFields } from "../structures/smart-structure.ts";
import { docidOf } from "./element-reference.ts";
import type { ViewContext } from "./element-view.ts";
import type { ElementRevision, FieldValue } from "./smart-element.ts";

/*
 * The CSV export of an element (`<docid>.csv`), as the original gives one: its import format,
 * three lines separated by `;` with `"` around a cell that needs it. `//FAM` names the structure
 * (title and name) and labels the columns, `ORDER` gives the field ids in that order, `DOC` the
 * element's name and its values. Columns are every field but arrays, files and images (an array's
 * columns are fields too: their rows one per line in the cell); a list's items are one per line,
 * and a list in a row has its items joined by `<BR>`.
 */

/** Where the original's CSV joins the items of a list held in one row of an array. */
const ROW_ITEMS = "<BR>";

/** One cell as fputcsv writes it: quoted when it holds the separator, a quote, a space or a line break. */
function csvCell(text: string): string {
  return /[;"\s]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const csvLine = (cells: readonly string[]) => cells.map(csvCell).join(";");

/** The fields the CSV has a column for, in the structure's order. */
function exportedFields(fields: readonly ResolvedField[]): ResolvedField[] {
  return fields.filter((field) => field.type !== "array" && field.type !== "file" && field.type !== "image");
}

class ElementCsvWriter {
  constructor(private readonly context: ViewContext) {}

  item(field: ResolvedField, value: FieldValue): string {
    if (value === null || typeof value === "object") return "";
    if (field.type === "docid") {
      const id = docidOf(value);
      const target = id === undefined ? undefined : this.context.element(id);
      // A target the reader may not view is not named.
      if (!target || !this.context.canView(target)) return "";
      return target.name ?? String(target.initid);
    }
    return String(value);
  }

  items(field: ResolvedField, value: FieldValue | undefined, separator: string): string {
    if (!field.multiple) return this.item(field, value ?? null);
    return (Array.isArray(value) ? value : []).map((item) => this.item(field, item)).join(separator);
  }

  cell(field: ResolvedField, value: FieldValue | undefined): string {
    // What the reader may not see, and passwords, are never written (the original would write them).
    if (visibilityOf(field) === "I" || field.type === "password") return "";
    if (field.arrayId === undefined) return this.items(field, value, "\n");
    return (Array.isArray(value) ? value : []).map((row) => this.items(field, row, ROW_ITEMS)).join("\n");
  }
}

/** The CSV export of an element (`<docid>.csv`), in the original's import format. */
export function renderElementCsv(revision: ElementRevision, context: ViewContext): string {
  const structure = context.structure(revision.structure);
  const fields = exportedFields(structure ? flattenFields(structure) : []);
  const writer = new ElementCsvWriter(context);
  const title = translate(structure?.title ?? revision.structure, context.locale);
  return [
    csvLine(["//FAM", `${title}(${revision.structure})`, "<specid>", "<fldid>", ...fields.map((field) => translate(field.label ?? field.id, context.locale))]),
    csvLine(["ORDER", revision.structure, "", "", ...fields.map((field) => field.id)]),
    csvLine(["DOC", revision.structure, revision.name ?? "", "", ...fields.map((field) => writer.cell(field, revision.values[field.id]))]),
  ].map((line) => `${line}\n`).join("");
}
