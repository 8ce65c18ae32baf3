import { LineageError } from "../errors/lineage-error.ts";
import type { ElementRevision, FieldValue } from "../elements/smart-element.ts";
import { elementItemUri, listElements, type ListOptions } from "../elements/read-elements.ts";
import type { RequestScope } from "../scope/request-scope.ts";
import { listFilter } from "./list-filter.ts";
import { SEARCH_STRUCTURE } from "./system-structures.ts";


/** Where a saved search keeps what it asks (the original's field ids). */
interface StoredSearch {
  readonly structure: string | undefined;
  readonly filter: string | undefined;
  readonly orderBy: string | undefined;
  readonly trash: "no" | "only" | "also";
  /** A report's columns: fields and properties. */
  readonly columns: readonly string[];
  /** A report's page size. */
  readonly limit: number | undefined;
}

const textOf = (value: FieldValue | undefined) => (typeof value === "string" && value.trim() !== "" ? value.trim() : undefined);

function storedSearch(search: ElementRevision): StoredSearch {
  const values = search.values;
  const trash = values.se_trash;
  const columns = Array.isArray(values.rep_idcols) ? values.rep_idcols.filter((column): column is string => typeof column === "string" && column !== "") : [];
  const limit = typeof values.rep_limit === "number" && values.rep_limit > 0 ? values.rep_limit : undefined;
  return {
    structure: textOf(values.se_famid), filter: textOf(values.se_filter), orderBy: textOf(values.se_orderby),
    trash: trash === "only" || trash === "also" ? trash : "no", columns, limit,
  };
}

/** The `fields` of a report's columns: the default properties, then each column as a property or a field. */
function columnFields(scope: RequestScope, search: StoredSearch): string | undefined {
  if (search.columns.length === 0) return undefined;
  const structure = search.structure ? scope.structure(search.structure) : undefined;
  const fieldIds = new Set(structure?.fields && flatIds(structure.fields));
  const parts = search.columns.map((column) => (fieldIds.has(column) ? `document.attributes.${column}` : `document.properties.${column}`));
  return ["document.properties", ...parts].join(",");
}

function flatIds(fields: readonly { readonly id: string; readonly fields?: readonly { readonly id: string }[] | undefined }[]): string[] {
  return fields.flatMap((field) => [field.id, ...(field.fields ? flatIds(field.fields) : [])]);
}

/** Names the saved search in a refusal of what it stores (its filter, its order), keeping the refusal's code. */
function naming<T>(search: ElementRevision, run: () => Promise<T>): Promise<T> {
  return run().catch((error: unknown) => {
    if (!(error instanceof LineageError)) throw error;
    throw new LineageError(error.code, error.args, { userMessage: `Saved search "${search.name ?? search.initid}" (${search.title}): ${error.userMessage ?? error.message}`, data: error.data });
  });
}

/**
 * The saved search `ref`: 404 ROUTES0100 when no element has that name, 404 ROUTES0126 when it is not
 * a search (SEARCH or a structure extending it), 403 CRUD0201 when the caller may not view it.
 */
export async function locateSearch(scope: RequestScope, ref: string): Promise<ElementRevision> {
  const search = await scope.find(ref);
  if (!search || search.status !== "alive") throw new LineageError("ROUTES0100", [ref]);
  if (!scope.definitions.withDescendants(SEARCH_STRUCTURE).includes(search.structure)) throw new LineageError("ROUTES0126", [ref]);
  if (!scope.permissions(search).has("view")) throw new LineageError("CRUD0201", [ref, "Access not granted"]);
  return search;
}

/**
 * GET /searches/<search>/smart-elements/: runs a saved search through the lists' code (its structure,
 * filter, trash setting and order, a report's page size and columns); the request's `filter` is
 * added with `and`, its `orderBy`, `slice`, `offset` and `fields` win.
 */
export async function runSavedSearch(scope: RequestScope, ref: string, options: ListOptions = {}) {
  const search = await locateSearch(scope, ref);
  const stored = storedSearch(search);
  if (stored.structure && !scope.structure(stored.structure)) {
    throw new LineageError("ROUTES0105", [stored.structure], { userMessage: `Saved search "${search.name ?? search.initid}" searches structure "${stored.structure}", which does not exist` });
  }
  const uri = `/api/v2/searches/${ref}/smart-elements/`;
  const list = await naming(search, () => listElements(scope, { ...options, family: stored.structure }, {
    status: stored.trash === "only" ? "deleted" : stored.trash === "also" ? "any" : "alive",
    uri,
    itemUri: elementItemUri,
    ...(stored.orderBy ? { defaultOrder: stored.orderBy } : {}),
    ...(stored.limit ? { defaultSlice: stored.limit } : {}),
    ...(columnFields(scope, stored) ? { defaultFields: columnFields(scope, stored)! } : {}),
    own: (structures) => (stored.filter ? listFilter(scope, stored.filter, structures) : Promise.resolve(undefined)),
  }));
  return { ...list, properties: { initid: search.initid, title: search.title } };
}

/** GET /searches/: the saved searches (SEARCH and its descendants) the caller may view. */
export function listSavedSearches(scope: RequestScope, options: ListOptions = {}) {
  return listElements(scope, { ...options, family: SEARCH_STRUCTURE }, { status: "alive", uri: "/api/v2/searches/", itemUri: elementItemUri });
}
