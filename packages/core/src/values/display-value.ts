import { titleAsSeen } from "../elements/element-title.ts";
import { enumAncestry, findEnumItem } from "../enumerates/enumerate.ts";
import type { ElementRevision, FieldValue } from "../elements/smart-element.ts";
import { translate } from "../i18n/label.ts";
import type { ResolvedField } from "../structures/smart-field.ts";
import { parseFileValue } from "./file-value.ts";
import { mimeIconUri } from "./mime-icon.ts";
import { fileUri } from "../elements/element-uri.ts";
import { docidOf } from "../elements/element-reference.ts";
import { accountIconUri, iconUri } from "../elements/element-icon.ts";
import type { Label } from "../i18n/label.ts";
import type { SmartStructure } from "../structures/smart-structure.ts";
import type { ValueContext } from "./value-context.ts";

/** What a read needs beyond lookups: the reader's locale and view right. */
export interface ReadContext extends ValueContext {
  readonly locale: string;
  canView(element: ElementRevision): boolean;
  structure(name: string): SmartStructure | undefined;
}

/** What a docid value shows of a target its reader may not view, as the original words it. */
const NOT_ACCESSIBLE: Label = { en: "Information not accessible", fr: "Information non accessible" };
/** The original shows the icons of docid targets smaller than those of elements. */
const RELATION_ICON_SIZE = 14;

/** A field value as served: the stored value and its text for a person. */
export interface AttributeValue {
  value: string | number | null;
  displayValue: string | null;
  [extra: string]: unknown;
}

export type RenderedValue = AttributeValue | AttributeValue[] | AttributeValue[][];


/** A stored day (`YYYY-MM-DD`) as the original shows it: day first in French, month first in English. */
export function displayDate(value: string, locale: string): string {
  const [y, m, d] = value.split("-");
  return locale.startsWith("fr") ? `${d}/${m}/${y}` : `${m}/${d}/${y}`;
}

function displayTimestamp(value: string, locale: string): string {
  const [date = "", time = ""] = value.split("T");
  return `${displayDate(date, locale)} ${time.slice(0, 5)}`;
}

const MONEY_FORMATS = new Map<string, Intl.NumberFormat>();

