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

/** The item of `key`, or undefined. */
export function findEnumItem(enumerate: Enumerate, key: string): EnumItem | undefined {
  return enumerate.items.find((item) => item.key === key);
}
