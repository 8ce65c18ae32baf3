/** True for the `inline` values that ask for inline display (api-v2.md, Images, rule 6): true, yes or 1. */
export function wantsInline(value: string | undefined): boolean {
  return value !== undefined && ["true", "yes", "1"].includes(value.trim().toLowerCase());
}

/**
 * A `Content-Disposition` value with a filename every client reads safely: an ASCII fallback
 * (no quotes, backslashes, control characters or path separators) and the exact UTF-8 name (RFC 6266).
 */
export function contentDisposition(inline: boolean, filename: string): string {
  const base = filename.split(/[\\/]/).pop() ?? "";
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, "").trim() || "image";
  const ascii = clean.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").replace(/[^\x20-\x7e]|["\\%;]/g, "_");
  const encoded = encodeURIComponent(clean).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${inline ? "inline" : "attachment"}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
