import { fromBase64 } from "../crypto/encoding.ts";
import { findField, type StructureDefinition } from "../structures/smart-structure.ts";
import type { ResolvedField } from "../structures/smart-field.ts";
import type { BundleProblem } from "./problems/bundle-check.ts";
import { filePathProblem } from "./bundle-values.ts";

/*
 * Elements in the original's XML import format (what `<docid>.xml` exports, element-xml.ts) turned
 * into the element entries of a bundle, which the bundle import then checks and writes as it
 * writes any bundle's elements. The root is a structure's name (in any case), or a wrapper whose
 * children are such elements; a tag that names no field is a set (frame, tab) whose children are
 * read in turn; an array's tag is one row. Values are read as the original's import reads them:
 * docid and account values by their `name` attribute (the login of an account), files by `href`
 * (a path relative to the XML file) or inside the tag in base64; `xsi:nil="true"` is empty and
 * `granted="false"` (what the exporting reader could not see, passwords) is left as it is.
 */

/** An XML element as parsed: its tag, attributes, text (CDATA included) and child elements, in order. */
export interface XmlNode {
  readonly tag: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly text: string;
  readonly children: readonly XmlNode[];
}

/**
 * A docid value given by its target's title alone, as the original exports a target without a
 * logical name: found by title in the store (resolveTitles) before the entries are imported.
 */
export class TitleReference {
  constructor(
    readonly title: string,
    /** The structure the target must be of (the field's), if any. */
    readonly structure: string | undefined,
    readonly path: string,
  ) {}
}

/** The element entries read from XML documents, with the files they carried inside their tags. */
export interface XmlElements {
  /** Bundle element entries (`{ structure, name, values }`); docid values named by title are TitleReferences until resolveTitles. */
  readonly entries: readonly Record<string, unknown>[];
  /** The docid values named by their target's title, in document order. */
  readonly titles: readonly TitleReference[];
  /** File contents carried inside tags, by the bundle path the entries name them with. */
  readonly files: ReadonlyMap<string, Uint8Array>;
  readonly problems: readonly BundleProblem[];
}

/** Where files carried inside tags are named in the entries: a folder no bundle folder reader reaches. */
export const EMBEDDED_FILES = ":embedded";

type Values = Record<string, unknown>;

class XmlElementReader {
  readonly entries: Record<string, unknown>[] = [];
  readonly files = new Map<string, Uint8Array>();
  readonly problems: BundleProblem[] = [];
  readonly titles: TitleReference[] = [];

  constructor(private readonly structureOf: (tag: string) => StructureDefinition | undefined) {}

  document(node: XmlNode, path: string): void {
    const structure = this.structureOf(node.tag);
    if (!structure) {
      this.problems.push({ path, message: `<${node.tag}> names no Smart Structure: the root of an element is its structure's name` });
      return;
    }
    const values: Values = {};
    this.children(structure, node.children, values, undefined, path);
    const entry: Record<string, unknown> = { structure: structure.name, values };
    const name = node.attributes.name?.trim();
    if (name) entry.name = name;
    this.entries.push(entry);
  }

  /** The children of the element or of a set (a frame, a tab), or the cells of one row of `array`. */
  private children(structure: StructureDefinition, nodes: readonly XmlNode[], values: Values, array: ResolvedField | undefined, parentPath: string): void {
    const seen = new Map<string, number>();
    for (const node of nodes) {
      const position = (seen.get(node.tag) ?? 0) + 1;
      seen.set(node.tag, position);
      const path = `${parentPath}/${node.tag}[${position}]`;
      const field = findField(structure, node.tag);
      if (!field) {
        const set = structure.fieldSets?.some((fieldSet) => fieldSet.id === node.tag) ?? false;
        if (set || node.children.length > 0) this.children(structure, node.children, values, array, path);
        else this.problems.push({ path, message: `structure "${structure.name}" has no field "${node.tag}"` });
        continue;
      }
      if (field.arrayId !== (array?.id)) {
        this.problems.push({ path, message: field.arrayId === undefined
          ? `field "${field.id}" is not a column of the array "${array?.id}"`
          : `field "${field.id}" is a column of the array "${field.arrayId}": give it inside the rows of "${field.arrayId}"` });
        continue;
      }
      if (field.type === "array") {
        if (node.attributes.granted === "false") continue;
        const rows = (values[field.id] ??= []) as Values[];
        const row: Values = {};
        this.children(structure, node.children, row, field, path);
        rows.push(row);
        continue;
      }
      this.value(field, node, values, path);
    }
  }

