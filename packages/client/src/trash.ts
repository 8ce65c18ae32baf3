import { elementOf, type DocumentAnswer, type Element, type ListedElement } from "./element.ts";
import type { ElementListAnswer } from "./elements.ts";
import { fieldsQuery, listQuery, pageOf, type ListOptions, type Page } from "./list-query.ts";
import { segment } from "./path-segment.ts";
import { revisionsApi, type RevisionsApi } from "./revisions.ts";
import type { AnyStructure, StructureType } from "./structure-type.ts";
import type { Transport } from "./transport.ts";

/** The trash (docs/api.md, Trash): deleted elements, their revisions and history, and restoring them. */
export interface TrashApi {
  /** GET /api/v2/trash: a page of the deleted elements the caller may view. */
  list<S extends StructureType = AnyStructure>(options?: ListOptions<S>): Promise<Page<ListedElement<S>>>;
  /** GET one deleted element. */
  read<S extends StructureType = AnyStructure>(ref: string | number, options?: { readonly fields?: readonly string[]; readonly signal?: AbortSignal }): Promise<Element<S>>;
  /** A revision of a deleted element (`revisions.read` of the trash). */
  revision<S extends StructureType = AnyStructure>(ref: string | number, revision: number, options?: { readonly fields?: readonly string[]; readonly signal?: AbortSignal }): Promise<Element<S>>;
  /** The revisions of a deleted element. */
  revisions<S extends StructureType = AnyStructure>(ref: string | number, options?: Parameters<RevisionsApi["list"]>[1]): Promise<Page<ListedElement<S>>>;
  /** The history of a deleted element. */
  history: RevisionsApi["history"];
  /** PUT: brings the element back from the trash, alive; the element restored. */
  restore<S extends StructureType = AnyStructure>(ref: string | number, options?: { readonly signal?: AbortSignal }): Promise<Element<S>>;
}

/** The trash area over a transport. */
export function trashApi(transport: Transport): TrashApi {
  const inTrash = revisionsApi(transport, (ref) => `/api/v2/trash/${segment(ref)}`);
  return {
    history: inTrash.history,
    revision: (ref, revision, options) => inTrash.read(ref, revision, options),
    revisions: (ref, options) => inTrash.list(ref, options),
    async list<S extends StructureType>(options: ListOptions<S> = {}) {
      const { data } = await transport.json<ElementListAnswer>({ method: "GET", path: "/api/v2/trash", query: listQuery(options), signal: options.signal });
      return pageOf(data, data.documents.map((document) => elementOf<S>(document) as ListedElement<S>));
    },
    async read<S extends StructureType>(ref: string | number, options: { readonly fields?: readonly string[]; readonly signal?: AbortSignal } = {}) {
      const { data, etag } = await transport.json<{ document: DocumentAnswer }>({
        method: "GET", path: `/api/v2/trash/${segment(ref)}`, query: { fields: fieldsQuery(options.fields) }, signal: options.signal,
      });
      return elementOf<S>(data.document, etag);
    },
    async restore<S extends StructureType>(ref: string | number, options: { readonly signal?: AbortSignal } = {}) {
      const { data, etag } = await transport.json<{ document: DocumentAnswer }>({
        method: "PUT", path: `/api/v2/trash/${segment(ref)}`, json: { document: { properties: { status: "alive" } } }, signal: options.signal,
      });
      return elementOf<S>(data.document, etag);
    },
  };
}
