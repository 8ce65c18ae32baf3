/** A label: one string, or a map from locale to string. */
export type Label = string | Readonly<Record<string, string>>;

/** The label in `locale`, falling back to `en`, then to the first translation. */
export function translate(label: Label | undefined | null, locale: string): string {
  if (label == null) return "";
  if (typeof label === "string") return label;
  return label[locale] ?? label[locale.split(/[-_]/)[0] ?? ""] ?? label.en ?? Object.values(label)[0] ?? "";
}
