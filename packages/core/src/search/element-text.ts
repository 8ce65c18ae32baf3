import type { ElementRevision } from "../elements/smart-element.ts";
import type { IndexedDocument, IndexedFile } from "../ports/search-index.port.ts";
import type { RequestScope } from "../scope/request-scope.ts";
import { findField } from "../structures/smart-structure.ts";
import { visibilityOf } from "../structures/smart-field.ts";
import { widestStructure } from "../access/field-visibility.ts";
import { parseFileValue } from "../values/file-value.ts";
import type { Analyzer } from "./analyzer.ts";
import type { FileText, FileTextCache } from "./file-text.ts";
import { indexedFieldTexts } from "./indexed-value.ts";
import { configsOf, SEARCH_WEIGHTS, type SearchDomain, type SearchWeight } from "./search-domain.ts";

/** What a callable registered in code adds to an element's indexed text. */
export type SearchCallable = (element: ElementRevision, context: { readonly domain: string; readonly lang: string }) => string | readonly string[];

/** Callables by the name domains give them. */
export type SearchCallables = Readonly<Record<string, SearchCallable>>;

/** The text a domain indexes of one element, by weight, and the files it read. */
export interface ElementText {
  readonly byWeight: Readonly<Partial<Record<SearchWeight, string>>>;
  readonly files: readonly IndexedFile[];
}

export interface ElementTextContext {
  /** A request scope of the system principal, in the domain's language, prepared for the elements (`prepareElementTexts`). */
  readonly scope: RequestScope;
  /** The texts of the files the elements name (`prepareElementTexts`). */
  readonly files: ReadonlyMap<number, FileText>;
  readonly callables: SearchCallables;
  /** Told when a callable throws or is not registered; indexing goes on without its text. */
  readonly warn: (message: string) => void;
  /** Fields left out of a structure's elements' text: those a reader may not see, for their own check and highlights. */
  readonly omit?: ((structure: string) => ReadonlySet<string>) | undefined;
}

/** The vault ids of the files a field value names, however deep its arrays nest. */
export function fileVaultIds(value: unknown, out: number[] = []): number[] {
  if (Array.isArray(value)) for (const item of value) fileVaultIds(item, out);
  else if (typeof value === "string") {
    const file = parseFileValue(value);
    if (file) out.push(file.vaultId);
  }
  return out;
}

/** The vault ids of the files a domain indexes the text of, in these elements. */
export function indexedFileIds(domain: SearchDomain, elements: readonly ElementRevision[]): number[] {
  const ids: number[] = [];
  for (const element of elements) {
    for (const config of configsOf(domain, element.structure)) {
      for (const { field } of config.files) fileVaultIds(element.values[field], ids);
    }
  }
  return ids;
}

/**
 * Reads what the texts of these elements need, in a few batch calls: the
 * elements their docid fields name (display values), vault files, and the
 * text of the files the domain indexes. Answers those texts, for
 * `ElementTextContext.files`; `elementText` then does no I/O.
 */
export async function prepareElementTexts(
  domain: SearchDomain, elements: readonly ElementRevision[], scope: RequestScope, fileTexts: FileTextCache,
): Promise<ReadonlyMap<number, FileText>> {
  await scope.prepare(elements);
  return fileTexts.texts(scope, indexedFileIds(domain, elements));
}

/** The text of an element as a domain indexes it: fields' display values, files' text and callables' output, by weight. */
export function elementText(element: ElementRevision, domain: SearchDomain, context: ElementTextContext): ElementText {
  const parts: Record<SearchWeight, string[]> = { A: [], B: [], C: [], D: [] };
  const files: IndexedFile[] = [];
  // As the readers who see most of it see it (every layer of its field access granted): the index,
  // shared by all, holds what some may find; each reader's hits are checked against their own view.
  const defined = context.scope.definitions.structure(element.structure);
  if (!defined) return { byWeight: {}, files };
  const structure = widestStructure(defined, defined.fieldAccess === undefined ? undefined : context.scope.definitions.fieldAccess(defined.fieldAccess));
  const omitted = context.omit?.(element.structure);
  for (const config of configsOf(domain, element.structure)) {
    for (const { field: id, weight } of config.fields) {
      const field = findField(structure, id);
      // Visibility I for everyone is shown to nobody: the index must neither match nor highlight it.
      if (!field || field.type === "array" || visibilityOf(field) === "I" || omitted?.has(id)) continue;
      parts[weight].push(...indexedFieldTexts(field, element.values[id], context.scope, domain.lang));
    }
    for (const { field: id, weight } of config.files) {
      const field = findField(structure, id);
      if (field && (visibilityOf(field) === "I" || omitted?.has(id))) continue;
      const ids: number[] = [];
      fileVaultIds(element.values[id], ids);
      for (const vaultId of ids) {
        const found = context.files.get(vaultId);
        if (!found) throw new Error(`search: the text of vault file ${vaultId} was not read before the text of element ${element.initid} was made`);
        files.push({ vaultId, status: found.status });
        if (found.text) parts[weight].push(found.text);
      }
    }
    for (const { name, weight } of config.callables) {
      const callable = context.callables[name];
      if (!callable) {
        context.warn(`search domain "${domain.name}": callable "${name}" is not registered`);
        continue;
      }
      try {
        const result = callable(element, { domain: domain.name, lang: domain.lang });
        parts[weight].push(...(typeof result === "string" ? [result] : result));
      } catch (error) {
        context.warn(`search domain "${domain.name}": callable "${name}" failed on element ${element.initid}: ${(error as Error).message}`);
      }
    }
  }
  const byWeight: Partial<Record<SearchWeight, string>> = {};
  // As the original: a weight's texts joined by commas, on one line.
  for (const weight of SEARCH_WEIGHTS) if (parts[weight].length > 0) byWeight[weight] = parts[weight].join(", ").replace(/\s+/g, " ");
  return { byWeight, files };
}

/** The whole text, heaviest weight first, joined by spaces as the original's highlights join them: what highlights are cut from. */
export function fullText(text: ElementText): string {
  return SEARCH_WEIGHTS.map((weight) => text.byWeight[weight]).filter((part) => part !== undefined).join(" ");
}

/** The document an index holds for an element's text. */
export function indexedDocument(element: ElementRevision, text: ElementText, analyzer: Analyzer): IndexedDocument {
  const terms: Partial<Record<SearchWeight, string[]>> = {};
  for (const weight of SEARCH_WEIGHTS) {
    const part = text.byWeight[weight];
    if (part !== undefined) terms[weight] = analyzer.terms(part);
  }
  return { id: element.initid, structure: element.structure, terms, ...(text.files.length > 0 ? { files: text.files } : {}) };
}
