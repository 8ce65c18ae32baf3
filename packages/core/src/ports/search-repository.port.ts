import type { SearchDomain } from "../search/search-domain.ts";

/**
 * What the store keeps for full-text search: the domains bundles declare, and their build
 * generations. What changed since an index was built is read from the event log (EventLog),
 * which every write appends to in its own transaction.
 */
export interface SearchRepository {
  domains(): Promise<SearchDomain[]>;
  domain(name: string): Promise<SearchDomain | undefined>;
  /** Creates or replaces a domain by name. */
  saveDomain(domain: SearchDomain): Promise<void>;
  /** Latest alive elements of each of the structures. */
  aliveCounts(structures: readonly string[]): Promise<Record<string, number>>;
  /** Initids of latest alive elements of the structures, ascending. */
  aliveInitids(structures: readonly string[]): Promise<number[]>;
  /** The build generation of a domain's index (0 at first): a rebuild raises it so other processes reload. */
  generation(domain: string): Promise<number>;
  setGeneration(domain: string, generation: number): Promise<void>;
}
