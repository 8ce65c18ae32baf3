import type { Principal } from "../accounts/principal.ts";
import { createVersionedCache, principalKey } from "../scope/reading-cache.ts";
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

/** The largest page whose answer is kept: a page of `slice=all` may hold thousands of documents. */
const KEPT_SLICE = 100;

/**
 * The full-text search façade over a platform's context and its search engine. Up to `cacheSize`
 * answers are kept until the next write, as GET one element's are: an answer depends on the stored
 * data (through an index holding every change committed before the stamp), on who reads and on the
 * request, so the same request of the same reader at the same stamp answers the same.
 */
export function createFullSearchFacade(context: PlatformContext, engine: SearchEngine, cacheSize = 1000): FullSearchFacade {
  let answers = createVersionedCache<SearchResults>(cacheSize);
  const run = async (principal: Principal, domain: string, query: FullSearchQuery) =>
    searchElements(await context.scope(principal, query.stamp), engine, domain, { maxSlice: context.maxSlice, ...query });
  return {
    engine,
    search: (principal, domain, query) => {
      const { stamp, ...request } = query;
      // Kept only once a search of this stamp brought the index current (the first one may apply changes),
      // and for pages of a known, small size.
      const small = request.slice === undefined || (/^\d{1,3}$/.test(request.slice.trim()) && Number(request.slice) <= KEPT_SLICE);
      if (!stamp || !small || !engine.current(domain, stamp)) return run(principal, domain, query);
      const key = [principalKey(principal), domain, JSON.stringify(request)].join("\u0001");
      return answers.get(key, `${stamp.data}\u0001${stamp.definitions}`, () => run(principal, domain, query));
    },
    describeDomains: (principal) => describeSearchDomains(principal, engine),
    reindexOutdated: async (principal) => {
      const report = await reindexSearchDomains(principal, engine);
      // Reindexing may change what an index holds without a commit: answers kept before are dropped.
      answers = createVersionedCache<SearchResults>(cacheSize);
      return report;
    },
  };
}
