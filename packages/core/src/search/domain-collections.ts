import { systemPrincipal } from "../bundle/system-principal.ts";
import type { ElementRevision } from "../elements/smart-element.ts";
import type { Store } from "../ports/store.port.ts";
import type { ElementFilter } from "../queries/element-filter.ts";
import { matchesFilter } from "../queries/filter-match.ts";
import { parseFilter } from "../queries/parse-filter.ts";
import { FOLDER_STRUCTURE, SEARCH_STRUCTURE } from "../queries/system-structures.ts";
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
  /** The domain's members among the elements of its structures, as a list filter (a store applies it to the lists of the domain). */
  readonly filter: ElementFilter;
  admits(element: ElementRevision): boolean;
  /** The initids of the folders and saved searches the domain's configs name. */
  readonly sources: ReadonlySet<number>;
}

/** What reading the collections needs. */
export interface CollectionSources {
  readonly store: Store;
  definitions(): Promise<Definitions>;
  /** The initids a folder holds. */
  folderMembers(folder: ElementRevision): Promise<readonly number[]>;
}

const NOTHING: ElementFilter = { kind: "group", logic: "or", nodes: [] };
const EVERYTHING: ElementFilter = { kind: "group", logic: "and", nodes: [] };
const structuresIn = (names: readonly string[]): ElementFilter => ({ kind: "property", property: "fromname", comparison: "text", operator: "in", values: names });
const both = (a: ElementFilter, b: ElementFilter): ElementFilter => ({ kind: "group", logic: "and", nodes: [a, b] });

/** The rules of a domain's collections; undefined when no config names one (every element of its structures is in). */
export async function collectionRules(domain: SearchDomain, sources: CollectionSources): Promise<CollectionRules | undefined> {
  const named = [...new Set(domain.configs.flatMap((config) => (config.collection ? [config.collection] : [])))];
  if (named.length === 0) return undefined;
  const definitions = await sources.definitions();
  const found = new Map((await sources.store.elements.latestByNames(named)).map((element) => [element.name!, element]));
  const rules = new Map<string, ElementFilter>();
  for (const name of named) rules.set(name, await collectionFilter(found.get(name), definitions, sources));
  // An element of a structure is in when one of that structure's configs lets it in: one naming no collection lets all in.
  const structures = [...new Set(domain.configs.map((config) => config.structure))];
  const filter: ElementFilter = {
    kind: "group", logic: "or",
    nodes: structures.map((structure) => {
      const configs = domain.configs.filter((config) => config.structure === structure);
      const admits = configs.some((config) => !config.collection) ? EVERYTHING : { kind: "group", logic: "or", nodes: configs.map((config) => rules.get(config.collection!)!) } as const;
      return both(structuresIn([structure]), admits);
    }),
  };
  return {
    filter,
    admits: (element) => matchesFilter(filter, element),
    sources: new Set([...found.values()].map((element) => element.initid)),
  };
}

async function collectionFilter(collection: ElementRevision | undefined, definitions: Definitions, sources: CollectionSources): Promise<ElementFilter> {
  if (!collection || collection.status !== "alive") return NOTHING;
  if (definitions.withDescendants(SEARCH_STRUCTURE).includes(collection.structure)) return searchFilter(collection, definitions, sources.store);
  if (definitions.withDescendants(FOLDER_STRUCTURE).includes(collection.structure)) {
    const members = await sources.folderMembers(collection);
    return { kind: "property", property: "initid", comparison: "number", operator: "in", values: members };
  }
  return NOTHING;
}

/** A saved search as a collection: what it finds among alive elements, its author's rights aside (an index holds every reader's elements). */
async function searchFilter(search: ElementRevision, definitions: Definitions, store: Store): Promise<ElementFilter> {
  const values = search.values;
  if (values.se_trash === "only") return NOTHING;
  const famid = typeof values.se_famid === "string" && values.se_famid.trim() !== "" ? values.se_famid.trim() : undefined;
  if (famid !== undefined && !definitions.structure(famid)) return NOTHING;
  const listed = famid === undefined ? definitions.structures().map((structure) => structure.name) : definitions.withDescendants(famid);
  const text = typeof values.se_filter === "string" && values.se_filter.trim() !== "" ? values.se_filter : undefined;
  if (!text) return famid === undefined ? EVERYTHING : structuresIn(listed);
  try {
    const parsed = await parseFilter(text, { structures: listed.map((name) => definitions.structure(name)).filter((s): s is SmartStructure => s !== undefined) }, {
      principal: systemPrincipal(),
      enumerate: (name) => definitions.enumerate(name),
      accountId: async (login) => (await store.accounts.byLogin(login))?.id,
      initidOf: async (name) => (await store.elements.latestByName(name))?.initid,
    });
    return famid === undefined ? parsed.filter : both(structuresIn(listed), parsed.filter);
  } catch {
    // A stored filter that no longer fits finds nothing, as running the search refuses it.
    return NOTHING;
  }
}
