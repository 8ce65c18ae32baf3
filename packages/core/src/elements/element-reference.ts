/**
 * The key an element reference is looked up by: a number (initid or revision id) for a number or
 * a text of digits, else the logical name. The value codec and the renderer name elements by it
 * too, so what was loaded is what they look up.
 */
export function elementKey(ref: string | number): string | number {
  if (typeof ref === "number") return ref;
  const text = ref.trim();
  return /^\d+$/.test(text) ? Number(text) : text;
}

/** The element a stored docid value names, or undefined when it cannot name one (not a positive whole number). */
export function docidOf(value: unknown): number | undefined {
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}
