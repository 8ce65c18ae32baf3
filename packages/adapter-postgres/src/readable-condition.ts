import type { ReadableFilter } from "@lineage/core";

/**
 * The condition of the rows a caller may view (ReadableFilter), on one bound array of keys
 * (`parameter`): `p:NAME` for a profile of an element's own (or its state's), `s:NAME` for a
 * structure whose profile applies. Every list index holds `profile` next to `structure`
 * (list-indexes.ts), so the condition is checked on the index entries as a page walks them.
 */
export function readableCondition(parameter: string): string {
  return `coalesce('p:' || profile, 's:' || structure) = any(${parameter}::text[])`;
}

/** The bound value of readableCondition for a filter. */
export function readableKeys(filter: ReadableFilter): string[] {
  return [...filter.profiles.map((name) => `p:${name}`), ...filter.structures.map((name) => `s:${name}`)];
}
