import { elementOf, type DocumentAnswer, type Element, type ListedElement } from "./element.ts";
import { ifMatchHeader, type IfMatch } from "./if-match.ts";
import { fieldsQuery, listQuery, pageOf, type ListOptions, type Page, type RequestParameters } from "./list-query.ts";
import { elementPath, segment } from "./path-segment.ts";
import type { AnyStructure, CreateValues, StructureType, UpdateValues } from "./structure-type.ts";
import type { Transport } from "./transport.ts";
import { writeBody } from "./write-body.ts";

/** Options of reading one element. */
export interface ReadOptions {
  /** Read it under this structure's collection: refused (404 CRUD0220) when it is not of it nor of a structure extending it. */
  readonly structure?: string;
  /** Only these fields' values (and the properties). */
  readonly fields?: readonly string[];
  /** Every property instead of the default ones. */
  readonly allProperties?: boolean;
  readonly signal?: AbortSignal;
}

/** Options of an update or a deletion. */
export interface WriteOptions {
  /** Nothing is written unless the element is still as when this ETag was given (else 412 CRUD0238). */
  readonly ifMatch?: IfMatch;
  readonly structure?: string;
  /** The fields the answer carries (all by default). */
  readonly fields?: readonly string[];
  readonly signal?: AbortSignal;
}

/** A list of the elements of a structure (with `structure`), or of all. */
export interface ElementListOptions<S extends StructureType = AnyStructure> extends ListOptions<S> {
  readonly structure?: S["structure"];
}

/** Smart Elements: list, read, create, update, delete (docs/api.md, Smart Elements). */
export interface ElementsApi {
  /** GET /api/v2/smart-elements (or a structure's elements): a page of the elements the caller may view. */
  list<S extends StructureType = AnyStructure>(options?: ElementListOptions<S>): Promise<Page<ListedElement<S>>>;
  /** GET one element by its name or id: its latest revision, with its ETag. */
  read<S extends StructureType = AnyStructure>(ref: string | number, options?: ReadOptions): Promise<Element<S>>;
  /** GET one element's XML export (the original's import format); `withFiles` puts the files' bytes inside their tags. */
  readXml(ref: string | number, options?: { readonly withFiles?: boolean; readonly signal?: AbortSignal }): Promise<string>;
  /** GET one element's CSV export (the original's import format: //FAM, ORDER and DOC lines). */
  readCsv(ref: string | number, options?: { readonly signal?: AbortSignal }): Promise<string>;
  /** POST a new element of a structure, from flat values: the element created, with its ETag. */
  create<S extends StructureType = AnyStructure>(structure: S["structure"], values: CreateValues<S>, options?: { readonly fields?: readonly string[]; readonly signal?: AbortSignal }): Promise<Element<S>>;
  /** PUT flat values on an element's latest revision: the element as written, with its new ETag. */
  update<S extends StructureType = AnyStructure>(ref: string | number, values: UpdateValues<S>, options?: WriteOptions): Promise<Element<S>>;
  /** DELETE: the whole lineage goes to the trash; the element as it was deleted. */
  delete<S extends StructureType = AnyStructure>(ref: string | number, options?: WriteOptions): Promise<Element<S>>;
}

/** The API's answer of a list of elements. */
export interface ElementListAnswer {
  readonly requestParameters: RequestParameters;
  readonly uri: string;
  readonly documents: DocumentAnswer[];
}

/** The elements area over a transport. */
export function elementsApi(transport: Transport): ElementsApi {
  return {
    async list<S extends StructureType>(options: ElementListOptions<S> = {}) {
      const path = options.structure === undefined ? "/api/v2/smart-elements" : `/api/v2/smart-structures/${segment(options.structure)}/smart-elements`;
      const { data } = await transport.json<ElementListAnswer>({ method: "GET", path, query: listQuery(options), signal: options.signal });
      return pageOf(data, data.documents.map((document) => elementOf<S>(document) as ListedElement<S>));
    },
    async read<S extends StructureType>(ref: string | number, options: ReadOptions = {}) {
      const fields = fieldsQuery(options.fields, options.allProperties);
      const { data, etag } = await transport.json<{ document: DocumentAnswer }>({
        method: "GET", path: elementPath(ref, options.structure), query: { fields }, signal: options.signal,
      });
      return elementOf<S>(data.document, etag);
    },
    async readXml(ref, options = {}) {
      const query = options.withFiles ? { withFiles: "true" } : undefined;
      const response = await transport.raw({ method: "GET", path: `${elementPath(ref)}.xml`, query, accept: "application/xml", signal: options.signal });
      return response.text();
    },
    async readCsv(ref, options = {}) {
      const response = await transport.raw({ method: "GET", path: `${elementPath(ref)}.csv`, accept: "text/csv", signal: options.signal });
      return response.text();
    },
    async create<S extends StructureType>(structure: S["structure"], values: CreateValues<S>, options: { readonly fields?: readonly string[]; readonly signal?: AbortSignal } = {}) {
      const { data, etag } = await transport.json<{ document: DocumentAnswer }>({
        method: "POST", path: `/api/v2/smart-structures/${segment(structure)}/smart-elements`,
        query: { fields: fieldsQuery(options.fields) }, ...writeBody(values), signal: options.signal,
      });
      return elementOf<S>(data.document, etag);
    },
    async update<S extends StructureType>(ref: string | number, values: UpdateValues<S>, options: WriteOptions = {}) {
      const { data, etag } = await transport.json<{ document: DocumentAnswer }>({
        method: "PUT", path: elementPath(ref, options.structure), query: { fields: fieldsQuery(options.fields) },
        headers: ifMatchHeader(options.ifMatch), ...writeBody(values), signal: options.signal,
      });
      return elementOf<S>(data.document, etag);
    },
    async delete<S extends StructureType>(ref: string | number, options: WriteOptions = {}) {
      const { data } = await transport.json<{ document: DocumentAnswer }>({
        method: "DELETE", path: elementPath(ref, options.structure), query: { fields: fieldsQuery(options.fields) },
        headers: ifMatchHeader(options.ifMatch), signal: options.signal,
      });
      return elementOf<S>(data.document);
    },
  };
}
