import { Hono } from "hono";
import { ElementQuerySchema, FilteredListQuerySchema, RestoreBodySchema } from "@lineage/core";
import * as v from "valibot";
import { DocumentSchema, ElementItemSchema, RequestParametersSchema, describedRoute, type RouteDescription } from "../openapi/index.ts";
import { ELEMENT_PARAMS } from "../openapi/path-parameters.ts";
import { successEnvelope } from "../envelope.ts";
import type { HttpEnv } from "../http-env.ts";
import { readJsonBody } from "../request-body.ts";
import { headerOf } from "../request-header.ts";
import { IF_MATCH, writeAnswerFields } from "./elements.ts";
import { splitFormat } from "../resource-name.ts";
import { filteredListQueryOf, respondWithEtag } from "../respond.ts";

const LIST: RouteDescription = {
  tag: "Trash", summary: "List the elements in the trash", query: FilteredListQuerySchema,
    response: { data: v.object({ requestParameters: RequestParametersSchema, uri: v.string(), documents: v.array(ElementItemSchema) }) },
  errors: ["FILTER0001", "FILTER0002", "FILTER0003", "FILTER0004", "ROUTES0103", "CRUD0202", "ROUTES0139", "ROUTES0140", "ROUTES0141", "CRUD0501", "CRUD0506"],
};
const READ: RouteDescription = {
  tag: "Trash", summary: "Read an element in the trash", params: ELEMENT_PARAMS, query: ElementQuerySchema,
    response: { data: v.object({ document: DocumentSchema }) },
  errors: ["ROUTES0100", "ROUTES0101", "ROUTES0112", "ROUTES0103", "CRUD0202"],
};
const RESTORE: RouteDescription = {
  tag: "Trash", summary: "Restore an element from the trash", params: ELEMENT_PARAMS, query: ElementQuerySchema,
    description: `The lineage becomes alive again, with a history entry. ${IF_MATCH} The answer carries the element's new ETag.`,
    body: { content: { "application/json": RestoreBodySchema } },
    response: { data: v.object({ document: DocumentSchema, duration: v.optional(v.string()) }) },
  errors: ["CRUD0236", "CRUD0237", "CRUD0238", "ROUTES0100", "ROUTES0101", "ROUTES0112", "ROUTES0110", "ROUTES0103", "CRUD0202"],
};

/** The trash: deleted elements, readable and restorable (PUT status alive). */
export function trashRoutes(): Hono<HttpEnv> {
  const app = new Hono<HttpEnv>({ strict: false });
  app.get("/trash", describedRoute(LIST, async (c) => {
    const data = await c.var.platform.trash.list(c.var.principal, filteredListQueryOf(c));
    return c.json(successEnvelope(data));
  }));
  app.get("/trash/:docid", describedRoute(READ, async (c) => {
    const { name } = splitFormat(c.req.param("docid") ?? "");
    const reading = await c.var.platform.trash.read(c.var.principal, name, { fields: c.req.query("fields"), stamp: c.var.stamp });
    return respondWithEtag(c, reading.etag, reading.data);
  }));
  app.put("/trash/:docid", describedRoute(RESTORE, async (c) => {
    const started = performance.now();
    const { name } = splitFormat(c.req.param("docid") ?? "");
    const fields = writeAnswerFields(c);
    const { platform, principal, deadline } = c.var;
    const restored = await platform.trash.restore(principal, name, await readJsonBody(c), {
      deadline, stamp: c.var.stamp, ifMatch: headerOf(c, "if-match"), fields, startedAt: started,
    });
    c.header("ETag", restored.etag);
    return c.json(successEnvelope(restored.data));
  }));
  return app;
}
