import type { Context } from "hono";

interface NodeBindings {
  readonly incoming?: { readonly rawHeaders?: readonly string[] };
}

/**
 * A request header as `Headers.get` gives it (every occurrence, joined by ", "), read from the
 * headers Node parsed. `c.req.header()` would first build a fetch `Headers` of them all, which
 * costs a GET more than the few headers it reads. Outside @hono/node-server, `c.req.header()`.
 */
export function headerOf(c: Context, name: string): string | undefined {
  const raw = (c.env as NodeBindings | undefined)?.incoming?.rawHeaders;
  if (!raw) return c.req.header(name);
  const wanted = name.toLowerCase();
  let value: string | undefined;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const key = raw[i] as string;
    if (key.length === wanted.length && key.toLowerCase() === wanted) {
      const next = raw[i + 1] as string;
      value = value === undefined ? next : `${value}, ${next}`;
    }
  }
  return value;
}
