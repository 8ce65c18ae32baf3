import { Hono } from "hono";
import { FilteredListQuerySchema, type ErrorCode } from "@lineage/core";
import * as v from "valibot";
import { successEnvelope } from "../envelope.ts";
import type { HttpEnv } from "../http-env.ts";
import { ElementItemSchema, RequestParametersSchema, describedRoute, type RouteDescription } from "../openapi/index.ts";
import { splitFormat } from "../resource-name.ts";
import { filteredListQueryOf } from "../respond.ts";

const TAG = "Saved searches";
const LIST_ERRORS: readonly ErrorCode[] = [
  "FILTER0001", "FILTER0002", "FILTER0003", "FILTER0004", "ROUTES0103", "CRUD0202", "ROUTES0139", "ROUTES0140", "ROUTES0141", "CRUD0501", "CRUD0506",
];
const SearchParamSchema = v.pipe(v.string(), v.description("A saved search (SEARCH, REPORT or a structure extending them): initid, revision id or logical name"), v.examples(["SEARCH_REVIEW"]));

const LIST: RouteDescription = {
  tag: TAG, summary: "List the saved searches", query: FilteredListQuerySchema,
  description: "The saved searches and reports (structures SEARCH, REPORT and those that extend them) the user may view, as a list.",
  response: { data: v.object({ requestParameters: RequestParametersSchema, uri: v.string(), documents: v.array(ElementItemSchema) }) },
  errors: LIST_ERRORS,
};
const RUN: RouteDescription = {
  tag: TAG, summary: "Run a saved search", params: { search: SearchParamSchema }, query: FilteredListQuerySchema,
  description: "The elements the search finds that the user may view: its structure (descendants included), filter, trash setting (se_trash) and order; " +
    "a report's page size (rep_limit) and columns (rep_idcols) are the defaults. The request's `filter` is added with `and`; its orderBy, slice, offset " +
    "and fields win. A stored filter or order that no longer fits is refused with its code, the message naming the search.",
  response: {
    data: v.object({
      requestParameters: RequestParametersSchema, uri: v.string(), documents: v.array(ElementItemSchema),
      properties: v.object({ initid: v.number(), title: v.string() }),
    }),
  },
  errors: [...LIST_ERRORS, "ROUTES0100", "ROUTES0126", "CRUD0201", "ROUTES0105"],
};

/** Saved searches: the list of them, and each one's results. */
export function searchesRoutes(): Hono<HttpEnv> {
  const app = new Hono<HttpEnv>({ strict: false });
  app.get("/searches", describedRoute(LIST, async (c) => {
    const data = await c.var.platform.searches.list(c.var.principal, filteredListQueryOf(c));
    return c.json(successEnvelope(data));
  }));
  app.get("/searches/:search/smart-elements", describedRoute(RUN, async (c) => {
    const { name } = splitFormat(c.req.param("search") ?? "");
    const data = await c.var.platform.searches.run(c.var.principal, name, filteredListQueryOf(c));
    return c.json(successEnvelope(data));
  }));
  return app;
}
