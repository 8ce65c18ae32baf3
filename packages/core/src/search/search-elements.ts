import { parseFieldsSelection } from "../element/fields-selection.ts";
import { renderDocument, type DocumentView } from "../element/element-view.ts";
import type { ElementRevision } from "../element/smart-element.ts";
import { checkAllSlice, formatOrderBy, parseListParameters, sliceLimit, type ListQuery } from "../elements/list-parameters.ts";
import type { ReadScope } from "../elements/read-scope.ts";
import { highlight } from "./highlight.ts";
import { domainStructures } from "./search-domain.ts";
import type { SearchEngine } from "./search-engine.ts";
import { fullText } from "./element-text.ts";
import { isEmptyQuery, matchesQuery, needsTextCheck, parseSearchQuery, termPositions } from "./search-query.ts";

/** Query parameters of the full-text search route, as strings. */
export interface FullSearchQuery extends ListQuery {
  readonly q?: string | undefined;
  readonly fields?: string | undefined;
}

/** A search result item: the element as a list shows it, and its highlighted fragment. */
export type SearchResultItem = DocumentView & { highlights: string };

/** The order echoed when results are by relevance. */
export const RELEVANCE_ORDER = "relevance desc, id asc";

/**
 * GET /api/v2/fullsearch/domains/<domain>/smart-elements/: the elements of a
 * domain matching `q`, best first, that the principal may view (paged after
 * that filter). Without `q`, the domain's elements in `orderBy` order.
 */
export function searchElements(scope: ReadScope, engine: SearchEngine, domainName: string, query: FullSearchQuery) {
  const domain = engine.domain(domainName);
  const q = query.q?.trim() ?? "";
  const selection = parseFieldsSelection(query.fields, "list");
  const viewable = scope.viewableStructures();
  const structures = domainStructures(domain).filter((s) => viewable === undefined || viewable.includes(s));
  const uri = `/api/v2/fullsearch/domains/${domainName}/smart-elements/`;
  const itemUri = (row: ElementRevision) => `/api/v2/smart-elements/${row.initid}.json`;
  const parameters = parseListParameters(query, "title:asc", structures.length === 1 ? scope.structure(structures[0]!) : undefined);
  const limit = sliceLimit(parameters.slice, query.maxSlice);
  const analyzer = engine.analyzer(domain);

  let rows: ElementRevision[];
  // The text a phrase was checked against, kept for its highlights: building it renders every field again.
  const texts = new Map<ElementRevision, string>();
  const parsed = q === "" ? undefined : parseSearchQuery(q, analyzer);
  if (parsed === undefined) {
    rows = structures.length === 0 ? [] : scope.store.elements.list({
      status: "alive", structures, orderBy: parameters.orderBy, limit, offset: parameters.offset,
    });
  } else if (isEmptyQuery(parsed) || structures.length === 0) {
    rows = [];
  } else {
    const exact = !needsTextCheck(parsed);
    rows = [];
    let skipped = 0;
    for (const hit of engine.search(domain, parsed, structures)) {
      if (rows.length >= limit) break;
      const element = scope.store.elements.latest(hit.id);
      if (!element || element.status !== "alive" || !scope.canView(element)) continue;
      if (!exact) {
        const text = fullText(engine.text(domain, element));
        if (!matchesQuery(parsed, termPositions(analyzer.tokens(text)))) continue;
        texts.set(element, text);
      }
      if (skipped < parameters.offset) {
        skipped++;
        continue;
      }
      rows.push(element);
    }
  }
  checkAllSlice(parameters.slice, rows, query.maxSlice);
  const documents: SearchResultItem[] = rows.map((row) => ({
    ...renderDocument(row, selection, scope, "list", itemUri(row)),
    highlights: parsed === undefined ? "" : highlight(texts.get(row) ?? fullText(engine.text(domain, row)), parsed, analyzer),
  }));
  return {
    requestParameters: {
      slice: parameters.slice,
      offset: parameters.offset,
      length: documents.length,
      orderBy: parsed === undefined ? formatOrderBy(parameters.orderBy) : RELEVANCE_ORDER,
      q,
      searchDomain: domainName,
    },
    uri,
    documents,
  };
}
