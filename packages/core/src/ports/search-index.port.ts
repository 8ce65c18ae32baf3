import type { SearchQuery } from "../search/search-query.ts";
import type { SearchWeight } from "../search/search-domain.ts";

/** Indexing status of a file: D indexed (Succeed), K not indexable (Failing), W waiting. */
export type IndexedFileStatus = "D" | "K" | "W";

/** A file of an indexed element and what became of its text. */
export interface IndexedFile {
  readonly vaultId: number;
  readonly status: IndexedFileStatus;
}

/** One element as an index holds it: its lineage id, structure and analysed terms by weight, in text order. */
export interface IndexedDocument {
  readonly id: number;
  readonly structure: string;
  readonly terms: Readonly<Partial<Record<SearchWeight, readonly string[]>>>;
  readonly files?: readonly IndexedFile[];
}

/**
 * What a domain's index covers: the domain definition it was built for
 * (fingerprint), the build generation, and the last change (sequence number
 * of the store's search changes) applied to it.
 */
export interface IndexCoverage {
  readonly fingerprint: string;
  readonly generation: number;
  readonly seq: number;
}

/** A candidate of a search, with its relevance. */
export interface SearchHit {
  readonly id: number;
  readonly score: number;
}

/** Volume of a domain's index. */
export interface IndexStats {
  /** Documents by structure. */
  readonly documents: Readonly<Record<string, number>>;
  readonly files: Readonly<Record<IndexedFileStatus, number>>;
  /** Bytes the index takes where it is kept (its snapshot on disk, for a persistent index). */
  readonly bytes: number;
}

/**
 * Full-text indexes, one per search domain. Terms arrive analysed (see
 * Analyzer), so an index only matches terms. The indexes live in the
 * process, so working on them is synchronous; only what reaches where they
 * are kept answers a promise: `open` (a request may wait for it, after
 * another process rebuilt a domain) and `persist`.
 *
 * `search` answers candidates, best first (ties by id), possibly lazily (a
 * caller taking 10 need not pay for ordering them all): plain terms, prefixes
 * and negations are exact; a phrase is matched as all its terms, in any order
 * (adjacency is checked by the caller on the element's text), and a negated
 * phrase excludes nothing. The candidates are those of the index when
 * `search` is called: changes made while a caller iterates them (between its
 * reads of the elements) do not disturb the iteration.
 */
export interface SearchIndex {
  /**
   * Loads a domain's index from where it is kept, when it was built for
   * `expected` (same fingerprint and generation). Undefined when there is
   * none, or it is outdated or unreadable (the adapter reports why); the
   * domain's index in place, if any, is then left as it was.
   */
  open(domain: string, expected: Omit<IndexCoverage, "seq">): Promise<IndexCoverage | undefined>;
  /** Empties a domain's index for a rebuild that will cover `coverage`. */
  reset(domain: string, coverage: IndexCoverage): void;
  /** Adds documents, replacing those of the same id. */
  upsert(domain: string, documents: readonly IndexedDocument[]): void;
  remove(domain: string, ids: readonly number[]): void;
  has(domain: string, id: number): boolean;
  /** Ids of every document, ascending. */
  ids(domain: string): number[];
  /** Records the last change applied. */
  advance(domain: string, seq: number): void;
  coverage(domain: string): IndexCoverage | undefined;
  search(domain: string, query: SearchQuery, options?: { readonly structures?: readonly string[] }): Iterable<SearchHit>;
  stats(domain: string): IndexStats;
  /**
   * Keeps the domain's index (with its coverage) so that `open` finds it
   * after a restart. The index is captured at once; an adapter may write it
   * in the background, the promise settling once it is in place.
   */
  persist(domain: string): void | Promise<void>;
  /** Forgets a domain (no longer declared). */
  drop(domain: string): void;
  /** Makes the index built under the name `from` the domain's index (its coverage too), forgetting `from`. */
  replace(domain: string, from: string): void;
}
