/**
 * False for a text holding U+0000, which PostgreSQL's text cannot hold: compared with a column, it
 * fails the whole statement ("invalid byte sequence"). No stored key holds it (the value codec
 * refuses it on every store), so a look-up by such a key finds nothing, as on SQLite.
 */
export function storableText(text: string): boolean {
  return !text.includes("\u0000");
}
