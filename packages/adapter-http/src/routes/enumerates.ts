import { Hono, type Context } from "hono";
import { EnumerateQuerySchema, type EnumerateTarget } from "@lineage/core";
import * as v from "valibot";
import { EnumItemSchema, describedRoute, type RouteDescription } from "../openapi/index.ts";
import { FamilyParamSchema } from "../openapi/path-parameters.ts";
import { successEnvelope } from "../envelope.ts";
import type { HttpEnv } from "../http-env.ts";
import { splitFormat } from "../resource-name.ts";

/** The enumerate named by the last path segment (`CATEGORIES` or `CATEGORIES.json`). */
const nameOf = (c: Context<HttpEnv>) => splitFormat(c.req.param("enum") ?? "").name;

const EnumerateDataSchema = v.looseObject({
  uri: v.string(),
  requestParameters: v.object({ operator: v.string(), keyword: v.string(), orderBy: v.string() }),
  enumItems: v.array(EnumItemSchema),
});
const enumParams = {
  family: FamilyParamSchema,
  enum: v.pipe(v.string(), v.description("Enumerated Smart Field id (case-insensitive) or enumerate reference; a .json suffix may follow"), v.examples(["ar_category", "CATEGORIES"])),
};

const FIELD_VALUES: RouteDescription = {
  tag: "Enumerates", summary: "Values of an enumerated Smart Field",
  params: enumParams, query: EnumerateQuerySchema, response: { data: EnumerateDataSchema },
  errors: ["CRUD0200", "CRUD0400", "CRUD0401", "CRUD0402", "CRUD0403"],
};
const ENUMERATE_VALUES: RouteDescription = {
  tag: "Enumerates", summary: "Values of an enumerate by its reference",
  params: enumParams, query: EnumerateQuerySchema, response: { data: EnumerateDataSchema },
  errors: ["ENUM0404", "CRUD0402", "CRUD0403"],
};

/**
 * The Enumerates routes (api-v2.md, Enumerates): the values of an enum field of
 * a structure, and of an enumerate by reference; `keyword`, `operator` and
 * `orderBy` as query variables. Only GET: the other methods answer 501.
 */
export function enumerateRoutes(): Hono<HttpEnv> {
  const app = new Hono<HttpEnv>({ strict: false });

  const read = async (c: Context<HttpEnv>, target: EnumerateTarget) => {
    const q = c.req.query();
    const query = { keyword: q.keyword, operator: q.operator, orderBy: q.orderBy ?? q.orderby };
    return c.json(successEnvelope(await c.var.platform.enumerates.read(c.var.principal, target, query)));
  };
  app.get("/smart-structures/:family/enumerates/:enum", describedRoute(FIELD_VALUES, (c) => read(c, { family: c.req.param("family") ?? "", field: nameOf(c) })));
  app.get("/enumerates/:enum", describedRoute(ENUMERATE_VALUES, (c) => read(c, { enumerate: nameOf(c) })));
  return app;
}
