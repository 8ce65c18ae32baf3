import { readableForm, readableKeys, type ReadableFilter, type ReadableForm } from "@lineage/core";

/*
 * The rows a caller may view (ReadableFilter). Every list index, and the sort keys' index, holds
 * `profile` and `owner` next to `structure` (list-indexes.ts, schema.ts), so the condition is
 * checked on the index entries as a page walks them.
 */

/**
 * The condition on a row of `elements` (`alias` when the statement reads several), on one bound
 * array of keys (`parameter`, readableKeys of the core): a row's key is one of them, or the row is
 * the caller's own under a key the caller may view as its owner only (`o<owner>:<key>`, the filter's
 * `owned`). `owned`: whether the keys may hold some the caller views as the owner only (the core's
 * grantsOwned); without them the second test is left out, being most of the condition's cost (the
 * owner as text, three joined texts per row: at a million entries, a count of a reader's 90,000 took
 * 209 ms with it and 84 ms without). The key is made per row, so PostgreSQL never reads the rights from an index of their
 * own (the profile's, schema.ts): it would read every row under the reader's profiles and sort them,
 * where a page walks its order's index (a reader of one in ten at offset 10,000: 31 to 51 ms walking,
 * 190 to 227 ms so).
 */
export function readableCondition(parameter: string, owned: boolean, alias?: string): string {
  const of = alias ? `${alias}.` : "";
  const key = `coalesce('p:' || ${of}profile, 's:' || ${of}structure)`;
  const mine = owned ? ` or 'o' || ${of}owner || ':' || ${key} = any(${parameter}::text[])` : "";
  return `(${key} = any(${parameter}::text[])${mine})`;
}

/** The values a caller's rights on sort keys bind, in the order of sortKeyRights's parameters. */
export function sortKeyRightsValues(readable: ReadableFilter): unknown[] {
  switch (readableForm(readable)) {
    case "owned": return [readableKeys(readable)];
    case "structures": return [readable.structures];
    case "both": return [readable.profiles, readable.structures];
    default: return [readable.profiles];
  }
}

/**
 * The condition on the sort keys `alias` (element_sort_keys, whose only index of rights is the one
 * of values, which holds them after the value), on its parameters (as many as sortKeyRightsValues
 * gives). Without an owner grant, the profiles and the structures are each an array the entry's
 * column is compared to, no key made per entry: the profiles alone are a condition PostgreSQL tests
 * inside the scan of the index; with structures too, a filter of the entries it returns. At a million
 * elements, a reader of one profile walking 100,000 entries of a date's sort keys: 40 to 52 ms with
 * the key made per entry, 10 ms so.
 */
function sortKeyRights(form: ReadableForm, parameters: readonly string[], alias: string): string {
  const [first, second] = parameters;
  const profiles = (p: string) => `${alias}.profile = any(${p}::text[])`;
  const structures = (p: string) => `(${alias}.profile is null and ${alias}.structure = any(${p}::text[]))`;
  switch (form) {
    case "owned": return readableCondition(first!, true, alias);
    case "structures": return structures(first!);
    case "both": return `(${profiles(first!)} or ${structures(second!)})`;
    default: return profiles(first!);
  }
}

/** A caller's rights on the sort keys `alias`, each of its values (the i-th) added by `bind`, which gives its parameter. */
export function boundSortKeyRights(readable: ReadableFilter, bind: (value: unknown, i: number) => string, alias: string): string {
  return sortKeyRights(readableForm(readable), sortKeyRightsValues(readable).map(bind), alias);
}
