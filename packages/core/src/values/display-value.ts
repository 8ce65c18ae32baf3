import { enumAncestry, findEnumItem } from "../catalog/enumerate.ts";
import type { ElementRevision, FieldValue } from "../element/smart-element.ts";
import { translate } from "../i18n/label.ts";
import type { ResolvedField } from "../structure/smart-field.ts";
import { parseFileValue } from "./file-value.ts";
import { docidOf } from "../elements/read-scope.ts";
import type { ValueContext } from "./value-context.ts";

/** What a read needs beyond lookups: the reader's locale and view right. */
export interface ReadContext extends ValueContext {
  readonly locale: string;
  canView(element: ElementRevision): boolean;
}

/** A field value as served: the stored value and its text for a person. */
export interface AttributeValue {
  value: string | number | null;
  displayValue: string | null;
  [extra: string]: unknown;
}

export type RenderedValue = AttributeValue | AttributeValue[] | AttributeValue[][];


function displayDate(value: string, locale: string): string {
  const [y, m, d] = value.split("-");
  return locale.startsWith("fr") ? `${d}/${m}/${y}` : value;
}

function displayTimestamp(value: string, locale: string): string {
  const [date = "", time = ""] = value.split("T");
  return `${displayDate(date, locale)} ${time.slice(0, 5)}`;
}

function displayNumber(value: number, locale: string): string {
  return locale.startsWith("fr") ? String(value).replace(".", ",") : String(value);
}

/** Where the original of a recorded (vault) image is served. */
export function recordedImageUri(vaultId: number, name: string): string {
  const extension = /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase();
  return `/api/v2/images/recorded/original/${vaultId}${extension ? `.${extension}` : ""}`;
}

function renderScalar(field: ResolvedField, value: FieldValue, context: ReadContext): AttributeValue {
  if (value === null || typeof value === "object") return { value: null, displayValue: null };
  switch (field.type) {
    case "int":
    case "double":
      return { value, displayValue: typeof value === "number" ? displayNumber(value, context.locale) : String(value) };
    case "date":
      return { value, displayValue: displayDate(String(value), context.locale) };
    case "timestamp":
      return { value, displayValue: displayTimestamp(String(value), context.locale) };
    case "enum": {
      const enumerate = field.enum ? context.enumerate(field.enum) : undefined;
      const found = enumerate ? findEnumItem(enumerate, String(value)) : undefined;
      if (!enumerate || !found) return { value, displayValue: String(value) };
      const rendered: AttributeValue = { value, displayValue: translate(found.label, context.locale) };
      // A child of a hierarchical enumerate also shows where it sits: "Technology/Artificial intelligence".
      const chain = enumAncestry(enumerate, found);
      if (chain.length > 1) rendered.longLabel = chain.map((link) => translate(link.label, context.locale)).join("/");
      return rendered;
    }
    case "docid": {
      const id = docidOf(value);
      const target = id === undefined ? undefined : context.element(id);
      if (!target || !context.canView(target)) return { value, displayValue: "", initid: Number(value) };
      return {
        value,
        displayValue: target.title,
        familyRelation: target.structure,
        initid: target.initid,
        url: `/api/v2/smart-elements/${target.initid}.json`,
      };
    }
    case "file":
    case "image": {
      const file = parseFileValue(String(value));
      if (!file) return { value, displayValue: String(value) };
      const stored = context.vaultFile(file.vaultId);
      const rendered: AttributeValue = {
        value,
        displayValue: file.name,
        fileName: file.name,
        mime: file.mime,
        size: stored?.size ?? null,
        creationDate: stored?.createdAt ?? null,
      };
      if (field.type === "image") {
        rendered.url = recordedImageUri(file.vaultId, file.name);
        rendered.thumbnail = `/api/v2/images/recorded/sizes/48/${file.vaultId}.png`;
      }
      return rendered;
    }
    default:
      return { value, displayValue: String(value) };
  }
}

function renderOne(field: ResolvedField, value: FieldValue | undefined, context: ReadContext): AttributeValue | AttributeValue[] {
  if (!field.multiple) return renderScalar(field, value ?? null, context);
  return Array.isArray(value) ? value.map((item) => renderScalar(field, item, context)) : [];
}

/** The served form of a stored value: per row for array columns, a list for multiple fields. */
export function renderFieldValue(field: ResolvedField, value: FieldValue | undefined, context: ReadContext): RenderedValue {
  if (field.arrayId === undefined) return renderOne(field, value, context);
  const rows = Array.isArray(value) ? value : [];
  return rows.map((row) => renderOne(field, row, context)) as AttributeValue[] | AttributeValue[][];
}
