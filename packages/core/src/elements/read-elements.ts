import { LineageError } from "../errors/lineage-error.ts";
import { elementEtag } from "./etag.ts";
import { revisionUri, trashUri } from "./element-uri.ts";
import { parseFieldsSelection } from "./fields-selection.ts";
import { renderDocument, stateProperty, type DocumentView } from "./element-view.ts";
import { statusProperty, type ElementRevision } from "./smart-element.ts";
import type { LineageStatus } from "./smart-element.ts";
import type { ElementCountQuery, ElementQuery, OrderTerm } from "../ports/element-repository.port.ts";
import { revisionOrder } from "./revision-order.ts";
import { describeStructure, type FieldDescription } from "../structures/structure-description.ts";
import { checkAllSlice, formatOrderBy, parseListParameters, parseOffset, sliceLimit, type ListQuery } from "./list-parameters.ts";
import { etagFor } from "./if-match.ts";
import { CONSULT_RULES, HISTORY_RULES, REVISIONS_RULES, locateDeleted, locateElement } from "./locate-element.ts";
import type { RequestScope } from "../scope/request-scope.ts";
import { listScope } from "../access/element-profile.ts";
import type { Stamped } from "../scope/definitions.ts";
import { listFilter, wantsCount, type FilterOption } from "../queries/list-filter.ts";
import type { ParsedFilter } from "../queries/parse-filter.ts";
import type { ElementFilter } from "../queries/element-filter.ts";

/** One element (latest revision) as GET serves it. */
export interface ElementReading {
  readonly revision: ElementRevision;
  readonly etag: string;
  readonly data: { document: DocumentView; family?: { structure: Record<string, FieldDescription> } };
}

/** `stamp`: the platform's reading cache is checked against it too. */
export interface ConsultOptions extends Stamped {
  readonly fields?: string | undefined;
  readonly family?: string | undefined;
  /** Read from the trash: the element must be deleted. */
  readonly trash?: boolean;

}

function familyPart(scope: RequestScope, revision: ElementRevision) {
  const structure = scope.structure(revision.structure);
  return { structure: structure ? describeStructure(structure, scope.locale) : {} };
}

/** GET one element (or one deleted element from the trash), with its ETag. */
export async function readElement(scope: RequestScope, ref: string, options: ConsultOptions = {}): Promise<ElementReading> {
  const selection = parseFieldsSelection(options.fields, "one");
  const revision = options.trash ? await locateDeleted(scope, ref) : await locateElement(scope, ref, CONSULT_RULES, options.family);
  await scope.prepare([revision], selection);
  const data: ElementReading["data"] = { document: renderDocument(revision, selection, scope, "one") };
  if (selection.structure) data.family = familyPart(scope, revision);
  const etag = await etagFor(scope, revision);
  return { revision, etag, data };
}

export interface ListOptions extends ListQuery, Stamped {
  readonly fields?: string | undefined;
  /** Only the elements passing this filter: its JSON text or the object (queries-and-events contract, 1). */
  readonly filter?: FilterOption | undefined;
  /** `true` or `1`: the answer tells how many elements match (`requestParameters.total`). */
  readonly count?: boolean | string | undefined;
  /** With `count`: count up to this many elements (`total` is then at most this); a page that says "more than N" need not count them all. */
  readonly countLimit?: number | undefined;
  /** List the elements of one structure (field keys become sortable). */
  readonly family?: string | undefined;
}

/**
 * What a list is of, besides the request's parameters: the status of its elements, its URIs, its
 * defaults (a saved search's order, a report's page size and columns), and a filter of its own
 * (a saved search's, a folder's content) that the request's `filter` narrows further.
 */
/** The elements of a list: alive, in the trash, or both (a saved search that looks in the trash too). */
export type ListStatus = LineageStatus | "any";

export interface ListSpec {
  readonly status: ListStatus;
  readonly uri: string;
  itemUri(row: ElementRevision): string;
  readonly defaultOrder?: string;
  readonly defaultSlice?: number;
  readonly defaultFields?: string;
  /** Parses the list's own filter against its structures; undefined when it has none. */
  own?(structures: readonly string[] | undefined): Promise<ParsedFilter | undefined>;
  /**
   * A filter of the caller's that narrows the list beyond the request's (a folder's members), and-ed
   * with the rest; `none` when the list holds nothing whatever the request asks (the store is not asked).
   */
  readonly where?: ElementFilter | "none";
}

