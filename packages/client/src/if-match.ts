/** What `ifMatch` takes: an ETag, or an element read before (its `etag`). */
export type IfMatch = string | { readonly etag: string | undefined };

/** The If-Match header of an option: nothing is written unless the element is as it was then (412 CRUD0238). */
export function ifMatchHeader(ifMatch: IfMatch | undefined): Record<string, string | undefined> {
  if (ifMatch === undefined) return {};
  const etag = typeof ifMatch === "string" ? ifMatch : ifMatch.etag;
  if (etag === undefined) throw new TypeError("ifMatch: the element given has no ETag (it was not read alone)");
  return { "if-match": etag };
}
