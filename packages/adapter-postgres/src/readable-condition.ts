import type { ReadableFilter } from "@lineage/core";

/**
 * The condition of the rows a caller may view (ReadableFilter), on one bound array of keys
 * (`parameter`, readableKeys of the core), of the row `alias` when the statement reads several: a
 * row's key is one of them, or the row is the caller's own under a key the caller may view as its
 * owner only (`o<owner>:<key>`, the filter's `owned`). Every list index holds `profile` and `owner`
 * next to `structure` (list-indexes.ts), so the condition is checked on the index entries as a page
 * walks them. `owned`: whether the keys may hold some the caller views as the owner only; without
 * them the second test is left out, being most of the condition's cost (the owner as text, three
 * joined texts per row: at a million entries, a count of a reader's 90,000 took 209 ms with it and
 * 84 ms without).
 */
export function readableCondition(parameter: string, owned: boolean, alias?: string): string {
  const of = alias ? `${alias}.` : "";
  const key = `coalesce('p:' || ${of}profile, 's:' || ${of}structure)`;
  const mine = owned ? ` or 'o' || ${of}owner || ':' || ${key} = any(${parameter}::text[])` : "";
  return `(${key} = any(${parameter}::text[])${mine})`;
}

/** Whether a caller's rights give some elements to view as their owner only (readableCondition's `owned`). */
export function ownsSome(readable: ReadableFilter): boolean {
  const { owned } = readable;
  return owned !== undefined && (owned.profiles.length > 0 || owned.structures.length > 0);
}