/** A page of a list of elements, as the list routes answer it: the request's options over the list's spec. */
export async function listElements(scope: RequestScope, options: ListOptions, spec: ListSpec) {
  const selection = parseFieldsSelection(options.fields ?? spec.defaultFields, "list");
  const structure = options.family === undefined ? undefined : scope.structure(options.family);
  if (options.family !== undefined && !structure) throw new LineageError("ROUTES0105", [options.family]);
  const parameters = parseListParameters(options, spec.defaultOrder ?? "title:asc", structure, spec.defaultSlice);
  // A structure's collection holds its descendants' elements too, sorted together (structure-inheritance.ts).
  const structures = options.family === undefined ? undefined : scope.definitions.withDescendants(options.family);
  const filter = bothFilters(await spec.own?.(structures), await listFilter(scope, options.filter, structures));
  const status = spec.status;
  const uri = spec.uri;
  const where = spec.where;
  const narrowed = where === undefined || where === "none" ? filter?.filter : filter ? and(where, filter.filter) : where;
  // Rights are per element (its own profile, its state's, else its structure's): the store filters the page by them.
  const query = {
    status,
    ...(await listScope(scope.repos.elements, structures, scope.readable())),
    ...(narrowed ? { filter: narrowed } : {}),
  };
  // The total is counted while the page is read and rendered (on PostgreSQL, on another connection of the pool).
  const counting = !wantsCount(options.count) ? undefined : where === "none" ? 0
    : storeCount(scope, typeof options.countLimit === "number" && options.countLimit > 0 ? { ...query, countUpTo: Math.floor(options.countLimit) } : query);
  // Awaited below: a page refused first must not leave the count's failure unobserved.
  if (counting instanceof Promise) counting.catch(() => undefined);
  const rows = where === "none" ? [] : await storePage(scope, {
    ...query,
    orderBy: parameters.orderBy,
    limit: sliceLimit(parameters.slice, options.maxSlice),
    offset: parameters.offset,
  });
  checkAllSlice(parameters.slice, rows, options.maxSlice);
  const [total] = await Promise.all([counting, scope.prepare(rows, selection)]);
  const documents = rows.map((row) => renderDocument(row, selection, scope, "list", spec.itemUri(row)));
  return {
    requestParameters: {
      slice: parameters.slice, offset: parameters.offset, length: documents.length, orderBy: formatOrderBy(parameters.orderBy),
      ...(filter ? { filter: filter.echo } : {}),
      ...(total === undefined ? {} : { total }),
    },
    uri,
    documents,
  };
}

type ListQueryOf<Q> = Omit<Q, "status"> & { readonly status: ListStatus };

/**
 * A page from the store; of both statuses, each status's page up to the page's end read in order
 * (from its own indexes) and merged in the store's order: a deep page of both costs its depth twice.
 */
async function storePage(scope: RequestScope, query: ListQueryOf<ElementQuery>): Promise<ElementRevision[]> {
  const { status, ...rest } = query;
  if (status !== "any") return scope.repos.elements.list({ ...rest, status });
  const reach = query.limit === null ? null : query.offset + query.limit;
  const alive = await scope.repos.elements.list({ ...rest, status: "alive", offset: 0, limit: reach });
  const deleted = await scope.repos.elements.list({ ...rest, status: "deleted", offset: 0, limit: reach });
  const order = revisionOrder(query.orderBy, (name) => scope.definitions.structure(name)?.id ?? null);
  return [...alive, ...deleted].sort(order).slice(query.offset, reach ?? undefined);
}

/** How many elements a list holds: of both statuses, the two counts added. */
async function storeCount(scope: RequestScope, query: ListQueryOf<ElementCountQuery>): Promise<number> {
  const { status, ...rest } = query;
  if (status !== "any") return scope.repos.elements.count({ ...rest, status });
  const both = (await scope.repos.elements.count({ ...rest, status: "alive" })) + (await scope.repos.elements.count({ ...rest, status: "deleted" }));
  return query.countUpTo === undefined ? both : Math.min(both, query.countUpTo);
}

/** The list's own filter and the request's, joined by `and` (each parsed apart: their depths do not add up). */
function bothFilters(own: ParsedFilter | undefined, asked: ParsedFilter | undefined): ParsedFilter | undefined {
  if (!own || !asked) return own ?? asked;
  return { filter: { kind: "group", logic: "and", nodes: [own.filter, asked.filter] }, echo: { logic: "and", filters: [own.echo, asked.echo] } };
}

/** Where a listed element is read: its own URI, as the original's lists name it. */
export const elementItemUri = (row: ElementRevision): string => `/api/v2/smart-elements/${row.initid}.json`;

/** Both filters: a group of the two. */
function and(left: ElementFilter, right: ElementFilter): ElementFilter {
  return { kind: "group", logic: "and", nodes: [left, right] };
}

