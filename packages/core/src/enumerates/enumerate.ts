import type { Label } from "../i18n/label.ts";

/** One item of an enumerate; `parentKey` makes the enumerate a tree. */
export interface EnumItem {
  readonly key: string;
  readonly label: Label;
  readonly parentKey?: string;
}

/** A named enumerate: its items in definition order. */
export interface Enumerate {
  readonly name: string;
  readonly items: readonly EnumItem[];
}

const keyIndexes = new WeakMap<Enumerate, ReadonlyMap<string, EnumItem>>();

/** The items of an enumerate by key, the first one winning (memoised per enumerate object). */
function keyIndex(enumerate: Enumerate): ReadonlyMap<string, EnumItem> {
  let index = keyIndexes.get(enumerate);
  if (!index) {
    const built = new Map<string, EnumItem>();
    for (const item of enumerate.items) if (!built.has(item.key)) built.set(item.key, item);
    keyIndexes.set(enumerate, (index = built));
  }
  return index;
}

/** The item of `key`, or undefined. */
export function findEnumItem(enumerate: Enumerate, key: string): EnumItem | undefined {
  return keyIndex(enumerate).get(key);
}

/**
 * The chain from the root down to `item` (item last). A parent key that names
 * no item ends the chain, and so does a cycle.
 * @example
 * enumAncestry(categories, ai).map((i) => i.key); // ["tech", "ai"]
 */
export function enumAncestry(enumerate: Enumerate, item: EnumItem): EnumItem[] {
  const chain = [item];
  const seen = new Set([item.key]);
  for (let parent = item.parentKey; parent !== undefined && !seen.has(parent);) {
    const found = findEnumItem(enumerate, parent);
    if (!found) break;
    chain.unshift(found);
    seen.add(parent);
    parent = found.parentKey;
  }
  return chain;
}
