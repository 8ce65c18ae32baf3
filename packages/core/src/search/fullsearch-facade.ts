import type { Principal } from "../accounts/principal.ts";
import type { PlatformContext } from "../scope/platform-context.ts";
import { describeSearchDomains, reindexSearchDomains, type DomainDescriptions, type ReindexReport } from "./search-administration.ts";
import type { SearchEngine } from "./search-engine.ts";
import { searchElements, type FullSearchQuery, type SearchResults } from "./search-elements.ts";

/** Full-text search in search domains, and their administration. */
export interface FullSearchFacade {
  /** The engine keeping the indexes current: start it when serving, stop it on close. */
  readonly engine: SearchEngine;
  /** Elements of a domain matching `q`, best first, with highlights. */
  search(principal: Principal, domain: string, query: FullSearchQuery): Promise<SearchResults>;
  /** The domains, their configuration and volumes (role fullsearch_administrator or admin). */
  describeDomains(principal: Principal): Promise<DomainDescriptions>;
  /** Reindexes what is outdated; the elements reindexed per domain (role fullsearch_administrator or admin). */
  reindexOutdated(principal: Principal): Promise<ReindexReport>;
}

/** The full-text search façade over a platform's context and its search engine. */
export function createFullSearchFacade(context: PlatformContext, engine: SearchEngine): FullSearchFacade {
  return {
    engine,
    search: async (principal, domain, query) => searchElements(await context.scope(principal, query.stamp), engine, domain, { maxSlice: context.maxSlice, ...query }),
    describeDomains: (principal) => describeSearchDomains(principal, engine),
    reindexOutdated: (principal) => reindexSearchDomains(principal, engine),
  };
}