/** GET /smart-elements/ (or a structure's elements): latest alive revisions the principal may view. */
export function listAliveElements(scope: RequestScope, options: ListOptions = {}) {
  const uri = options.family === undefined ? "/api/v2/smart-elements/" : `/api/v2/smart-structures/${options.family}/smart-elements/`;
  return listElements(scope, options, { status: "alive", uri, itemUri: elementItemUri });
}

/** Where a list answers from besides its options (the folders, a folder's content): its URI, and a filter of its own. */
export interface ListPlace {
  readonly uri: string;
  readonly where?: ElementFilter | "none";
}

/** A list of latest alive revisions the principal may view, answered from `place`. */
export function listAliveElementsAt(scope: RequestScope, options: ListOptions, place: ListPlace) {
  return listElements(scope, options, { status: "alive", uri: place.uri, itemUri: elementItemUri, ...(place.where ? { where: place.where } : {}) });
}

/** A page of elements as a list route answers it. */
export type ElementList = Awaited<ReturnType<typeof listElements>>;

/** GET /trash/: deleted elements the principal may view. */
export function listTrash(scope: RequestScope, options: ListOptions = {}) {
  return listElements(scope, { ...options, family: undefined }, { status: "deleted", uri: "/api/v2/trash/", itemUri: (row) => trashUri(row.initid) });
}

export interface RevisionOptions extends Stamped {
  readonly family?: string | undefined;
  readonly trash?: boolean;
}

function locateLineage(scope: RequestScope, ref: string, options: RevisionOptions, rules = REVISIONS_RULES): Promise<ElementRevision> {
  return options.trash ? locateDeleted(scope, ref) : locateElement(scope, ref, rules, options.family);
}

/**
 * Where an element's sub-collections are named: under the trash for a deleted one, else the plain
 * `/api/v2/smart-elements/<ref>` however it was reached (through a structure's collection too), as
 * the original answers.
 */
function revisionBase(ref: string | number, options: RevisionOptions): string {
  return options.trash ? `/api/v2/trash/${ref}` : `/api/v2/smart-elements/${ref}`;
}

/** GET .../revisions/: every revision of a lineage, newest first, with the list's ETag. */
export async function listRevisions(scope: RequestScope, ref: string, options: RevisionOptions & ListOptions = {}) {
  const latest = await locateLineage(scope, ref, options);
  const selection = parseFieldsSelection(options.fields, "list");
  const structure = scope.structure(latest.structure);
  const parameters = parseListParameters(options, "revision:desc", structure);
  const all = await scope.repos.elements.revisions(latest.initid);
  const sorted = sortRevisions(all, parameters.orderBy);
  const page = sorted.slice(parameters.offset, parameters.offset + sliceLimit(parameters.slice, options.maxSlice));
  checkAllSlice(parameters.slice, page, options.maxSlice);
  await scope.prepare(page, selection);
  const itemUri = (r: ElementRevision) => (options.trash ? `/api/v2/trash/${r.initid}/revisions/${r.revision}.json` : revisionUri(r.initid, r.revision));
  const etag = await elementEtag(latest.id, latest.modifiedAt, scope.rightsVector(latest), scope.principal, scope.locale);
  return {
    etag,
    data: {
      requestParameters: { slice: parameters.slice, offset: parameters.offset, length: page.length, orderBy: formatOrderBy(parameters.orderBy) },
      uri: `${revisionBase(ref, options)}/revisions/`,
      revisions: page.map((r) => renderDocument(r, selection, scope, "list", itemUri(r))),
    },
  };
}

function compareValues(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  if (typeof a === "number" && typeof b === "number") return a - b;
  return String(a) < String(b) ? -1 : 1;
}

/** A lineage's revisions are few: they are ordered here rather than by the store. */
function sortRevisions(revisions: ElementRevision[], order: readonly OrderTerm[]): ElementRevision[] {
  const valueOf = (r: ElementRevision, term: OrderTerm): unknown => {
    if (term.kind === "field") return r.values[term.key];
    switch (term.key) {
      case "owner": case "id": case "initid": case "title": case "name": case "revision": case "state": return r[term.key];
      case "fromname": return r.structure;
      case "cdate": return r.createdAt;
      case "mdate": return r.modifiedAt;
      case "status": return statusProperty(r);
      default: return undefined;
    }
  };
  return [...revisions].sort((a, b) => {
    for (const term of order) {
      const diff = compareValues(valueOf(a, term), valueOf(b, term));
      if (diff !== 0) return term.direction === "desc" ? -diff : diff;
    }
    return 0;
  });
}

