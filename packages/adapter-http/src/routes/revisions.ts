import { Hono } from "hono";
import { ElementQuerySchema, ListQuerySchema, type ErrorCode } from "@lineage/core";
import * as v from "valibot";
import { DocumentSchema, ElementItemSchema, RequestParametersSchema, describedRoute, type RouteDescription } from "../openapi/index.ts";
import { ELEMENT_PARAMS } from "../openapi/path-parameters.ts";
import { successEnvelope } from "../envelope.ts";
import type { HttpEnv } from "../http-env.ts";
import { splitFormat } from "../resource-name.ts";
import { listQueryOf, respondWithEtag } from "../respond.ts";

/** The three homes of an element's sub-collections, and how each locates it. */
const ELEMENT_BASES = [
  { path: "/smart-elements/:docid", trash: false },
  { path: "/smart-structures/:family/smart-elements/:docid", trash: false },
  { path: "/trash/:docid", trash: true },
] as const;

/** The query of the history: paging and a revision filter, -1 meaning none. */
export const HistoryQuerySchema = v.object({
  slice: v.optional(v.pipe(v.string(), v.description("Revisions per page, -1 (default) for all; else 400 ROUTES0139"))),
  offset: v.optional(v.pipe(v.string(), v.description("Revisions skipped, 0 by default; else 400 ROUTES0140"))),
  revision: v.optional(v.pipe(v.string(), v.description("Only this revision number; -1 (default) for all; else 400 ROUTES0140"))),
});

const RevisionNumberSchema = v.pipe(v.string(), v.description("Revision number (0 for the first); a .json suffix may follow"), v.examples(["0", "2.json"]));
const LOCATE_ERRORS: readonly ErrorCode[] = ["CRUD0200", "CRUD0201", "CRUD0220", "ROUTES0105"];

/** The descriptions of a home's revisions, one revision and history, for the OpenAPI document. */
function subCollectionDescriptions(base: (typeof ELEMENT_BASES)[number]): Record<"revisions" | "revision" | "history", RouteDescription> {
  const where = base.trash ? " of an element in the trash" : base.path.includes(":family") ? " (family-checked)" : "";
  const tag = base.trash ? "Trash" : "Revisions";
  const params = { ...ELEMENT_PARAMS, revision: RevisionNumberSchema };
  return {
    revisions: {
      tag, summary: `List the revisions${where}`, params, query: ListQuerySchema,
      description: "Every revision of the lineage, newest first by default. Carries an ETag; If-None-Match gives 304.", etag: true,
      response: { data: v.object({ requestParameters: RequestParametersSchema, uri: v.string(), revisions: v.array(ElementItemSchema) }) },
      errors: [...LOCATE_ERRORS, ...(base.trash ? (["ROUTES0112"] as const) : (["CRUD0219"] as const)), "ROUTES0103", "CRUD0202", "ROUTES0139", "ROUTES0140", "CRUD0501", "CRUD0506"],
    },
    revision: {
      tag, summary: `Read one revision${where}`, params, query: ElementQuerySchema,
      description: "Carries an ETag; If-None-Match gives 304.", etag: true,
      response: { data: v.object({ revision: DocumentSchema }) },
      errors: ["ROUTES0100", "ROUTES0101", base.trash ? "ROUTES0112" : "ROUTES0102", "ROUTES0104", "ROUTES0105", "CRUD0221", "ROUTES0103", "CRUD0202"],
    },
    history: {
      tag, summary: `Read the history${where}`, params, query: HistoryQuerySchema,
      description: "History entries (comments, state changes, modifications) grouped by revision, newest first.",
      response: { data: v.looseObject({ uri: v.string(), requestParameters: v.unknown(), history: v.array(v.unknown()) }) },
      errors: [...LOCATE_ERRORS, "ROUTES0139", "ROUTES0140"],
    },
  };
}

/** Revisions and history sub-collections, in their three variants. */
export function revisionRoutes(): Hono<HttpEnv> {
  const app = new Hono<HttpEnv>({ strict: false });
  for (const base of ELEMENT_BASES) {
    const described = subCollectionDescriptions(base);
    app.get(`${base.path}/revisions`, describedRoute(described.revisions, async (c) => {
      const result = await c.var.platform.revisions.list(c.var.principal, c.req.param("docid") ?? "", {
        family: c.req.param("family"), trash: base.trash, ...listQueryOf(c),
      });
      return respondWithEtag(c, result.etag, result.data);
    }));
    app.get(`${base.path}/revisions/:revision`, describedRoute(described.revision, async (c) => {
      const { name: revision } = splitFormat(c.req.param("revision") ?? "");
      const result = await c.var.platform.revisions.read(c.var.principal, c.req.param("docid") ?? "", revision, {
        family: c.req.param("family"), trash: base.trash, fields: c.req.query("fields"), stamp: c.var.stamp,
      });
      return respondWithEtag(c, result.etag, result.data);
    }));
    app.get(`${base.path}/history`, describedRoute(described.history, async (c) => {
      const q = c.req.query();
      const data = await c.var.platform.revisions.history(c.var.principal, c.req.param("docid") ?? "", {
        family: c.req.param("family"), trash: base.trash, slice: q.slice, offset: q.offset, revision: q.revision, stamp: c.var.stamp,
      });
      return c.json(successEnvelope(data));
    }));
  }
  return app;
}
