import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { bundleError, type ImportReport, type Platform, type XmlNode } from "@lineage/core";
import { bundleFolderReader } from "./bundle-file.ts";
import type { BundleFileImport } from "./start-lineage.ts";

/*
 * A file of elements in the original's XML import format (what `GET <docid>.xml` answers): read
 * whole, checked to be well-formed XML before anything else, turned into bundle element entries
 * against the stored structures (platform.bundles.elementsOfXml), then imported as a bundle of
 * those elements: checked whole and written in one transaction, or refused with every problem.
 */

/** True for a file `lineage import` reads as XML elements rather than as a JSON bundle: by its extension. */
export function isXmlElementsFile(path: string): boolean {
  return /\.xml$/i.test(path);
}

const parser = new XMLParser({
  preserveOrder: true, ignoreAttributes: false, attributeNamePrefix: "", trimValues: false,
  parseTagValue: false, parseAttributeValue: false, ignoreDeclaration: true, ignorePiTags: true,
});

/** An element of fast-xml-parser's ordered output: one key (its tag, or `#text`), with `:@` holding its attributes. */
type OrderedNode = Record<string, unknown>;

function nodeOf(ordered: OrderedNode): XmlNode | undefined {
  const tag = Object.keys(ordered).find((key) => key !== ":@");
  if (tag === undefined || tag === "#text" || tag.startsWith("?") || tag === "#comment") return undefined;
  const parts = (ordered[tag] ?? []) as OrderedNode[];
  const attributes = (ordered[":@"] ?? {}) as Record<string, string>;
  const children: XmlNode[] = [];
  let text = "";
  for (const part of parts) {
    if ("#text" in part) text += String(part["#text"]);
    else {
      const child = nodeOf(part);
      if (child) children.push(child);
    }
  }
  return { tag, attributes: { ...attributes }, text, children };
}

/** The root elements of an XML text; throws `FILE: message (line L, column C)` when it is not well-formed. */
export function parseXmlDocuments(text: string, path: string): XmlNode[] {
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new Error(`${path}: not well-formed XML, ${valid.err.msg} (line ${valid.err.line}, column ${valid.err.col})`);
  const roots = (parser.parse(text) as OrderedNode[]).map(nodeOf).filter((node): node is XmlNode => node !== undefined);
  if (roots.length === 0) throw new Error(`${path}: no XML element in the file`);
  return roots;
}

/** Imports a file of elements in the original's XML import format, as a bundle of those elements. */
export async function importXmlElementsFile(platform: Platform, path: string, options: BundleFileImport = {}): Promise<ImportReport> {
  let text: string;
  try {
    text = readFileSync(resolve(path), "utf8");
  } catch (error) {
    throw new Error(`${path}: ${(error as Error).message}`);
  }
  const read = await platform.bundles.elementsOfXml(parseXmlDocuments(text, path), path);
  if (read.problems.length > 0) throw bundleError(read.problems);
  const folder = bundleFolderReader(path);
  return platform.bundles.import({ elements: read.entries }, {
    readFile: (relativePath) => read.files.get(relativePath) ?? folder(relativePath),
    onProgress: options.progress?.onProgress, onOverwrite: options.onOverwrite, dryRun: options.dryRun,
  });
}
