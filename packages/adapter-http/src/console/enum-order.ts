import { translate, type DocumentView, type Enumerate, type FilterInput, type ListOptions, type Platform, type Principal } from "@lineage/core";

/*
 * A console list sorted by an enum field, by its labels in the person's language. The API's
 * `orderBy` on an enum field sorts by key, as the original's list routes do (they order by the
 * field's column, then `id desc`): "Technology/AI" (key `tech.ai`) would come before
 * "Culture/Cinema" (`zculture`). The console instead walks the enumerate's keys in the order of
 * their labels: one count per key (and one for no value, last ascending), then the page read from
 * the groups it spans, each group in the API's own order on that field (one key: `id desc`). Every
 * query filters and sorts on the field, as the store's list-order index for it serves; the cost is
 * a count per key (an enumerate of at most LABEL_ORDER_MAX_ITEMS items), not a sort of every row.
 */

/** The largest enumerate a list sorts by label; beyond, the counts would cost more than they save: by key, as the API. */
export const LABEL_ORDER_MAX_ITEMS = 50;

/** The keys of an enumerate in the order of their labels in the locale (`null`: no value, last ascending, first descending). */
export function keysByLabel(enumerate: Enumerate, locale: string, direction: "asc" | "desc"): (string | null)[] {
  const collator = new Intl.Collator(locale, { sensitivity: "base", numeric: true });
  const sorted = [...enumerate.items]
    .map((item) => ({ key: item.key, label: translate(item.label, locale) }))
    .sort((a, b) => collator.compare(a.label, b.label) || a.key.localeCompare(b.key))
    .map((item) => item.key as string | null);
  sorted.push(null);
  return direction === "asc" ? sorted : sorted.reverse();
}

const within = (filter: FilterInput | undefined, field: string, key: string | null): FilterInput => {
  const condition: FilterInput = key === null ? { field, operator: "isempty" } : { field, operator: "eq", value: key };
  return filter ? { logic: "and", filters: [filter, condition] } : condition;
};

/** One page of a structure's list sorted by an enum field's labels, and how many elements the list has. */
export async function pageByLabel(
  platform: Platform, principal: Principal, base: ListOptions & { readonly filter?: FilterInput | undefined }, field: string, keys: readonly (string | null)[],
  offset: number, size: number,
): Promise<{ documents: DocumentView[]; total: number }> {
  const order = `${field}:asc`;
  const counts = await Promise.all(keys.map(async (key) =>
    (await platform.elements.list(principal, { ...base, filter: within(base.filter, field, key), orderBy: order, slice: "1", offset: "0", count: true, fields: "document.properties.initid" })).requestParameters.total ?? 0));
  const total = counts.reduce((sum, count) => sum + count, 0);
  const documents: DocumentView[] = [];
  let skip = offset;
  for (const [i, key] of keys.entries()) {
    const count = counts[i]!;
    if (documents.length >= size) break;
    if (skip >= count) {
      skip -= count;
      continue;
    }
    const slice = Math.min(size - documents.length, count - skip);
    const answer = await platform.elements.list(principal, { ...base, filter: within(base.filter, field, key), orderBy: order, slice: String(slice), offset: String(skip), count: false });
    documents.push(...answer.documents);
    skip = 0;
  }
  return { documents, total };
}
