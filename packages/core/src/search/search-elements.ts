import { parseFieldsSelection } from "../elements/fields-selection.ts";
import type { Stamped } from "../scope/definitions.ts";
import type { ChangeStamp } from "../ports/change-clock.port.ts";
import { renderDocument, type DocumentView } from "../elements/element-view.ts";
import type { ElementRevision } from "../elements/smart-element.ts";
import { checkAllSlice, formatOrderBy, parseListParameters, sliceLimit, type ListQuery } from "../elements/list-parameters.ts";
import type { RequestScope } from "../scope/request-scope.ts";
import { listScope } from "../access/element-profile.ts";
import { highlight } from "./highlight.ts";
import { domainStructures, type SearchDomain } from "./search-domain.ts";
import type { SearchEngine } from "./search-engine.ts";
import { fullText } from "./element-text.ts";
import { widestStructure } from "../access/field-visibility.ts";
import { fieldIndex, flattenFields } from "../structures/smart-structure.ts";
import { visibilityOf } from "../structures/smart-field.ts";
import { listFilter, wantsCount, type FilterOption } from "../queries/list-filter.ts";
import { matchesFilter } from "../queries/filter-match.ts";
import type { ElementFilter } from "../queries/element-filter.ts";
import { isEmptyQuery, matchesQuery, needsTextCheck, parseSearchQuery, termPositions, type SearchQuery } from "./search-query.ts";

/** Query parameters of the full-text search route, as strings. */
export interface FullSearchQuery extends ListQuery, Stamped {
  readonly q?: string | undefined;
  readonly fields?: string | undefined;
  /** Only the elements passing this filter (queries-and-events contract, 1). */
  readonly filter?: FilterOption | undefined;
  /** `true` or `1`: the answer tells how many elements match (`requestParameters.total`). */
  readonly count?: boolean | string | undefined;
}

/** A search result item: the element as a list shows it, and its highlighted fragment. */
export type SearchResultItem = DocumentView & { highlights: string };

/** The order echoed when results are by relevance. */
export const RELEVANCE_ORDER = "relevance desc, id asc";

/** The most hits whose elements are read at once. */
const MAX_CHUNK = 500;

function take<T>(iterator: Iterator<T>, count: number): T[] {
  const taken: T[] = [];
  while (taken.length < count) {
    const next = iterator.next();
    if (next.done) break;
    taken.push(next.value);
  }
  return taken;
}

/**
 * The elements of the hits that the principal may view (and whose text
 * holds the query's phrases), after skipping `offset` of them, at most
 * `limit`. Hits are read a chunk at a time, each chunk in one batch read
 * (and its texts, for phrases, in one batch), the first chunk as large as
 * the page: a page costs one read unless the principal may not view many hits.
 * `texts` receives the text a phrase was checked against, for highlights.
 */
async function matchingElements(
  scope: RequestScope, engine: SearchEngine, domain: SearchDomain, query: SearchQuery, structures: readonly string[],
  offset: number, limit: number, texts: Map<ElementRevision, string>, stamp: ChangeStamp | undefined, filter: ElementFilter | undefined,
): Promise<ElementRevision[]> {
  const analyzer = engine.analyzer(domain);
  const exact = !needsTextCheck(query);
  const hidden = hiddenFields(scope);
  const hits = (await engine.search(domain, query, structures, stamp))[Symbol.iterator]();
  const rows: ElementRevision[] = [];
  let skipped = 0;
  for (let chunk = Math.min(offset + limit, MAX_CHUNK); ; chunk = Math.min(chunk * 2, MAX_CHUNK)) {
    const ids = take(hits, chunk).map((hit) => hit.id);
    if (ids.length === 0) return rows;
    const found = new Map((await scope.repos.elements.latestMany(ids)).map((element) => [element.initid, element]));
    let candidates = ids.map((id) => found.get(id)).filter((e): e is ElementRevision => e !== undefined && e.status === "alive" && scope.canView(e) && (!filter || matchesFilter(filter, e)));
    // Phrases are checked against the text, and so is every hit of an element whose indexed text holds
    // fields this reader may not see: the index matched what others may find.
    const checked = exact ? candidates.filter((element) => hidden(element.structure).size > 0) : candidates;
    if (checked.length > 0) {
      const rendered = await engine.texts(domain, checked, hidden);
      const failed = new Set<ElementRevision>();
      checked.forEach((element, i) => {
        const text = fullText(rendered[i]!);
        if (matchesQuery(query, termPositions(analyzer.tokens(text)))) texts.set(element, text);
        else failed.add(element);
      });
      candidates = candidates.filter((element) => !failed.has(element));
    }
    for (const element of candidates) {
      if (skipped < offset) {
        skipped++;
        continue;
      }
      rows.push(element);
      if (rows.length >= limit) return rows;
    }
  }
}

/**
 * The fields of a structure the index holds (some reader may see them: widestStructure) that this
 * reader may not see, by structure name (memoised for the request).
 */
