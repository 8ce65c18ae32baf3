import type { ElementRevision, LineageStatus, NewRevision } from "../element/smart-element.ts";
import type { HistoryEntry } from "../element/history-entry.ts";

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

/** A page of latest revisions. */
export interface ElementQuery {
  readonly status: LineageStatus;
  /** Only elements of these structures; undefined means every structure. */
  readonly structures?: readonly string[];
  readonly orderBy: readonly OrderTerm[];
  /** null: no limit. */
  readonly limit: number | null;
  readonly offset: number;
}

/** Where Smart Element revisions and their history live. Synchronous: always run inside Store.transaction for writes. */
export interface ElementRepository {
  /** Inserts a revision; the store gives its id, and its initid when none is given. */
  insert(revision: NewRevision): ElementRevision;
  /** Replaces the stored revision of the same id. */
  save(revision: ElementRevision): void;
  byId(id: number): ElementRevision | undefined;
  /** The latest revision of the lineage with this logical name. */
  latestByName(name: string): ElementRevision | undefined;
  latest(initid: number): ElementRevision | undefined;
  /** Every revision of a lineage, newest first. */
  revisions(initid: number): ElementRevision[];
  byImportKey(key: string): ElementRevision | undefined;
  /** Moves every revision of a lineage to the trash, or back. */
  setLineageStatus(initid: number, status: LineageStatus, modifiedAt: string): void;
  /** Latest revisions matching the query, in its order. */
  list(query: ElementQuery): ElementRevision[];
  appendHistory(entry: HistoryEntry): void;
  /** History of a lineage: revision newest first, then entry newest first. */
  history(initid: number): HistoryEntry[];
}
