import { Hono, type Context } from "hono";
import type { EnumerateTarget } from "@lineage/core";
import { successEnvelope } from "../envelope.ts";
import type { HttpEnv } from "../http-env.ts";
import { splitFormat } from "../resource-name.ts";

/** The enumerate named by the last path segment (`CATEGORIES` or `CATEGORIES.json`). */
const nameOf = (c: Context<HttpEnv>) => splitFormat(c.req.param("enum") ?? "").name;

/**
 * The Enumerates routes (api-v2.md, Enumerates): the values of an enum field of
 * a structure, and of an enumerate by reference; `keyword`, `operator` and
 * `orderBy` as query variables. Only GET: the other methods answer 501.
 */
export function enumerateRoutes(): Hono<HttpEnv> {
  const app = new Hono<HttpEnv>({ strict: false });

  const read = (c: Context<HttpEnv>, target: EnumerateTarget) => {
    const q = c.req.query();
    const query = { keyword: q.keyword, operator: q.operator, orderBy: q.orderBy ?? q.orderby };
    return c.json(successEnvelope(c.var.platform.readEnumerate(c.var.principal, target, query)));
  };
  app.get("/smart-structures/:family/enumerates/:enum", (c) => read(c, { family: c.req.param("family"), field: nameOf(c) }));
  app.get("/enumerates/:enum", (c) => read(c, { enumerate: nameOf(c) }));
  return app;
}
