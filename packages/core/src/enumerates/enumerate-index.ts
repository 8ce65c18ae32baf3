import { findEnumItem, type Enumerate, type EnumItem } from "./enumerate.ts";
import { translate } from "../i18n/label.ts";

/** An enumerate item as the Enumerates routes serve it (original-notes.md 2.9). */
export interface EnumItemView {
  readonly key: string;
  /** In the reader's locale. */
  readonly label: string;
  /** The `en` label (or the only one). */
  readonly originalLabel: string;
  readonly parentkey: string | null;
  /** The keys from the root, `.` in a key escaped as `\.`: `tech.ai`. */
  readonly path: string;
  /** Only for children: the labels from the root, `Technology/Artificial intelligence`. */
  readonly longLabel?: string;
}

/** What lookups in one locale need, computed once per enumerate object and locale. */
export interface EnumerateIndex {
  /** One view per item, in definition order. */
  readonly views: readonly EnumItemView[];
  /** Indexes (into `views`) of the items a lookup may answer: keys "" and " " are skipped, as the original does; a repeated key counts once. */
  readonly listed: readonly number[];
  /**
   * Indexes (into `views`, in definition order) of the listed items whose
   * folded label contains, or starts with, the folded keyword.
   */
  match(keyword: string, operator: "contains" | "startswith"): number[];
  /** Position of each view when ordered by label (collator of the locale). */
  labelRank(): Int32Array;
  /** Position of each view when ordered by key (`compareKeys`). */
  keyRank(): Int32Array;
}

const ACCENTS = /\p{M}+/gu;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * Text folded for matching: lower case, compatibility-decomposed, marks removed.
 * @example
 * foldText("École") === foldText("ecole"); // true
 */
export function foldText(text: string): string {
  if (PRINTABLE_ASCII.test(text)) return text.toLowerCase();
  return text.toLowerCase().normalize("NFKD").replace(ACCENTS, "");
}

const DIGITS = /\d+|\D+/g;
const isDigit = (text: string) => text.charCodeAt(0) >= 48 && text.charCodeAt(0) <= 57;

