/** A row's key in a readable filter: its own (or its state's) profile, else its structure. */
const KEY = "coalesce('p:' || profile, 's:' || structure)";

/**
 * The condition of the rows a caller may view (ReadableFilter), on one bound array of keys
 * (`parameter`, readableKeys of the core): a row's key is one of them, or the row is the caller's
 * own under a key the caller may view as its owner only (`o<owner>:<key>`, the filter's `owned`).
 * Every list index holds `profile` and `owner` next to `structure` (list-indexes.ts), so the
 * condition is checked on the index entries as a page walks them.
 */
export function readableCondition(parameter: string): string {
  return `(${KEY} = any(${parameter}::text[]) or 'o' || owner || ':' || ${KEY} = any(${parameter}::text[]))`;
}
