import { Hono } from "hono";
import * as v from "valibot";
import { DocumentSchema, describedRoute, type RouteDescription } from "../openapi/index.ts";
import { FamilyParamSchema } from "../openapi/path-parameters.ts";
import type { HttpEnv } from "../http-env.ts";
import { splitFormat } from "../resource-name.ts";
import { respondWithEtag } from "../respond.ts";
import { successEnvelope } from "../envelope.ts";

/** `fields` of a structure: the element's vocabulary; by default properties, (empty) attributes and the fields' definitions. */
export const StructureQuerySchema = v.object({
  fields: v.optional(v.pipe(
    v.string(),
    v.description("Comma-separated: document.properties[.<prop>|.all], document.attributes (always empty: a structure holds no values), " +
      "family.structure. Default: all three. Unknown entries: 400 ROUTES0103 or CRUD0202."),
  )),
});

/** One node of the `family.structure` tree: a Smart Field's definition, or a field set (frame, tab, array) with its content. */
const FieldDescriptionSchema = v.looseObject({
  id: v.string(),
  label: v.pipe(v.string(), v.description("In the caller's locale")),
  type: v.pipe(v.string(), v.description("The field's type; frame or tab for a field set, which holds no value")),
  logicalOrder: v.pipe(v.number(), v.description("Its place among all fields and sets of the structure, 1-based")),
  multiple: v.boolean(),
  options: v.record(v.string(), v.string()),
  needed: v.optional(v.pipe(v.boolean(), v.description("On fields (arrays and columns included), never on frames and tabs"))),
  visibility: v.pipe(v.picklist(["W", "R", "H"]), v.description("W writable, R read-only, H hidden in forms; fields and sets of visibility I are never listed, a set with all it holds")),
  enum: v.optional(v.pipe(v.string(), v.description("The enumerate of an enum field"))),
  content: v.optional(v.pipe(
    v.record(v.string(), v.unknown()),
    v.description("What a set holds, by id, in order: a tab its frames, a frame its fields, an array its columns (nodes of this same shape)"),
  )),
});

/** What GET /api/v2/smart-structures/<name> answers, for the OpenAPI document. */
const READ: RouteDescription = {
  tag: "Smart Structures", summary: "Read a Smart Structure",
  params: { family: v.pipe(FamilyParamSchema, v.description("Smart Structure name; a .json suffix may follow")) }, query: StructureQuerySchema,
  description: "Its properties (id, title in the caller's locale, icon, name...) and its fields' definitions (type, label in the caller's locale, " +
    "options, needed, visibility), as the original's FamilyData answers. Fields of visibility I are never disclosed. " +
    "Fields stand nested in their field sets as the original nests them: at the top the fields of no set, then tabs (content: their frames) " +
    "and frames (content: their fields); an array's content is its columns. " +
    "A structure that extends another has its parent's id and name as fromid and fromname; its own fields stand in their frames among the inherited ones. " +
    "Answers carry an ETag; If-None-Match gives 304.",
  etag: true,
  response: {
    data: v.object({
      document: DocumentSchema,
      family: v.optional(v.object({ structure: v.pipe(v.record(v.string(), FieldDescriptionSchema), v.description("The fields and field sets at the top, by id, in order")) })),
    }),
  },
  errors: ["ROUTES0105", "ROUTES0103", "CRUD0202"],
};

const StructureSummarySchema = v.object({
  name: v.string(),
  id: v.number(),
  title: v.pipe(v.string(), v.description("In the caller's locale")),
  icon: v.string(),
  parent: v.pipe(v.nullable(v.string()), v.description("The structure it extends, by name; null when none")),
  uri: v.string(),
  counts: v.pipe(v.object({ alive: v.number(), deleted: v.number() }), v.description("Its elements the caller may view: alive, and in the trash")),
});

const LIST: RouteDescription = {
  tag: "Smart Structures", summary: "List the Smart Structures the caller may view",
  description: "Those whose profile lets the caller view their elements (or whose elements the caller may view under a profile of their own), " +
    "by title, with their parent and how many of their elements the caller may view.",
  response: { data: v.object({ uri: v.string(), structures: v.array(StructureSummarySchema) }) },
};

/** The Smart Structure resource: GET /api/v2/smart-structures/<name>, and the list of those the caller may view. */
export function structureRoutes(): Hono<HttpEnv> {
  const app = new Hono<HttpEnv>({ strict: false });
  app.get("/smart-structures", describedRoute(LIST, async (c) => {
    const summaries = await c.var.platform.structures.list(c.var.principal, c.var.stamp);
    const structures = summaries.map(({ alive, deleted, ...summary }) => ({ ...summary, uri: `/api/v2/smart-structures/${summary.name}`, counts: { alive, deleted } }));
    return c.json(successEnvelope({ uri: "/api/v2/smart-structures/", structures }));
  }));
  app.get("/smart-structures/:family", describedRoute(READ, async (c) => {
    const { name } = splitFormat(c.req.param("family") ?? "");
    const reading = await c.var.platform.structures.read(c.var.principal, name, { fields: c.req.query("fields"), stamp: c.var.stamp });
    return respondWithEtag(c, reading.etag, reading.data);
  }));
  return app;
}
