/**
 * The condition of the rows a caller may view (ReadableFilter), on one bound array of keys
 * (`parameter`, readableKeys of the core). Every list index holds `profile` next to `structure`
 * (list-indexes.ts), so the condition is checked on the index entries as a page walks them.
 */
export function readableCondition(parameter: string): string {
  return `coalesce('p:' || profile, 's:' || structure) = any(${parameter}::text[])`;
}
