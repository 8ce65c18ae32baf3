import { elementOf, type ListedElement } from "./element.ts";
import type { ElementListAnswer } from "./elements.ts";
import { collectionPageOf, type CollectionAnswer, type CollectionPage } from "./folders.ts";
import { listQuery, pageOf, type ListOptions, type Page } from "./list-query.ts";
import { segment } from "./path-segment.ts";
import type { AnyStructure, StructureType } from "./structure-type.ts";
import type { Transport } from "./transport.ts";

/** Saved searches and reports (docs/api.md, Saved searches): elements of SEARCH and REPORT, run through the lists' code. */
export interface SearchesApi {
  /** GET /api/v2/searches: the saved searches the caller may view. */
  list(options?: ListOptions): Promise<Page<ListedElement>>;
  /** GET /api/v2/searches/<search>/smart-elements: runs one; the request's filter is added to its own, its page and order win. */
  run<S extends StructureType = AnyStructure>(search: string | number, options?: ListOptions<S>): Promise<CollectionPage<ListedElement<S>>>;
}

/** The saved searches area over a transport. */
export function searchesApi(transport: Transport): SearchesApi {
  return {
    async list(options = {}) {
      const { data } = await transport.json<ElementListAnswer>({ method: "GET", path: "/api/v2/searches", query: listQuery(options), signal: options.signal });
      return pageOf(data, data.documents.map((document) => elementOf(document) as ListedElement));
    },
    async run<S extends StructureType>(search: string | number, options: ListOptions<S> = {}) {
      const { data } = await transport.json<CollectionAnswer>({ method: "GET", path: `/api/v2/searches/${segment(search)}/smart-elements`, query: listQuery(options), signal: options.signal });
      return collectionPageOf<S>(data);
    },
  };
}
