import { toBase64 } from "../crypto/encoding.ts";
import { visibilityOf, type ResolvedField } from "../structures/smart-field.ts";
import { flattenFields, type SmartStructure, type StructureDefinition } from "../structures/smart-structure.ts";
import { structureLayout } from "../structures/structure-layout.ts";
import { parseFileValue } from "../values/file-value.ts";
import { docidOf } from "./element-reference.ts";
import { titleAsSeen } from "./element-title.ts";
import { fileUri } from "./element-uri.ts";
import type { ViewContext } from "./element-view.ts";
import type { ElementRevision, FieldValue } from "./smart-element.ts";

/*
 * The XML export of an element (`<docid>.xml`) in the original's import format: the root is the
 * structure's name in lower case, with the element's name, title, revision, modification date,
 * version and state; the fields nest in the sets that hold them (tabs, frames, and an array's
 * rows, one element per row), each value in the form the import reads back (element-xml-import.ts). What the reader may
 * not see, and every password, is `granted="false"`, never a value.
 */

/** The namespace of `xsi:nil`. */
export const XSI_NAMESPACE = "http://www.w3.org/2001/XMLSchema-instance";

export interface ElementXmlOptions {
  /** The bytes of the files the values hold, by vault id: given, each file travels inside its tag in base64. */
  readonly files?: ReadonlyMap<number, Uint8Array>;
}

/** Without the characters XML 1.0 cannot carry at all. */
// eslint-disable-next-line no-control-regex
const stripUnencodable = (text: string) => text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "");

