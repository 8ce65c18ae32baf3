import type { SearchDomain } from "../search/search-domain.ts";

/** An element changed since an index was built: the store's search change log. */
export interface SearchChange {
  readonly initid: number;
  readonly structure: string;
  /** Increases with every change; an element changed twice keeps its last one. */
  readonly seq: number;
}

/**
 * What the store keeps for full-text search: the domains bundles declare, and
 * the log of changed elements. Writes mark their element in their own
 * transaction, so an index that applies the log up to a sequence number
 * misses nothing, even across a crash or another process's writes.
 */
export interface SearchRepository {
  domains(): Promise<SearchDomain[]>;
  domain(name: string): Promise<SearchDomain | undefined>;
  /** Creates or replaces a domain by name. */
  saveDomain(domain: SearchDomain): Promise<void>;
  /** Records that an element changed; call inside the change's transaction. */
  markChanged(initid: number, structure: string): Promise<void>;
  /** Changes after `seq`, oldest first. */
  changesAfter(seq: number, limit: number): Promise<SearchChange[]>;
  /**
   * Changes committed after `seq` that `changesAfter` does not give yet, oldest first. Optional: a
   * store whose writers go side by side gives `changesAfter` only up to a horizon (no transaction
   * still running can commit a number below it), and these beyond it, so that a search applies every
   * change committed before it without moving its position past a number that may still come.
   */
  changesBeyond?(seq: number, limit: number): Promise<SearchChange[]>;
  /** The last sequence number given (0 when none). */
  lastSeq(): Promise<number>;
  /** How many elements of each structure changed after `seq`. */
  changedAfterByStructure(seq: number): Promise<Record<string, number>>;
  /** Latest alive elements of each of the structures. */
  aliveCounts(structures: readonly string[]): Promise<Record<string, number>>;
  /** Initids of latest alive elements of the structures, ascending. */
  aliveInitids(structures: readonly string[]): Promise<number[]>;
  /** The build generation of a domain's index (0 at first): a rebuild raises it so other processes reload. */
  generation(domain: string): Promise<number>;
  setGeneration(domain: string, generation: number): Promise<void>;
}