function compareDigits(a: string, b: string): number {
  const x = a.replace(/^0+(?=\d)/, "");
  const y = b.replace(/^0+(?=\d)/, "");
  if (x.length !== y.length) return x.length - y.length;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** A key cut into runs of digits and of other characters, for `compareKeyTokens`. */
const keyTokens = (key: string): readonly string[] => key.match(DIGITS) ?? [];

function compareKeyTokens(x: readonly string[], y: readonly string[]): number {
  const common = Math.min(x.length, y.length);
  for (let i = 0; i < common; i++) {
    const p = x[i] as string;
    const q = y[i] as string;
    const order = isDigit(p) && isDigit(q) ? compareDigits(p, q) : p < q ? -1 : p > q ? 1 : 0;
    if (order !== 0) return order;
  }
  return x.length - y.length;
}

const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Keys in "natural" order, locale ignored: runs of digits compare as numbers
 * (`"2" < "10"`, `"item2" < "item10"`), the rest by code point.
 */
export function compareKeys(a: string, b: string): number {
  return compareKeyTokens(keyTokens(a), keyTokens(b)) || byCodePoint(a, b);
}

const collators = new Map<string, Intl.Collator>();

/** The collator of a locale (`fr_FR` read as `fr-FR`; an unknown locale falls back to the default). */
export function collatorOf(locale: string): Intl.Collator {
  let collator = collators.get(locale);
  if (!collator) {
    try {
      collator = new Intl.Collator(locale.replace(/_/g, "-"));
    } catch {
      collator = new Intl.Collator();
    }
    collators.set(locale, collator);
  }
  return collator;
}

const escapeKey = (key: string) => key.replace(/\./g, "\\.");

/**
 * The views of all items in one pass: a parent's view is made first and its
 * path and long label extended. A parent key naming no item, or a cycle,
 * makes the item a root.
 */
function viewsOf(enumerate: Enumerate, locale: string): EnumItemView[] {
  const made = new Map<string, EnumItemView | null>(); // null: being made (a cycle comes back to it)
  const make = (item: EnumItem): EnumItemView => {
    const done = made.get(item.key);
    if (done) return done;
    made.set(item.key, null);
    const label = translate(item.label, locale);
    const parentItem = item.parentKey === undefined ? undefined : findEnumItem(enumerate, item.parentKey);
    const parent = parentItem && made.get(parentItem.key) !== null ? make(parentItem) : undefined;
    const own = {
      key: item.key,
      label,
      originalLabel: translate(item.label, "en"),
      parentkey: item.parentKey ?? null,
      path: parent ? `${parent.path}.${escapeKey(item.key)}` : escapeKey(item.key),
    };
    const view: EnumItemView = parent ? { ...own, longLabel: `${parent.longLabel ?? parent.label}/${label}` } : own;
    made.set(item.key, view);
    return view;
  };
  return enumerate.items.map(make);
}

function ranks(count: number, compare: (a: number, b: number) => number): Int32Array {
  const order = Array.from({ length: count }, (_, i) => i).sort((a, b) => compare(a, b) || a - b);
  const rank = new Int32Array(count);
  order.forEach((view, position) => {
    rank[view] = position;
  });
  return rank;
}

const SEPARATOR = "\u0000";

/**
 * Matching as one native string search: the folded labels are joined in one
 * text, each preceded by a separator no label holds; a hit is mapped back to
 * its label by a binary search of the labels' offsets, and the search goes on
 * from the next label.
 */
function matcher(folded: readonly string[], listed: readonly number[]): EnumerateIndex["match"] {
  const starts = new Int32Array(folded.length + 1); // where each label starts, past its separator
  let text = "";
  folded.forEach((label, position) => {
    text += SEPARATOR;
    starts[position] = text.length;
    text += label.replaceAll(SEPARATOR, "");
  });
  starts[folded.length] = text.length + 1;
  const positionAt = (offset: number) => {
    let low = 0;
    let high = folded.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((starts[middle] as number) <= offset) low = middle;
      else high = middle - 1;
    }
    return low;
  };
  return (keyword, operator) => {
    const needle = foldText(keyword);
    if (needle === "") return [...listed];
    if (needle.includes(SEPARATOR)) return [];
    const pattern = operator === "startswith" ? `${SEPARATOR}${needle}` : needle;
    const found: number[] = [];
    for (let at = text.indexOf(pattern); at !== -1;) {
      const position = positionAt(operator === "startswith" ? at + 1 : at);
      found.push(listed[position] as number);
      at = text.indexOf(pattern, (starts[position + 1] as number) - 1);
    }
    return found;
  };
}

function buildIndex(enumerate: Enumerate, locale: string): EnumerateIndex {
  const views = viewsOf(enumerate, locale);
  // A key given twice (refused by bundles) is listed once, as its first item.
  const listed = enumerate.items.flatMap((item, i) => (item.key === "" || item.key === " " || findEnumItem(enumerate, item.key) !== item ? [] : [i]));
  let byLabel: Int32Array | undefined;
  let byKey: Int32Array | undefined;
  return {
    views,
    listed,
    match: matcher(listed.map((i) => foldText((views[i] as EnumItemView).label)), listed),
    labelRank: () => {
      if (byLabel) return byLabel;
      const collator = collatorOf(locale);
      const labels = views.map((view) => view.label);
      return (byLabel = ranks(views.length, (a, b) => collator.compare(labels[a] as string, labels[b] as string)));
    },
    keyRank: () => {
      if (byKey) return byKey;
      const keys = views.map((view) => view.key);
      const tokens = keys.map(keyTokens);
      return (byKey = ranks(views.length, (a, b) =>
        compareKeyTokens(tokens[a] as readonly string[], tokens[b] as readonly string[]) || byCodePoint(keys[a] as string, keys[b] as string)));
    },
  };
}

const indexes = new WeakMap<Enumerate, Map<string, EnumerateIndex>>();

/**
 * The lookup index of an enumerate in a locale, memoised per enumerate object
 * (the definitions cache answers the same object while definitions are unchanged).
 */
export function enumerateIndex(enumerate: Enumerate, locale: string): EnumerateIndex {
  let byLocale = indexes.get(enumerate);
  if (!byLocale) indexes.set(enumerate, (byLocale = new Map()));
  let index = byLocale.get(locale);
  if (!index) byLocale.set(locale, (index = buildIndex(enumerate, locale)));
  return index;
}