const escapeXml = (text: string) =>
  stripUnencodable(text).replace(/[<>&"']/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c] ?? c);

/** A CDATA section, split where the text holds its end marker. */
const cdata = (text: string) => `<![CDATA[${stripUnencodable(text).replace(/]]>/g, "]]]]><![CDATA[>")}]]>`;

const attributesXml = (attributes: Readonly<Record<string, string | undefined>>) =>
  Object.entries(attributes).filter(([, value]) => value !== undefined).map(([key, value]) => ` ${key}="${escapeXml(value ?? "")}"`).join("");

const tag = (id: string, attributes: Readonly<Record<string, string | undefined>>, content?: string) =>
  content === undefined ? `<${id}${attributesXml(attributes)}/>` : `<${id}${attributesXml(attributes)}>${content}</${id}>`;

/** What a set (or the element itself) holds, in the structure's order: fields (arrays among them) and frames and tabs. */
type Entry = { readonly kind: "field"; readonly field: ResolvedField } | { readonly kind: "set"; readonly id: string };

const entriesCache = new WeakMap<StructureDefinition, ReadonlyMap<string | undefined, readonly Entry[]>>();

function entriesBySet(structure: StructureDefinition): ReadonlyMap<string | undefined, readonly Entry[]> {
  let entries = entriesCache.get(structure);
  if (entries) return entries;
  const layout = structureLayout(structure);
  const found = new Map<string | undefined, { entry: Entry; order: number }[]>();
  const add = (id: string, entry: Entry) => {
    const set = layout.parentOf.get(id);
    found.set(set, [...(found.get(set) ?? []), { entry, order: layout.order.get(id) ?? 0 }]);
  };
  for (const field of flattenFields(structure)) add(field.id, { kind: "field", field });
  for (const set of layout.sets) if (set.type !== "array") add(set.id, { kind: "set", id: set.id });
  entries = new Map([...found].map(([set, list]) => [set, list.sort((a, b) => a.order - b.order).map(({ entry }) => entry)]));
  entriesCache.set(structure, entries);
  return entries;
}

/** Where a value is written: the revision holding it and its index (the row, or the item of a list). */
interface Place {
  readonly revision: ElementRevision;
  readonly index: number;
}

class ElementXmlWriter {
  constructor(
    private readonly revision: ElementRevision,
    private readonly context: ViewContext,
    private readonly options: ElementXmlOptions,
  ) {}

  /** One stored item (never a list) as its tag. */
  item(field: ResolvedField, value: FieldValue | undefined, place: Place): string {
    // Its hash stays in the store: no export shows it, nor whether there is one (the original would show it).
    if (field.type === "password") return tag(field.id, { granted: "false" });
    if (value === null || value === undefined || value === "" || typeof value === "object") {
      return field.type === "file" || field.type === "image"
        ? tag(field.id, { mime: "", title: "", "xsi:nil": "true" })
        : tag(field.id, { "xsi:nil": "true" });
    }
    switch (field.type) {
      case "longtext":
        return tag(field.id, {}, cdata(String(value)));
      case "docid": {
        const id = docidOf(value);
        const target = id === undefined ? undefined : this.context.element(id);
        // A target gone or that the reader may not view: nothing of it, as the JSON answers.
        if (!target || !this.context.canView(target)) return tag(field.id, { granted: "false" });
        return tag(field.id, { name: target.name ?? undefined }, escapeXml(titleAsSeen(this.context.structure(target.structure), target, this.context.locale)));
      }
      case "account": {
        const account = this.context.accountByLogin(String(value));
        return tag(field.id, { name: String(value) }, escapeXml(account?.displayName || String(value)));
      }
      case "file":
      case "image": {
        const file = parseFileValue(String(value));
        if (!file) return tag(field.id, {}, escapeXml(String(value)));
        const bytes = this.options.files?.get(file.vaultId);
        if (bytes) return tag(field.id, { vid: "", mime: file.mime, title: file.name }, toBase64(bytes));
        return tag(field.id, { vid: "", mime: file.mime, href: fileUri(place.revision, field.id, place.index, file.name), title: file.name });
      }
      default:
        return tag(field.id, {}, escapeXml(String(value)));
    }
  }

  /** A field's value: one tag per item of a list (an empty list is nil), one tag otherwise. */
  value(field: ResolvedField, value: FieldValue | undefined, place: Place): string[] {
    if (visibilityOf(field) === "I") return [tag(field.id, { granted: "false" })];
    if (!field.multiple) return [this.item(field, value, place)];
    const items = Array.isArray(value) ? value : [];
    if (items.length === 0) return [this.item(field, null, place)];
    if (field.type === "docid") {
      const names = this.targetNames(items);
      // The original names a list's targets in one tag; a target without a name is written by its title, in a tag of its own, so that nothing is lost.
      if (names) return [tag(field.id, { name: names.join(",") }, "multiple document")];
    }
    // Items of a list outside arrays are numbered by their position, as the files route takes them.
    return items.map((item, k) => this.item(field, item, place.index === -1 ? { ...place, index: k } : place));
  }

  /** The logical names of a list's targets, when the reader may view each and each has one; else undefined. */
  private targetNames(items: readonly FieldValue[]): string[] | undefined {
    const names: string[] = [];
    for (const item of items) {
      const id = docidOf(item);
      const target = id === undefined ? undefined : this.context.element(id);
      if (!target?.name || !this.context.canView(target)) return undefined;
      names.push(target.name);
    }
    return names;
  }

  /** The tags of what one set holds (the element itself when `set` is undefined), in order; `row` for the cells of an array's row. */
  children(entries: ReadonlyMap<string | undefined, readonly Entry[]>, set: string | undefined, row: number | undefined): string[] {
    const lines: string[] = [];
    for (const entry of entries.get(set) ?? []) {
      if (entry.kind === "set") {
        // A frame or tab: what it holds inside its tag, as the original nests them.
        lines.push(`<${entry.id}>`, ...this.children(entries, entry.id, undefined).map((line) => `  ${line}`), `</${entry.id}>`);
        continue;
      }
      const { field } = entry;
      if (field.type === "array") {
        if (visibilityOf(field) === "I") {
          lines.push(tag(field.id, { granted: "false" }));
          continue;
        }
        // One element per row, its cells inside.
        for (let r = 0; r < this.rowCount(entries, field.id); r++) {
          lines.push(`<${field.id}>`, ...this.children(entries, field.id, r).map((line) => `  ${line}`), `</${field.id}>`);
        }
        continue;
      }
      const stored = this.revision.values[field.id];
      const value = row === undefined ? stored : Array.isArray(stored) ? stored[row] : undefined;
      lines.push(...this.value(field, value, { revision: this.revision, index: row ?? -1 }));
    }
    return lines;
  }

  private rowCount(entries: ReadonlyMap<string | undefined, readonly Entry[]>, arrayId: string): number {
    let rows = 0;
    for (const entry of entries.get(arrayId) ?? []) {
      const stored = entry.kind === "field" ? this.revision.values[entry.field.id] : undefined;
      if (Array.isArray(stored)) rows = Math.max(rows, stored.length);
    }
    return rows;
  }
}

/** The vault ids of the files an element's values hold (to load their bytes for an export with files). */
export function fileIdsOf(revision: ElementRevision, structure: SmartStructure | undefined): number[] {
  const ids: number[] = [];
  const visit = (value: FieldValue | undefined) => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (typeof value === "string") {
      const file = parseFileValue(value);
      if (file) ids.push(file.vaultId);
    }
  };
  for (const field of structure ? flattenFields(structure) : []) {
    if ((field.type === "file" || field.type === "image") && visibilityOf(field) !== "I") visit(revision.values[field.id]);
  }
  return ids;
}

/** The XML export of an element (`<docid>.xml`), in the original's import format. */
export function renderElementXml(revision: ElementRevision, context: ViewContext, options: ElementXmlOptions = {}): string {
  const structure = context.structure(revision.structure);
  const entries = structure ? entriesBySet(structure) : new Map<string | undefined, readonly Entry[]>();
  const root = revision.structure.toLowerCase();
  const attributes = attributesXml({
    "xmlns:xsi": XSI_NAMESPACE,
    name: revision.name ?? undefined,
    title: titleAsSeen(structure, revision, context.locale),
    revision: String(revision.revision),
    "modification-date": revision.modifiedAt,
    version: "",
    state: revision.state ?? "",
  });
  const body = new ElementXmlWriter(revision, context, options).children(entries, undefined, undefined).map((line) => `  ${line}\n`).join("");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<${root}${attributes}>\n${body}</${root}>\n`;
}