/** Money as the original shows it: two decimals, thousands grouped, in the reader's language ("1 234,50", "1,234.50"). */
function displayMoney(value: number, locale: string): string {
  const language = locale.startsWith("fr") ? "fr-FR" : "en-US";
  let format = MONEY_FORMATS.get(language);
  if (!format) {
    format = new Intl.NumberFormat(language, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    MONEY_FORMATS.set(language, format);
  }
  // The French grouping is a narrow no-break space: a plain space, as the original writes it.
  return format.format(value).replace(/[\u202f\u00a0]/g, " ");
}

/** Where the original of a recorded (vault) image is served. */
export function recordedImageUri(vaultId: number, name: string): string {
  const extension = /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase();
  return `/api/v2/images/recorded/original/${vaultId}${extension ? `.${extension}` : ""}`;
}

/** Where a rendered value sits: the revision holding it and its index (-1 outside arrays and lists), for the links of file values. */
export interface ValuePlace {
  readonly holder: Pick<ElementRevision, "initid" | "revision" | "fixed">;
  readonly index: number;
}

function renderScalar(field: ResolvedField, value: FieldValue, context: ReadContext, place?: ValuePlace): AttributeValue {
  if (value === null || typeof value === "object") return field.type === "enum" ? { value: null, displayValue: null, exists: true } : { value: null, displayValue: null };
  switch (field.type) {
    case "int":
    case "double":
      // The original's API sets a decimal point for every reader (only money follows the reader's language).
      return { value, displayValue: String(value) };
    case "money":
      return { value, displayValue: typeof value === "number" ? displayMoney(value, context.locale) : String(value) };
    case "time":
      // As stored, seconds included (09:30:00), as the original shows a time.
      return { value, displayValue: String(value) };
    case "password":
      // Its hash stays in the store: no answer shows it, set or not.
      return { value: null, displayValue: null };
    case "account": {
      // The original's account values are docid values (its accounts are elements): the same keys here. An account is
      // no element: no page (url), lineage (initid) or structure (fromid) of it; its icon is the accounts' icon.
      const account = context.accountByLogin(String(value));
      return {
        familyRelation: "", url: null, icon: account ? accountIconUri(RELATION_ICON_SIZE) : null, revision: -1, initid: null, fromid: null,
        value, displayValue: account?.displayName || String(value),
      };
    }
    case "date":
      return { value, displayValue: displayDate(String(value), context.locale) };
    case "timestamp":
      return { value, displayValue: displayTimestamp(String(value), context.locale) };
    case "enum": {
      const enumerate = field.enum ? context.enumerate(field.enum) : undefined;
      const found = enumerate ? findEnumItem(enumerate, String(value)) : undefined;
      // A stored key the enumerate no longer holds is flagged, as the original does, and shown as stored.
      if (!enumerate || !found) return { value, displayValue: String(value), exists: false };
      // A child of a hierarchical enumerate shows where it sits, as the original's label does: "Bleu/Bleu ciel".
      const path = enumAncestry(enumerate, found).map((link) => translate(link.label, context.locale)).join("/");
      return { value, displayValue: path, exists: true };
    }
    case "docid": {
      const id = docidOf(value);
      const target = id === undefined ? undefined : context.element(id);
      // The original's shape, in its order; revision -1 names the latest, the only one a docid value follows here.
      const familyRelation = field.structure ?? "";
      // A target the reader may not view (or that is gone) is told apart from nothing: no id, link or icon of it.
      if (!target || !context.canView(target)) {
        return { familyRelation, url: null, icon: null, revision: -1, initid: null, fromid: null, value, displayValue: translate(NOT_ACCESSIBLE, context.locale) };
      }
      // The target's icon, as the original's (an element's icon is its structure's), at the relations' size.
      const structure = context.structure(target.structure);
      return {
        familyRelation,
        url: `/api/v2/smart-elements/${target.initid}.html`,
        icon: iconUri(structure, RELATION_ICON_SIZE),
        revision: -1,
        initid: target.initid,
        fromid: structure?.id ?? null,
        value,
        displayValue: titleAsSeen(structure, target, context.locale),
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
        icon: mimeIconUri(file.mime),
      };
      if (place) rendered.url = fileUri(place.holder, field.id, place.index, stored?.name || file.name);
      if (field.type === "image") {
        rendered.url ??= recordedImageUri(file.vaultId, file.name);
        rendered.thumbnail = `/api/v2/images/recorded/sizes/48/${file.vaultId}.png`;
      }
      return rendered;
    }
    default:
      return { value, displayValue: String(value) };
  }
}

function renderOne(field: ResolvedField, value: FieldValue | undefined, context: ReadContext, place?: ValuePlace): AttributeValue | AttributeValue[] {
  if (!field.multiple) return renderScalar(field, value ?? null, context, place);
  if (!Array.isArray(value)) return [];
  // A list's items are numbered by their position. The files route has no number for an item of a
  // list in an array row: such items get no url rather than one that cannot answer.
  return value.map((item, index) => renderScalar(field, item, context, place?.index === -1 ? { ...place, index } : undefined));
}

/**
 * The served form of a stored value: per row for array columns, a list for multiple fields.
 * With the revision holding it, file and image values carry the URL of the files route.
 */
export function renderFieldValue(
  field: ResolvedField,
  value: FieldValue | undefined,
  context: ReadContext,
  holder?: ValuePlace["holder"],
): RenderedValue {
  const place = holder && { holder, index: -1 };
  if (field.arrayId === undefined) return renderOne(field, value, context, place);
  const rows = Array.isArray(value) ? value : [];
  return rows.map((row, index) => renderOne(field, row, context, place && { ...place, index })) as AttributeValue[] | AttributeValue[][];
}
