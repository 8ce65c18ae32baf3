import { translate, type Label } from "../i18n/label.ts";
import type { ElementValues, FieldValue } from "./smart-element.ts";
import { flattenFields, type StructureDefinition } from "../structures/smart-structure.ts";
import { visibilityOf, type ResolvedField } from "../structures/smart-field.ts";

/** The original keeps titles to 255 characters (code points, not UTF-16 units). */
const TITLE_LENGTH = 255;

/**
 * The original's text for an element created with every title field empty: its structure's title
 * and its initid ("untitle %s %d"; the English catalogue leaves the msgid as it is).
 */
const UNTITLED: Label = { en: "untitle {structure} {initid}", fr: "{structure} sans titre {initid}" };

/**
 * The fields that make a structure's titles, in the structure's order: the original marks fields
 * "in title" and walks them in field order, whatever order a bundle lists them in.
 */
export function titleFields(structure: StructureDefinition): ResolvedField[] {
  const named = new Set(structure.titleFields ?? (structure.titleField === undefined ? [] : [structure.titleField]));
  return flattenFields(structure).filter((field) => named.has(field.id));
}

/**
 * The title the title fields make: their non-empty values joined by spaces (a list's items
 * too), control characters as spaces, trimmed, at most 255 characters; "" when all are empty.
 */
export function composeTitle(structure: StructureDefinition, values: ElementValues): string {
  let joined = "";
  for (const field of titleFields(structure)) {
    const value = values[field.id];
    const items = flatItems(value);
    // As the original: a list's items are joined and trimmed, a single value is taken as it is.
    if (items.length > 0) joined += `${Array.isArray(value) ? items.join(" ").trim() : items.join(" ")} `;
  }
  const title = joined.replace(/\p{Cc}/gu, " ").trim();
  return Array.from(title).slice(0, TITLE_LENGTH).join("");
}

/**
 * The title of a new element: its title fields' title, else the original's "untitled" text in
 * the writer's locale, which names the structure and the element's initid.
 */
export function newElementTitle(structure: StructureDefinition, values: ElementValues, initid: number, locale: string): string {
  const title = composeTitle(structure, values);
  if (title !== "") return title;
  const structureTitle = translate(structure.title, locale) || structure.name;
  return translate(UNTITLED, locale).replace(/\{(structure|initid)\}/g, (_, key: string) => (key === "structure" ? structureTitle : String(initid)));
}

/**
 * The title as a reader sees it. Titles are composed once, for everyone, when an element is
 * written; a title field invisible to the reader (I, as their field access layers leave it: the
 * `structure` is theirs) must not show its value through the title, so theirs is composed again
 * without it, and is the original's "untitled" text in their locale when nothing is left.
 */
export function titleAsSeen(
  structure: StructureDefinition | undefined, revision: { readonly title: string; readonly values: ElementValues; readonly initid: number }, locale: string,
): string {
  if (!structure || !titleFields(structure).some((field) => visibilityOf(field) === "I")) return revision.title;
  const visible = new Set(titleFields(structure).filter((field) => visibilityOf(field) !== "I").map((field) => field.id));
  const values = Object.fromEntries(Object.entries(revision.values).filter(([id]) => visible.has(id)));
  return newElementTitle(structure, values, revision.initid, locale);
}

/** The title after a change: the original keeps the previous title when every title field is empty. */
export function changedElementTitle(structure: StructureDefinition, values: ElementValues, previous: string): string {
  return composeTitle(structure, values) || previous;
}

function flatItems(value: FieldValue | undefined): string[] {
  if (value === null || value === undefined || value === "") return [];
  if (Array.isArray(value)) return (value as readonly FieldValue[]).flatMap(flatItems);
  return [String(value)];
}
