import type { FieldValue } from "../elements/smart-element.ts";
import type { ResolvedField } from "../structures/smart-field.ts";
import { renderFieldValue, type ReadContext, type RenderedValue } from "../values/display-value.ts";
import { parseFileValue } from "../values/file-value.ts";
import { htmlToText } from "./html-text.ts";

const DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?/;

const NAMES = new Map<string, { readonly weekday: Intl.DateTimeFormat; readonly month: Intl.DateTimeFormat }>();

function namesIn(lang: string) {
  let names = NAMES.get(lang);
  if (!names) {
    const language = Intl.DateTimeFormat.supportedLocalesOf([lang]).length > 0 ? lang : "en";
    names = {
      weekday: new Intl.DateTimeFormat(language, { weekday: "long", timeZone: "UTC" }),
      month: new Intl.DateTimeFormat(language, { month: "long", timeZone: "UTC" }),
    };
    NAMES.set(lang, names);
  }
  return names;
}

/**
 * A date or timestamp as the original indexes it: strftime's `%A %d %B %Y %m` in the domain's
 * language (weekday and month names, so "mercredi" or "March" find it), and ` %H:%M:%S` for a
 * timestamp. A value that is no date is indexed as it is.
 * @example
 * indexedDate("2026-03-04", "fr", false) // "mercredi 04 mars 2026 03"
 */
export function indexedDate(value: string, lang: string, withTime: boolean): string {
  const match = DATE.exec(value);
  if (!match) return value;
  const [, year, month, day, hours = "00", minutes = "00", seconds = "00"] = match;
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  const names = namesIn(lang);
  const text = `${names.weekday.format(date)} ${day} ${names.month.format(date)} ${year} ${month}`;
  return withTime ? `${text} ${hours}:${minutes}:${seconds}` : text;
}

function displayTexts(rendered: RenderedValue, out: string[]): void {
  if (Array.isArray(rendered)) for (const item of rendered) displayTexts(item, out);
  else if (rendered.displayValue) out.push(rendered.displayValue);
}

function rawItems(value: FieldValue | undefined, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value as readonly FieldValue[]) rawItems(item, out);
  else if (value !== null && value !== undefined && value !== "") out.push(String(value));
  return out;
}

/** A file field's value as the original indexes it: the file name, then the name with its punctuation as spaces. */
function indexedFileName(raw: string): string {
  const name = parseFileValue(raw)?.name ?? raw;
  return `${name} (${name.replace(/\p{P}/gu, " ")})`;
}

/**
 * The texts the original indexes for one field's value, in the domain's language (`context`
 * reads in it): dates by `indexedDate`, an enum item's label with its parents' labels, a docid
 * or account's target title, a file's name; numbers and text as stored (not the reader's
 * display forms), HTML without its tags. Passwords are never indexed.
 */
export function indexedFieldTexts(field: ResolvedField, value: FieldValue | undefined, context: ReadContext, lang: string): string[] {
  switch (field.type) {
    case "password":
      return [];
    case "date":
    case "timestamp":
      return rawItems(value).map((item) => indexedDate(item, lang, field.type === "timestamp"));
    case "enum":
    case "docid":
    case "account": {
      const texts: string[] = [];
      displayTexts(renderFieldValue(field, value, context), texts);
      // The original indexes an enum item's path ("Bleu/Bleu ciel") with its slashes as spaces.
      return field.type === "enum" ? texts.map((text) => text.replaceAll("/", " ")) : texts;
    }
    case "file":
    case "image":
      return rawItems(value).map(indexedFileName);
    case "htmltext":
      return rawItems(value).map(htmlToText);
    default: {
      const items = rawItems(value);
      // The original joins a list's values with commas, as one text.
      return items.length > 0 ? [items.join(", ")] : [];
    }
  }
}
