/**
 * The condition of the rows a caller may view (ReadableFilter), on one bound array of keys
 * (`parameter`, readableKeys of the core), of the row `alias` when the statement reads several: a
 * row's key is one of them, or the row is the caller's own under a key the caller may view as its
 * owner only (`o<owner>:<key>`, the filter's `owned`). Every list index holds `profile` and `owner`
 * next to `structure` (list-indexes.ts), so the condition is checked on the index entries as a page
 * walks them.
 */
export function readableCondition(parameter: string, alias?: string): string {
  const of = alias ? `${alias}.` : "";
  const key = `coalesce('p:' || ${of}profile, 's:' || ${of}structure)`;
  return `(${key} = any(${parameter}::text[]) or 'o' || ${of}owner || ':' || ${key} = any(${parameter}::text[]))`;
}
