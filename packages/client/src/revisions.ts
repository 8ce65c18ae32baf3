import { elementOf, type DocumentAnswer, type Element, type ListedElement } from "./element.ts";
import { fieldsQuery, pageOf, pageQuery, type Page, type PageOptions, type RequestParameters } from "./list-query.ts";
import { elementPath, segment } from "./path-segment.ts";
import type { AnyStructure, StructureType } from "./structure-type.ts";
import type { Transport } from "./transport.ts";

/** Where an element's revisions are: among the alive elements (under a structure when named), or in the trash. */
export interface RevisionPlace {
  readonly structure?: string;
  readonly signal?: AbortSignal;
}

/** A list of revisions: a page, the fields each carries. */
export interface RevisionListOptions extends PageOptions, RevisionPlace {
  readonly fields?: readonly string[];
}

/** One line of an element's history. */
export interface HistoryMessage {
  readonly uid: number;
  readonly uname: string;
  readonly date: string;
  readonly level: string;
  readonly code: string;
  readonly comment: string;
}

/** The history of one revision: its properties and its lines. */
export interface HistoryEntry {
  readonly uri: string;
  readonly properties: {
    readonly id: number;
    readonly initid: number;
    readonly title: string;
    readonly status: string;
    readonly revision: number;
    readonly owner: { readonly id: string; readonly title: string };
    readonly state?: { readonly reference: string; readonly stateLabel?: string; readonly activity?: string | null; readonly color?: string } | null;
    readonly version: string | null;
    readonly revisionDate: string;
  };
  readonly messages: HistoryMessage[];
}

/** An element's history: newest revision first. */
export interface History {
  readonly uri: string;
  readonly entries: HistoryEntry[];
}

/** The history's options: how many revisions (all by default), from which, or one revision only. */
export interface HistoryOptions extends RevisionPlace {
  readonly slice?: number;
  readonly offset?: number;
  readonly revision?: number;
}

/** Revisions and history of an element (docs/api.md, Revisions); the trash's are `client.trash`'s. */
export interface RevisionsApi {
  /** GET …/revisions: a page of the element's revisions, newest first. */
  list<S extends StructureType = AnyStructure>(ref: string | number, options?: RevisionListOptions): Promise<Page<ListedElement<S>>>;
  /** GET …/revisions/<n>: one revision, with its ETag. */
  read<S extends StructureType = AnyStructure>(ref: string | number, revision: number, options?: RevisionPlace & { readonly fields?: readonly string[] }): Promise<Element<S>>;
  /** GET …/history: what happened to each revision. */
  history(ref: string | number, options?: HistoryOptions): Promise<History>;
}

/** The revisions of elements under `base` (`elementPath`, or the trash's). */
export function revisionsApi(transport: Transport, base: (ref: string | number, place: RevisionPlace) => string = (ref, place) => elementPath(ref, place.structure)): RevisionsApi {
  return {
    async list<S extends StructureType>(ref: string | number, options: RevisionListOptions = {}) {
      const { data } = await transport.json<{ requestParameters: RequestParameters; uri: string; revisions: DocumentAnswer[] }>({
        method: "GET", path: `${base(ref, options)}/revisions`, query: { ...pageQuery(options), fields: fieldsQuery(options.fields) }, signal: options.signal,
      });
      return pageOf(data, data.revisions.map((revision) => elementOf<S>(revision) as ListedElement<S>));
    },
    async read<S extends StructureType>(ref: string | number, revision: number, options: RevisionPlace & { readonly fields?: readonly string[] } = {}) {
      const { data, etag } = await transport.json<{ revision: DocumentAnswer }>({
        method: "GET", path: `${base(ref, options)}/revisions/${segment(revision)}`, query: { fields: fieldsQuery(options.fields) }, signal: options.signal,
      });
      return elementOf<S>(data.revision, etag);
    },
    async history(ref, options = {}) {
      const { data } = await transport.json<{ uri: string; history: HistoryEntry[] }>({
        method: "GET", path: `${base(ref, options)}/history`,
        query: { slice: options.slice, offset: options.offset, revision: options.revision }, signal: options.signal,
      });
      return { uri: data.uri, entries: data.history };
    },
  };
}