/** GET .../revisions/<n>: one revision of a lineage, with its ETag. */
export async function readRevision(scope: RequestScope, ref: string, revisionNumber: string, options: RevisionOptions & { fields?: string | undefined } = {}) {
  const selection = parseFieldsSelection(options.fields, "one");
  const latest = options.trash ? await locateDeleted(scope, ref) : await locateElement(scope, ref, CONSULT_RULES, options.family);
  const wanted = /^\d{1,9}$/.test(revisionNumber) ? Number(revisionNumber) : NaN;
  const revision = (await scope.repos.elements.revisions(latest.initid)).find((r) => r.revision === wanted);
  if (!revision) throw new LineageError("ROUTES0100", [`${ref}/revisions/${revisionNumber}`]);
  await scope.prepare([revision], selection);
  const uri = options.trash ? `/api/v2/trash/${revision.initid}/revisions/${revision.revision}.json` : revisionUri(revision.initid, revision.revision);
  const data: { revision: DocumentView; family?: ReturnType<typeof familyPart> } = {
    revision: renderDocument(revision, selection, scope, "one", uri),
  };
  if (selection.structure) data.family = familyPart(scope, revision);
  const etag = await elementEtag(revision.id, revision.modifiedAt, scope.rightsVector(latest), scope.principal, scope.locale);
  return { etag, data };
}

/** A page of a lineage's revisions, with the list's ETag. */
export type RevisionList = Awaited<ReturnType<typeof listRevisions>>;
/** One revision of a lineage, with its ETag. */
export type RevisionReading = Awaited<ReturnType<typeof readRevision>>;

export interface HistoryOptions extends RevisionOptions {
  readonly slice?: string | undefined;
  readonly offset?: string | undefined;
  readonly revision?: string | undefined;
}

function parseHistoryInteger(raw: string | undefined, fallback: number, code: "ROUTES0139" | "ROUTES0140"): number {
  const value = raw?.trim();
  if (!value) return fallback;
  if (value === "-1") return -1;
  if (!/^\d{1,9}$/.test(value)) throw new LineageError(code, [raw]);
  return Number(value);
}

/** GET .../history/: the lineage's history grouped by revision, newest first (original-notes.md 2.7). */
export async function readHistory(scope: RequestScope, ref: string, options: HistoryOptions = {}) {
  const latest = options.trash ? await locateDeleted(scope, ref) : await locateElement(scope, ref, HISTORY_RULES, options.family);
  const slice = parseHistoryInteger(options.slice, -1, "ROUTES0139");
  const offset = options.offset?.trim() ? parseOffset(options.offset) : 0;
  const revisionFilter = parseHistoryInteger(options.revision, -1, "ROUTES0140");
  const [entries, all] = await Promise.all([scope.repos.elements.history(latest.initid), scope.repos.elements.revisions(latest.initid)]);
  const revisions = all.filter((r) => revisionFilter === -1 || r.revision === revisionFilter);
  const page = revisions.slice(offset, slice === -1 ? undefined : offset + slice);
  await scope.load({ accounts: page.map((revision) => revision.owner) });
  // The original names the history by the element's logical name, else its initid, whatever the request named it by.
  const base = revisionBase(latest.name ?? latest.initid, options);
  const structure = scope.structure(latest.structure);
  const lifecycle = structure?.lifecycle ? scope.lifecycle(structure.lifecycle) : undefined;
  return {
    uri: `${base}/history/`,
    requestParameters: { slice, offset, revision: revisionFilter },
    history: page.map((revision) => {
      const owner = scope.account(revision.owner);
      const state = stateProperty(revision, lifecycle, scope.locale);
      return {
        uri: `${base}/revisions/${revision.revision}.json`,
        properties: {
          id: revision.id,
          initid: revision.initid,
          title: revision.title,
          status: statusProperty(revision),
          revision: revision.revision,
          owner: { id: String(revision.owner), title: owner?.displayName ?? "" },
          state: state
            ? { reference: state.reference, stateLabel: state.stateLabel, activity: state.activity ?? "", color: state.color }
            : { reference: null, stateLabel: "", activity: "", color: "" },
          version: null,
          revisionDate: revision.modifiedAt.slice(0, 19),
        },
        messages: entries
          .filter((entry) => entry.revisionId === revision.id)
          .map((entry) => ({ uid: entry.accountId, uname: entry.accountName, date: entry.date, level: entry.level, code: entry.code, comment: entry.comment })),
      };
    }),
  };
}

/** A lineage's history, grouped by revision, newest first. */
export type ElementHistory = Awaited<ReturnType<typeof readHistory>>;
