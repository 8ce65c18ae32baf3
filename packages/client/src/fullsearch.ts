import { elementOf, type DocumentAnswer, type ListedElement } from "./element.ts";
import { listQuery, pageOf, type ListOptions, type Page, type RequestParameters } from "./list-query.ts";
import { segment } from "./path-segment.ts";
import type { AnyStructure, StructureType } from "./structure-type.ts";
import type { Transport } from "./transport.ts";

/** A result of a full-text search: the element, and the text around the terms found (each term in `[[[ ]]]`). */
export interface SearchHit<S extends StructureType = AnyStructure> extends ListedElement<S> {
  readonly highlights: string;
}

/** A search domain as its administration shows it (docs/search.md). */
export interface SearchDomain {
  readonly name: string;
  readonly lang: string;
  readonly stem: string;
  readonly configs: readonly unknown[];
  readonly database: {
    readonly structures: Readonly<Record<string, { readonly totalToIndex: number; readonly totalIndexed: number; readonly totalDirty: number }>>;
    readonly [more: string]: unknown;
  };
  readonly [more: string]: unknown;
}

/** Full-text search, and its administration (role fullsearch_administrator). */
export interface FullsearchApi {
  /** GET /api/v2/fullsearch/domains/<domain>/smart-elements?q=…: a page of results, by relevance unless `orderBy` says otherwise. */
  search<S extends StructureType = AnyStructure>(domain: string, q: string, options?: ListOptions<S>): Promise<Page<SearchHit<S>>>;
  /** GET /api/admin/fullsearch/domains: the domains, their configuration and volumes. */
  domains(options?: { readonly signal?: AbortSignal }): Promise<SearchDomain[]>;
  /** POST /api/admin/fullsearch/domains: reindexes what is outdated; the server's answer. */
  reindex(options?: { readonly signal?: AbortSignal }): Promise<unknown>;
}

/** The full-text search area over a transport. */
export function fullsearchApi(transport: Transport): FullsearchApi {
  return {
    async search<S extends StructureType>(domain: string, q: string, options: ListOptions<S> = {}) {
      const { data } = await transport.json<{ requestParameters: RequestParameters; uri: string; documents: (DocumentAnswer & { highlights?: string })[] }>({
        method: "GET", path: `/api/v2/fullsearch/domains/${segment(domain)}/smart-elements`, query: { ...listQuery(options), q }, signal: options.signal,
      });
      return pageOf(data, data.documents.map((document) => ({ ...(elementOf<S>(document) as ListedElement<S>), highlights: document.highlights ?? "" })));
    },
    async domains(options = {}) {
      const { data } = await transport.json<{ config: SearchDomain[] }>({ method: "GET", path: "/api/admin/fullsearch/domains", signal: options.signal });
      return data.config;
    },
    async reindex(options = {}) {
      const { data } = await transport.json<unknown>({ method: "POST", path: "/api/admin/fullsearch/domains", json: {}, signal: options.signal });
      return data;
    },
  };
}
