import { systemPrincipal } from "../bundle/system-principal.ts";
import type { ElementRevision } from "../elements/smart-element.ts";
import type { Store } from "../ports/store.port.ts";
import type { ElementFilter } from "../queries/element-filter.ts";
import { matchesFilter } from "../queries/filter-match.ts";
import { parseFilter } from "../queries/parse-filter.ts";
import { SEARCH_STRUCTURE } from "../queries/saved-searches.ts";
import type { Definitions } from "../scope/definitions.ts";
import type { SmartStructure } from "../structures/smart-structure.ts";
import type { SearchDomain } from "./search-domain.ts";

/*
 * A search domain's config may name a collection (`collection`: the logical name of a folder or of a
 * saved search): the domain then indexes only the elements of that structure in it. The rules are
 * read afresh for each batch an index takes, so a change of the search's filter or of the folder's
 * content is seen at the next one; a change of the collection element itself reconciles the whole
 * index (change-feed.ts).
 */

/** Which elements a domain's collections let in, and the elements those collections are. */
export interface CollectionRules {
  admits(element: ElementRevision): boolean;
  /** The initids of the folders and saved searches the domain's configs name. */
  readonly sources: ReadonlySet<number>;
}

/** What reading the collections needs. */
export interface CollectionSources {
  readonly store: Store;
  definitions(): Promise<Definitions>;
  /** The initids a folder holds. */
  folderMembers(folder: ElementRevision): Promise<ReadonlySet<number>>;
}

type Admits = (element: ElementRevision) => boolean;
const NOTHING: Admits = () => false;

/** The rules of a domain's collections; undefined when no config names one (every element of its structures is in). */
export async function collectionRules(domain: SearchDomain, sources: CollectionSources): Promise<CollectionRules | undefined> {
  const named = [...new Set(domain.configs.flatMap((config) => (config.collection ? [config.collection] : [])))];
  if (named.length === 0) return undefined;
  const definitions = await sources.definitions();
  const found = new Map((await sources.store.elements.latestByNames(named)).map((element) => [element.name!, element]));
  const rules = new Map<string, Admits>();
  for (const name of named) rules.set(name, await collectionRule(found.get(name), definitions, sources));
  // A structure with a config naming no collection is all in; else an element is in when one of its configs' collections admits it.
  const byStructure = new Map<string, Admits[] | "all">();
  for (const config of domain.configs) {
    const current = byStructure.get(config.structure);
    if (current === "all") continue;
    if (!config.collection) byStructure.set(config.structure, "all");
    else byStructure.set(config.structure, [...(current ?? []), rules.get(config.collection)!]);
  }
  return {
    admits: (element) => {
      const of = byStructure.get(element.structure);
      return of === "all" || (of !== undefined && of.some((admits) => admits(element)));
    },
    sources: new Set([...found.values()].map((element) => element.initid)),
  };
}

async function collectionRule(collection: ElementRevision | undefined, definitions: Definitions, sources: CollectionSources): Promise<Admits> {
  if (!collection || collection.status !== "alive") return NOTHING;
  if (definitions.withDescendants(SEARCH_STRUCTURE).includes(collection.structure)) return searchRule(collection, definitions, sources.store);
  if (definitions.withDescendants("DIR").includes(collection.structure)) {
    const members = await sources.folderMembers(collection);
    return (element) => members.has(element.initid);
  }
  return NOTHING;
}

/** A saved search as a collection: what it finds among alive elements, as its author's rights aside (an index holds every reader's elements). */
async function searchRule(search: ElementRevision, definitions: Definitions, store: Store): Promise<Admits> {
  const values = search.values;
  const famid = typeof values.se_famid === "string" && values.se_famid.trim() !== "" ? values.se_famid.trim() : undefined;
  if (values.se_trash === "only") return NOTHING;
  const structures = famid === undefined ? undefined : new Set(definitions.withDescendants(famid));
  if (famid !== undefined && !definitions.structure(famid)) return NOTHING;
  const text = typeof values.se_filter === "string" && values.se_filter.trim() !== "" ? values.se_filter : undefined;
  let filter: ElementFilter | undefined;
  if (text) {
    const listed = [...(structures ?? definitions.structures().map((structure) => structure.name))];
    try {
      filter = (await parseFilter(text, { structures: listed.map((name) => definitions.structure(name)).filter((s): s is SmartStructure => s !== undefined) }, {
        principal: systemPrincipal(),
        enumerate: (name) => definitions.enumerate(name),
        accountId: async (login) => (await store.accounts.byLogin(login))?.id,
        initidOf: async (name) => (await store.elements.latestByName(name))?.initid,
      })).filter;
    } catch {
      // A stored filter that no longer fits finds nothing, as running the search refuses it.
      return NOTHING;
    }
  }
  return (element) => (!structures || structures.has(element.structure)) && (!filter || matchesFilter(filter, element));
}
