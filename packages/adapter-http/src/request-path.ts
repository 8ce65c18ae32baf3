/**
 * The path of a request URL as received, still percent-encoded (what `new URL(url).pathname` gives
 * for the normalized URLs requests carry), without building a URL object on every request.
 * Hono's `c.req.path` is not it: that one is percent-decoded.
 */
export function pathnameOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start < 0) return "/";
  let end = url.length;
  for (let i = start; i < end; i++) {
    const code = url.charCodeAt(i);
    if (code === 63 /* ? */ || code === 35 /* # */) end = i;
  }
  return url.slice(start, end);
}
