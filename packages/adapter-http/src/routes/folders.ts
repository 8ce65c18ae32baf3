import { Hono, type Context } from "hono";
import { FilteredListQuerySchema, type ErrorCode } from "@lineage/core";
import * as v from "valibot";
import { ElementItemSchema, RequestParametersSchema, describedRoute, type RouteDescription } from "../openapi/index.ts";
import { DocidParamSchema } from "../openapi/path-parameters.ts";
import { successEnvelope } from "../envelope.ts";
import type { HttpEnv } from "../http-env.ts";
import { splitFormat } from "../resource-name.ts";
import { filteredListQueryOf } from "../respond.ts";

// Folders (queries-and-events.md, section 2): /api/v2/folders/ and a folder's content.

const TAG = "Folders";
const LIST_ERRORS: readonly ErrorCode[] = [
  "FILTER0001", "FILTER0002", "FILTER0003", "FILTER0004", "ROUTES0103", "CRUD0202", "ROUTES0139", "ROUTES0140", "ROUTES0141", "CRUD0501", "CRUD0506",
];
/** Refusals of a folder named in a path. */
const FOLDER_ERRORS: readonly ErrorCode[] = ["ROUTES0100", "ROUTES0125", "CRUD0201"];

const FolderParamSchema = v.pipe(
  v.string(),
  v.description("The folder (an element of DIR or of a structure extending it): initid, id of any revision, or logical name"),
  v.examples(["FLD_READING", "1042"]),
);
const PARAMS = { folder: FolderParamSchema, docid: DocidParamSchema };

/** The `fields` of the answer of PUT and DELETE: the element as an item of the folder's content. */
const MembershipQuerySchema = v.object({
  fields: v.optional(v.pipe(
    v.string(),
    v.description("What the element's item carries, as a list's `fields` (default: its default properties). Unknown entry: 400 ROUTES0103; unknown property: 400 CRUD0202."),
  )),
});

const ListDataSchema = { requestParameters: RequestParametersSchema, uri: v.pipe(v.string(), v.description("URI of the list")), documents: v.array(ElementItemSchema) };
const MembershipDataSchema = v.object({
  document: v.pipe(ElementItemSchema, v.description("The element as the folder's content lists it; its id, initid and URI only when the caller may not view it")),
});

const LIST: RouteDescription = {
  tag: TAG, summary: "List the folders", query: FilteredListQuerySchema,
  description: "The folders (elements of DIR and of the structures extending it) the caller may view, ordered by title by default; " +
    "their fields may be ordered on and filtered. The list has no cache (no ETag).",
  response: { data: v.object(ListDataSchema) },
  errors: LIST_ERRORS,
};
const CONTENT: RouteDescription = {
  tag: TAG, summary: "List a folder's content", params: PARAMS, query: FilteredListQuerySchema,
  description: "The alive elements the folder holds that the caller may view (view right on the folder), as /smart-elements/ lists them, " +
    "with the folder's initid and title in `properties`.",
  response: {
    data: v.object({
      ...ListDataSchema,
      properties: v.pipe(v.object({ initid: v.number(), title: v.string() }), v.description("The folder's initid and title")),
    }),
  },
  errors: [...FOLDER_ERRORS, ...LIST_ERRORS],
};
const ADD: RouteDescription = {
  tag: TAG, summary: "Put an element in a folder", params: PARAMS, query: MembershipQuerySchema,
  description: "Edit right on the folder (403 CRUD0201), view right on the element (403 CRUD0201); an element of a structure the folder's " +
    "fld_famids does not name (nor extend one it names) is refused with 403 CRUD0213. Putting it in again changes nothing. " +
    "Each change is a history line on the folder and one on the element. Answers the element as the folder lists it.",
  response: { data: MembershipDataSchema },
  errors: [...FOLDER_ERRORS, "CRUD0213", "ROUTES0103", "CRUD0202"],
};
const REMOVE: RouteDescription = {
  tag: TAG, summary: "Take an element out of a folder", params: PARAMS, query: MembershipQuerySchema,
  description: "Edit right on the folder (403 CRUD0201); 404 ROUTES0100 when the folder does not hold the element. " +
    "A history line on the folder and one on the element. Answers the element as the folder lists it.",
  response: { data: MembershipDataSchema },
  errors: [...FOLDER_ERRORS, "ROUTES0103", "CRUD0202"],
};

/** The folders: GET /folders/, a folder's content, and PUT or DELETE of an element in it. */
export function folderRoutes(): Hono<HttpEnv> {
  const app = new Hono<HttpEnv>({ strict: false });
  app.get("/folders", describedRoute(LIST, async (c) => {
    const data = await c.get("platform").folders.list(c.get("principal"), filteredListQueryOf(c));
    return c.json(successEnvelope(data));
  }));
  app.get("/folders/:folder/smart-elements", describedRoute(CONTENT, async (c) => {
    const data = await c.get("platform").folders.content(c.get("principal"), c.req.param("folder") ?? "", filteredListQueryOf(c));
    return c.json(successEnvelope(data));
  }));
  const change = (c: Context<HttpEnv>, how: "add" | "remove") => {
    const { name } = splitFormat(c.req.param("docid") ?? "");
    const { platform, principal, deadline, stamp } = c.var;
    return platform.folders[how](principal, c.req.param("folder") ?? "", name, { fields: c.req.query("fields"), deadline, stamp });
  };
  app.put("/folders/:folder/smart-elements/:docid", describedRoute(ADD, async (c) => c.json(successEnvelope((await change(c, "add")).data))));
  app.delete("/folders/:folder/smart-elements/:docid", describedRoute(REMOVE, async (c) => c.json(successEnvelope((await change(c, "remove")).data))));
  return app;
}