  /** One tag of a field: its value, or one item of its list. */
  private value(field: ResolvedField, node: XmlNode, values: Values, path: string): void {
    if (node.attributes.granted === "false") return;
    const nil = node.attributes["xsi:nil"] === "true";
    if (!field.multiple) {
      if (field.id in values) this.problems.push({ path, message: `field "${field.id}" takes one value: give it once` });
      else values[field.id] = nil ? null : this.item(field, node, path);
      return;
    }
    const list = (values[field.id] ??= []) as unknown[];
    if (nil) return;
    const item = this.item(field, node, path);
    // The original's multiple docid tag names its targets in one attribute, comma-separated.
    if (field.type === "docid" && typeof item === "string" && item.includes(",")) list.push(...item.split(",").map((name) => name.trim()).filter(Boolean));
    else list.push(item);
  }

  private item(field: ResolvedField, node: XmlNode, path: string): unknown {
    const { attributes, text } = node;
    switch (field.type) {
      case "docid": {
        const name = attributes.name?.trim() || attributes.id?.trim();
        if (name) return name;
        // As the original's import: a target without a logical name is found by its title.
        if (text.trim()) {
          const reference = new TitleReference(text.trim(), field.structure, path);
          this.titles.push(reference);
          return reference;
        }
        this.problems.push({ path, message: `the docid value of "${field.id}" names no target: give its logical name (name="...") or its title` });
        return "";
      }
      case "account":
        return attributes.name?.trim() || text.trim();
      case "int":
      case "double":
      case "money": {
        const number = Number(text.trim());
        return text.trim() !== "" && Number.isFinite(number) ? number : text;
      }
      case "file":
      case "image":
        return this.file(field, node, path);
      default:
        return text;
    }
  }

  private file(field: ResolvedField, node: XmlNode, path: string): unknown {
    const href = node.attributes.href?.trim();
    const title = node.attributes.title?.trim() || "file";
    if (!href) {
      const content = node.text.replace(/\s+/g, "");
      try {
        const bytes = fromBase64(content);
        const key = `${EMBEDDED_FILES}/${this.files.size + 1}/${title.replace(/[\\/]/g, "_")}`;
        this.files.set(key, bytes);
        return { file: key };
      } catch {
        this.problems.push({ path, message: `the file of "${field.id}" is neither an href nor base64 content` });
        return null;
      }
    }
    const problem = /^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith("/")
      ? `the file of "${field.id}" is a link (${href}): the import reads a file from the XML's folder (a relative href) or inside the tag (export with withFiles=true)`
      : filePathProblem(href);
    if (problem) {
      this.problems.push({ path, message: problem });
      return null;
    }
    return { file: href };
  }
}

/**
 * Reads XML documents of elements into bundle element entries. `structureOf` finds a structure by
 * a root tag (the original writes it in lower case); `where` prefixes each problem's path (the file).
 */
export function elementsOfXml(documents: readonly XmlNode[], structureOf: (tag: string) => StructureDefinition | undefined, where: string): XmlElements {
  const reader = new XmlElementReader(structureOf);
  for (const [k, root] of documents.entries()) {
    const path = `${where}:/${root.tag}${documents.length > 1 ? `[${k + 1}]` : ""}`;
    if (structureOf(root.tag)) {
      reader.document(root, path);
      continue;
    }
    // A wrapper of several elements.
    if (root.children.length === 0) reader.problems.push({ path, message: `<${root.tag}> names no Smart Structure and holds no element` });
    const seen = new Map<string, number>();
    for (const child of root.children) {
      const position = (seen.get(child.tag) ?? 0) + 1;
      seen.set(child.tag, position);
      reader.document(child, `${path}/${child.tag}[${position}]`);
    }
  }
  return { entries: reader.entries, titles: reader.titles, files: reader.files, problems: reader.problems };
}

/** The entries with each TitleReference replaced by what `found` gives for it (a name or an element id). */
export function resolveTitles(entries: readonly Record<string, unknown>[], found: ReadonlyMap<TitleReference, string>): Record<string, unknown>[] {
  const replace = (value: unknown): unknown => {
    if (value instanceof TitleReference) return found.get(value) ?? "";
    if (Array.isArray(value)) return value.map(replace);
    if (value && typeof value === "object" && !("file" in value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, replace(item)]));
    return value;
  };
  return entries.map((entry) => ({ ...entry, values: replace(entry.values) }));
}
