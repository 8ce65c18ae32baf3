/**
 * The condition of the rows a caller may view (ReadableFilter), on one bound array of keys
 * (`parameter`, readableKeys of the core), of the row `alias` when the statement reads several.
 * Every list index holds `profile` next to `structure` (list-indexes.ts), so the condition is
 * checked on the index entries as a page walks them.
 */
export function readableCondition(parameter: string, alias?: string): string {
  const of = alias ? `${alias}.` : "";
  return `coalesce('p:' || ${of}profile, 's:' || ${of}structure) = any(${parameter}::text[])`;
}
