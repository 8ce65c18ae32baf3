import type { Principal } from "../accounts/principal.ts";
import type { ChangeStamp } from "../ports/change-clock.port.ts";
import type { RequestScope } from "../scope/request-scope.ts";
import { describeSearchDomains, reindexSearchDomains } from "./search-administration.ts";
import type { SearchEngine } from "./search-engine.ts";
import { searchElements, type FullSearchQuery } from "./search-elements.ts";

/** Full-text search and the administration of search domains, bound to the platform's engine. */
export interface FullSearchUseCases {
  /** The engine keeping the indexes current: start it when serving, stop it on close. */
  readonly engine: SearchEngine;
  /** Elements of a domain matching `q`, best first, with highlights. */
  search(principal: Principal, domain: string, query: FullSearchQuery): ReturnType<typeof searchElements>;
  /** The domains, their configuration and volumes (role fullsearch_administrator or admin). */
  describeDomains(principal: Principal): ReturnType<typeof describeSearchDomains>;
  /** Reindexes what is outdated; the elements reindexed per domain (role fullsearch_administrator or admin). */
  reindexOutdated(principal: Principal): ReturnType<typeof reindexSearchDomains>;
}

/** Binds the full-text search use cases to a way of making request scopes and an engine. */
export function bindFullSearchUseCases(
  scopeOf: (principal: Principal, stamp?: ChangeStamp) => Promise<RequestScope>, engine: SearchEngine, maxSlice?: number,
): FullSearchUseCases {
  return {
    engine,
    search: async (principal, domain, query) => searchElements(await scopeOf(principal, query?.stamp), engine, domain, { maxSlice, ...query }),
    describeDomains: (principal) => describeSearchDomains(principal, engine),
    reindexOutdated: (principal) => reindexSearchDomains(principal, engine),
  };
}
