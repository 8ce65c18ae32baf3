import { readableKeys as keysOf, type ReadableFilter } from "@lineage/core";

/**
 * The condition of the rows a caller may view (ReadableFilter), on one bound JSON array of keys
 * (readableKeys of the core). Every list index holds `profile` next to `structure`
 * (list-indexes.ts), so the condition is checked on the index entries as a page walks them, the
 * rows of others unread.
 */
export const READABLE_CONDITION = "coalesce('p:' || profile, 's:' || structure) in (select value from json_each(?))";

/** The bound value of READABLE_CONDITION for a filter. */
export function readableKeys(filter: ReadableFilter): string {
  return JSON.stringify(keysOf(filter));
}
