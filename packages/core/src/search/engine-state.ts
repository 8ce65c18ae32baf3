import type { SearchIndex } from "../ports/search-index.port.ts";
import type { Store } from "../ports/store.port.ts";
import type { IndexLanes } from "./index-lanes.ts";
import { domainFingerprint, domainStructures, type SearchDomain } from "./search-domain.ts";

/** A domain whose index is open, and how much its index changed since its last snapshot. */
export interface OpenDomain {
  readonly domain: SearchDomain;
  readonly fingerprint: string;
  /** The structures whose elements the domain indexes. */
  readonly structures: ReadonlySet<string>;
  changedSincePersist: number;
  lastPersist: number;
}

/** A domain's state as its index opens or is built: nothing to persist yet. */
export const openDomain = (domain: SearchDomain): OpenDomain => ({
  domain, fingerprint: domainFingerprint(domain), structures: new Set(domainStructures(domain)), changedSincePersist: 0, lastPersist: Date.now(),
});

/** What the parts of a search engine share (see createSearchEngine for the lanes' rule). */
export interface EngineState {
  readonly store: Store;
  readonly index: SearchIndex;
  readonly lanes: IndexLanes;
  /** The domains whose index is open, by name. */
  readonly open: Map<string, OpenDomain>;
  /** Where rebuilds and indexing problems are told. */
  readonly log: (message: string) => void;
}

/** Elements read and indexed in one step, by a build or by catching up with the change log. */
export const BATCH = 500;
