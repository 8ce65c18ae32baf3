import type { ElementRevision, LineageStatus, NewRevision } from "../elements/smart-element.ts";
import type { HistoryEntry } from "../elements/history-entry.ts";
import type { ElementFilter } from "../queries/element-filter.ts";

/** One sort key: a property (column) or a field value. */
export interface OrderTerm {
  readonly kind: "property" | "field";
  readonly key: string;
  readonly direction: "asc" | "desc";
}

/** Sortable properties and what they sort on. */
export const SORTABLE_PROPERTIES = [
  "id", "initid", "title", "name", "revision", "owner", "state", "fromname", "fromid",
  "cdate", "mdate", "status",
] as const;

/**
 * The elements a caller may view: those under their structure's profile (`profile` null) whose
 * structure is in `structures`, and those under a profile of their own or of their state
 * (`profile` set) in `profiles`; and, of those under the structures and profiles of `owned`,
 * the ones whose owner is `owned.owner`.
 */
export interface ReadableFilter {
  readonly structures: readonly string[];
  readonly profiles: readonly string[];
  /** What the caller may view only as each element's owner (a profile's `owner` grant); absent: nothing. */
  readonly owned?: OwnedFilter;
}

/** The structures and profiles whose elements a caller may view only when they own them. */
export interface OwnedFilter {
  /** The caller's account id: an element's `owner` must be it. */
  readonly owner: number;
  readonly structures: readonly string[];
  readonly profiles: readonly string[];
}

/**
 * A filter as one list of keys, the form the SQL stores match a row's
 * `coalesce('p:' || profile, 's:' || structure)` against: `p:NAME` for a profile of the element's
 * own (or its state's), `s:NAME` for a structure whose profile applies; and `oOWNER:` before such
 * a key for those the caller may view only as the owner (`owned`), which a row matches when
 * `'o' || owner || ':' || key` is one of them (the other keys start with `p:` or `s:`, never `o`).
 */
export function readableKeys(filter: ReadableFilter): string[] {
  const keys = [...filter.profiles.map((name) => `p:${name}`), ...filter.structures.map((name) => `s:${name}`)];
  const { owned } = filter;
  if (owned) keys.push(...owned.profiles.map((name) => `o${owned.owner}:p:${name}`), ...owned.structures.map((name) => `o${owned.owner}:s:${name}`));
  return keys;
}

/** True when a filter lets the caller view some elements as their owner only: readableKeys then holds `o…` keys. */
export function grantsOwned(filter: ReadableFilter): boolean {
  const { owned } = filter;
  return owned !== undefined && (owned.profiles.length > 0 || owned.structures.length > 0);
}

/**
 * Which parts a filter has, which decide the SQL stores' form of its condition: an owner grant (one
 * list of keys, readableKeys), else profiles, structures or both, each a set of names a row's column
 * is compared to (a filter of neither views nothing: "profiles", an empty set); "none" without one.
 */
export type ReadableForm = "none" | "owned" | "profiles" | "structures" | "both";

/** The form of a caller's filter (ReadableForm); statements a store keeps for later callers are kept per form. */
export function readableForm(filter: ReadableFilter | undefined): ReadableForm {
  if (filter === undefined) return "none";
  if (grantsOwned(filter)) return "owned";
  if (filter.structures.length === 0) return "profiles";
  return filter.profiles.length === 0 ? "structures" : "both";
}

/** A page of latest revisions. */
export interface ElementQuery {
  readonly status: LineageStatus;
  /** Only elements of these structures; undefined means every structure. */
  readonly structures?: readonly string[];
  /** Only elements the caller may view; undefined means every element. */
  readonly readable?: ReadableFilter;
  /** Only elements passing this filter (queries/filter-match.ts says what it means); undefined: every element. */
  readonly filter?: ElementFilter;
  readonly orderBy: readonly OrderTerm[];
  /** null: no limit. */
  readonly limit: number | null;
  readonly offset: number;
}

/**
 * Which latest revisions a count is of: a list's query without its order and page; with `countUpTo`,
 * counted up to that many (the answer is the smaller of the count and that number), so that a page
 * that only shows "more than N" does not count a million rows.
 */
export type ElementCountQuery = Pick<ElementQuery, "status" | "structures" | "readable" | "filter"> & { readonly countUpTo?: number | undefined };

/** Where Smart Element revisions and their history live. Writes belong in a transaction (`Store.transaction`). */
export interface ElementRepository {
  /** Inserts a revision; the store gives its id, and its initid when none is given. */
  insert(revision: NewRevision): Promise<ElementRevision>;
  /** Replaces the stored revision of the same id. */
  save(revision: ElementRevision): Promise<void>;
  byId(id: number): Promise<ElementRevision | undefined>;
  /** The revisions of these ids that exist, in no particular order. */
  byIds(ids: readonly number[]): Promise<ElementRevision[]>;
  /** The latest revision of the lineage with this logical name. */
  latestByName(name: string): Promise<ElementRevision | undefined>;
  /** The latest revisions of the lineages with these logical names that exist, in no particular order. */
  latestByNames(names: readonly string[]): Promise<ElementRevision[]>;
  latest(initid: number): Promise<ElementRevision | undefined>;
  /** The latest revisions of these lineages that exist, in no particular order. */
  latestMany(initids: readonly number[]): Promise<ElementRevision[]>;
  /** Every revision of a lineage, newest first. */
  revisions(initid: number): Promise<ElementRevision[]>;
  byImportKey(key: string): Promise<ElementRevision | undefined>;
  /** How many lineages (trash included) have a revision this account owns. */
  countOwnedBy(accountId: number): Promise<number>;
  /** How many lineages of each structure have this status, of those `readable` lets through (structures without any are left out). */
  countByStructure(status: LineageStatus, readable?: ReadableFilter): Promise<Record<string, number>>;
  /** Those of these profiles that some live revision (alive or in the trash) is under (its `profile`), in no particular order. */
  profilesInUse(profiles: readonly string[]): Promise<string[]>;
  /** Those of these structures that some live revision (alive or in the trash) owned by this account is of, in no particular order. */
  structuresOwned(owner: number, structures: readonly string[]): Promise<string[]>;
  /** Moves every revision of a lineage to the trash, or back. */
  setLineageStatus(initid: number, status: LineageStatus, modifiedAt: string): Promise<void>;
  /** Latest revisions matching the query, in its order. */
  list(query: ElementQuery): Promise<ElementRevision[]>;
  /** How many latest revisions match the query. */
  count(query: ElementCountQuery): Promise<number>;
  appendHistory(entry: HistoryEntry): Promise<void>;
  /** History of a lineage: revision newest first, then entry newest first. */
  history(initid: number): Promise<HistoryEntry[]>;
  /**
   * Runs `write`, which may insert up to `rows` revisions in the current transaction (a bundle
   * import). Optional: a store may then build the indexes of its lists once at the end rather
   * than update them row by row, when that costs less; without it the rows are written as they come.
   */
  bulkWrite?<T>(rows: number, write: () => Promise<T>): Promise<T>;
}