function hiddenFields(scope: RequestScope): (structure: string) => ReadonlySet<string> {
  const found = new Map<string, ReadonlySet<string>>();
  return (name) => {
    let hidden = found.get(name);
    if (hidden) return hidden;
    const defined = scope.definitions.structure(name);
    const mine = scope.structure(name);
    hidden = new Set<string>();
    if (defined && mine) {
      const wide = widestStructure(defined, defined.fieldAccess === undefined ? undefined : scope.definitions.fieldAccess(defined.fieldAccess));
      const seen = fieldIndex(mine);
      for (const field of flattenFields(wide)) {
        const own = seen.get(field.id);
        if (visibilityOf(field) !== "I" && (!own || visibilityOf(own) === "I")) (hidden as Set<string>).add(field.id);
      }
    }
    found.set(name, hidden);
    return hidden;
  };
}

/**
 * GET /api/v2/fullsearch/domains/<domain>/smart-elements/: the elements of a
 * domain matching `q`, best first, that the principal may view (paged after
 * that filter). Without `q`, the domain's elements in `orderBy` order.
 */
export async function searchElements(scope: RequestScope, engine: SearchEngine, domainName: string, query: FullSearchQuery) {
  const domain = await engine.domain(domainName, query.stamp);
  const q = query.q?.trim() ?? "";
  const selection = parseFieldsSelection(query.fields, "list");
  // Rights are per element: the hits are filtered one by one (scope.canView), a list by the store. A structure
  // whose profile the principal may not view holds viewable elements only under profiles of their own (or their
  // state's): when no element is under one the principal may view, its hits are left out before they are read.
  const scoped = await listScope(scope.repos.elements, domainStructures(domain), scope.readable());
  const structures = scoped.structures ?? [];
  const uri = `/api/v2/fullsearch/domains/${domainName}/smart-elements/`;
  const itemUri = (row: ElementRevision) => `/api/v2/smart-elements/${row.initid}.json`;
  const parameters = parseListParameters(query, "title:asc", structures.length === 1 ? scope.structure(structures[0]!) : undefined);
  const limit = sliceLimit(parameters.slice, query.maxSlice);
  const filter = await listFilter(scope, query.filter, domainStructures(domain));
  const counted = wantsCount(query.count);
  let total: number | undefined;
  const analyzer = engine.analyzer(domain);

  let rows: ElementRevision[];
  // The text a phrase was checked against, kept for its highlights: building it renders every field again.
  const texts = new Map<ElementRevision, string>();
  const parsed = q === "" ? undefined : parseSearchQuery(q, analyzer);
  if (parsed === undefined) {
    // Without q the store lists the domain's elements: those of its collections only, as its index holds.
    const members = await engine.members(domain);
    const narrowed = members && filter ? { kind: "group" as const, logic: "and" as const, nodes: [members, filter.filter] } : members ?? filter?.filter;
    const listed = { status: "alive" as const, ...scoped, ...(narrowed ? { filter: narrowed } : {}) };
    rows = structures.length === 0 ? [] : await scope.repos.elements.list({ ...listed, orderBy: parameters.orderBy, limit, offset: parameters.offset });
    if (counted) total = structures.length === 0 ? 0 : await scope.repos.elements.count(listed);
  } else if (isEmptyQuery(parsed) || structures.length === 0) {
    rows = [];
    if (counted) total = 0;
  } else {
    rows = await matchingElements(scope, engine, domain, parsed, structures, parameters.offset, limit, texts, query.stamp, filter?.filter);
    // Hits are checked one by one (rights, phrases, the filter): counting them all reads every hit (docs/limits.md).
    if (counted) total = (await matchingElements(scope, engine, domain, parsed, structures, 0, Number.MAX_SAFE_INTEGER, new Map(), query.stamp, filter?.filter)).length;
  }
  checkAllSlice(parameters.slice, rows, query.maxSlice);
  await scope.prepare(rows, selection);
  if (parsed !== undefined) {
    const untexted = rows.filter((row) => !texts.has(row));
    const rendered = await engine.texts(domain, untexted, hiddenFields(scope));
    untexted.forEach((row, i) => texts.set(row, fullText(rendered[i]!)));
  }
  const documents: SearchResultItem[] = rows.map((row) => ({
    ...renderDocument(row, selection, scope, "list", itemUri(row)),
    highlights: parsed === undefined ? "" : highlight(texts.get(row)!, parsed, analyzer),
  }));
  return {
    requestParameters: {
      slice: parameters.slice,
      offset: parameters.offset,
      length: documents.length,
      orderBy: parsed === undefined ? formatOrderBy(parameters.orderBy) : RELEVANCE_ORDER,
      q,
      searchDomain: domainName,
      ...(filter ? { filter: filter.echo } : {}),
      ...(total === undefined ? {} : { total }),
    },
    uri,
    documents,
  };
}

/** A page of search results, best first, with highlights. */
export type SearchResults = Awaited<ReturnType<typeof searchElements>>;
