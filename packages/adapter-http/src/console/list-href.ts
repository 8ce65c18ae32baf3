/** Which list a page shows: the elements alive (all, of one structure, or of a folder), or the trash. */
export type ListKind = "elements" | "trash";

/** The query variables of a list page, as its links and forms carry them. */
export type ListParameters = Readonly<Record<string, string | readonly string[] | undefined>>;

/** The page sizes a person may choose for a list. */
export const PAGE_SIZES = [10, 25, 50, 100] as const;

/** Where a list page with these parameters is (empty values left out). */
export function listHref(kind: ListKind, parameters: ListParameters): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(parameters)) {
    for (const item of typeof value === "string" ? [value] : value ?? []) if (item !== "") query.append(name, item);
  }
  const text = query.toString();
  return `/console/${kind}${text ? `?${text}` : ""}`;
}

/** A console address to go back to after a post: only a path of the console (never another site). */
export function consoleReturn(raw: string | undefined, fallback: string): string {
  return raw && /^\/console(\/|\?|$)/.test(raw) && !raw.includes("\\") ? raw : fallback;
}
