import type { Principal } from "../accounts/principal.ts";
import type { ElementList, ListOptions } from "../elements/read-elements.ts";
import type { ListOf, StructureType } from "../elements/typed-element.ts";
import type { PlatformContext } from "../scope/platform-context.ts";
import { listSavedSearches, runSavedSearch } from "./saved-searches.ts";

/** A saved search's results: a list of elements, with the search's initid and title. */
export type SavedSearchResults = ElementList & { readonly properties: { readonly initid: number; readonly title: string } };

/** Saved searches (SEARCH, REPORT and their descendants): stored queries run through the lists' code. */
export interface SearchesFacade {
  /** GET /searches/: the saved searches the principal may view, as a list (its parameters and `filter`). */
  list(principal: Principal, options?: ListOptions): Promise<ElementList>;
  /** GET /searches/<search>/smart-elements/: the search run, the request's filter added, its paging and order winning. */
  run<S extends StructureType | undefined = undefined>(principal: Principal, ref: string, options?: ListOptions): Promise<ListOf<S, SavedSearchResults>>;
}

/** The saved searches façade over a platform's context. */
export function createSearchesFacade(context: PlatformContext): SearchesFacade {
  const { maxSlice } = context;
  return {
    list: async (principal, options) => listSavedSearches(await context.scope(principal, options?.stamp), { maxSlice, ...options }),
    run: (async (principal: Principal, ref: string, options?: ListOptions): Promise<SavedSearchResults> =>
      runSavedSearch(await context.scope(principal, options?.stamp), ref, { maxSlice, ...options })) as SearchesFacade["run"],
  };
}
