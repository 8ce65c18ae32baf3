import type { ElementRevision } from "../elements/smart-element.ts";
import type { Definitions } from "../scope/definitions.ts";
import { createRequestScope } from "../scope/create-request-scope.ts";
import { SYSTEM_ACCOUNT, systemPrincipal } from "../bundle/system-principal.ts";
import type { IndexedDocument } from "../ports/search-index.port.ts";
import type { Store } from "../ports/store.port.ts";
import { analyzerFor } from "./analyzer.ts";
import { elementText, indexedDocument, prepareElementTexts, type ElementText, type SearchCallables } from "./element-text.ts";
import type { FileTextCache } from "./file-text.ts";
import type { SearchDomain } from "./search-domain.ts";
import { collectionRules, type CollectionRules, type CollectionSources } from "./domain-collections.ts";

/** What a domain's index holds of elements, read from the store in a few batch calls. */
export interface DomainDocuments {
  /** The texts elements have in a domain, in their order. */
  texts(domain: SearchDomain, elements: readonly ElementRevision[], omit?: (structure: string) => ReadonlySet<string>): Promise<ElementText[]>;
  /** The documents elements make in a domain's index, in their order. */
  documents(domain: SearchDomain, elements: readonly ElementRevision[]): Promise<IndexedDocument[]>;
  /**
   * The latest revisions of these lineages that are alive and in the domain's collections (all of
   * its structures' when it names none), by initid, in one read.
   */
  members(domain: SearchDomain, initids: readonly number[]): Promise<ElementRevision[]>;
  /** The rules of the domain's collections, read afresh (domain-collections.ts); undefined when it names none. */
  collections(domain: SearchDomain): Promise<CollectionRules | undefined>;
}

export interface DomainDocumentsOptions {
  readonly store: Store;
  /** The definitions element texts are rendered with, as committed now. */
  readonly definitions: () => Promise<Definitions>;
  readonly fileTexts: FileTextCache;
  readonly callables: SearchCallables;
  /** Where a problem of rendering a text is told, once. */
  readonly log: (message: string) => void;
  /** The initids a folder holds, for domains restricted to a folder. */
  readonly folderMembers: CollectionSources["folderMembers"];
}

/** Reads elements and renders their texts and documents as a domain indexes them. */
export function createDomainDocuments(options: DomainDocumentsOptions): DomainDocuments {
  const { store, fileTexts, callables, log } = options;
  const definitionsOf = options.definitions;
  const warned = new Set<string>();
  const warn = (message: string) => {
    if (warned.has(message)) return;
    warned.add(message);
    log(message);
  };

  async function textsOf(domain: SearchDomain, elements: readonly ElementRevision[], omit?: (structure: string) => ReadonlySet<string>): Promise<ElementText[]> {
    if (elements.length === 0) return [];
    const principal = { ...systemPrincipal(), account: { ...SYSTEM_ACCOUNT, locale: domain.lang } };
    const scope = createRequestScope(store, principal, await definitionsOf());
    const files = await prepareElementTexts(domain, elements, scope, fileTexts);
    const context = { scope, files, callables, warn, omit };
    return elements.map((element) => elementText(element, domain, context));
  }

  async function documentsOf(domain: SearchDomain, elements: readonly ElementRevision[]): Promise<IndexedDocument[]> {
    const texts = await textsOf(domain, elements);
    const analyzer = analyzerFor(domain.stem);
    return elements.map((element, i) => indexedDocument(element, texts[i]!, analyzer));
  }

  const collections = (domain: SearchDomain) => collectionRules(domain, { store, definitions: definitionsOf, folderMembers: options.folderMembers });

  async function members(domain: SearchDomain, initids: readonly number[]): Promise<ElementRevision[]> {
    if (initids.length === 0) return [];
    const rules = await collections(domain);
    return (await store.elements.latestMany([...new Set(initids)])).filter((element) => isAlive(element) && (!rules || rules.admits(element))).sort(byInitid);
  }

  return { texts: textsOf, documents: documentsOf, members, collections };
}

const isAlive = (element: ElementRevision) => element.status === "alive";
/** In the order of their lineages. */
export const byInitid = (a: ElementRevision, b: ElementRevision) => a.initid - b.initid;
