import { elementOf, type DocumentAnswer, type ListedElement } from "./element.ts";
import type { ElementListAnswer } from "./elements.ts";
import { listQuery, pageOf, type ListOptions, type Page } from "./list-query.ts";
import { segment } from "./path-segment.ts";
import type { AnyStructure, StructureType } from "./structure-type.ts";
import type { Transport } from "./transport.ts";

/** A page of a collection's content (a folder's, a saved search's results), with the collection's own id and title. */
export interface CollectionPage<T> extends Page<T> {
  readonly collection: { readonly initid: number; readonly title: string };
}

/** Folders (docs/api.md, Folders): elements of DIR holding elements chosen by hand. */
export interface FoldersApi {
  /** GET /api/v2/folders: the folders the caller may view. */
  list(options?: ListOptions): Promise<Page<ListedElement>>;
  /** GET /api/v2/folders/<folder>/smart-elements: what a folder holds. */
  content<S extends StructureType = AnyStructure>(folder: string | number, options?: ListOptions<S>): Promise<CollectionPage<ListedElement<S>>>;
  /** PUT: puts an element in a folder (again: nothing changes); the element as the folder lists it. */
  add(folder: string | number, ref: string | number, options?: { readonly signal?: AbortSignal }): Promise<ListedElement>;
  /** DELETE: takes an element out of a folder. */
  remove(folder: string | number, ref: string | number, options?: { readonly signal?: AbortSignal }): Promise<ListedElement>;
}

/** The API's answer of a collection's content. */
export interface CollectionAnswer extends ElementListAnswer {
  readonly properties: { readonly initid: number; readonly title: string };
}

/** A collection's page from its answer. */
export function collectionPageOf<S extends StructureType>(data: CollectionAnswer): CollectionPage<ListedElement<S>> {
  return { ...pageOf(data, data.documents.map((document) => elementOf<S>(document) as ListedElement<S>)), collection: data.properties };
}

/** The folders area over a transport. */
export function foldersApi(transport: Transport): FoldersApi {
  const membership = async (method: "PUT" | "DELETE", folder: string | number, ref: string | number, signal: AbortSignal | undefined) => {
    const { data } = await transport.json<{ document: DocumentAnswer }>({ method, path: `/api/v2/folders/${segment(folder)}/smart-elements/${segment(ref)}`, signal });
    return elementOf(data.document) as ListedElement;
  };
  return {
    async list(options = {}) {
      const { data } = await transport.json<ElementListAnswer>({ method: "GET", path: "/api/v2/folders", query: listQuery(options), signal: options.signal });
      return pageOf(data, data.documents.map((document) => elementOf(document) as ListedElement));
    },
    async content<S extends StructureType>(folder: string | number, options: ListOptions<S> = {}) {
      const { data } = await transport.json<CollectionAnswer>({ method: "GET", path: `/api/v2/folders/${segment(folder)}/smart-elements`, query: listQuery(options), signal: options.signal });
      return collectionPageOf<S>(data);
    },
    add: (folder, ref, options = {}) => membership("PUT", folder, ref, options.signal),
    remove: (folder, ref, options = {}) => membership("DELETE", folder, ref, options.signal),
  };
}
