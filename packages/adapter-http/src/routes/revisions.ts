import { Hono } from "hono";
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

/** Revisions and history sub-collections, in their three variants. */
export function revisionRoutes(): Hono<HttpEnv> {
  const app = new Hono<HttpEnv>({ strict: false });
  for (const base of ELEMENT_BASES) {
    app.get(`${base.path}/revisions`, async (c) => {
      const result = await c.var.platform.listRevisions(c.var.principal, c.req.param("docid"), {
        family: c.req.param("family"), trash: base.trash, ...listQueryOf(c),
      });
      return respondWithEtag(c, result.etag, result.data);
    });
    app.get(`${base.path}/revisions/:revision`, async (c) => {
      const { name: revision } = splitFormat(c.req.param("revision"));
      const result = await c.var.platform.readRevision(c.var.principal, c.req.param("docid"), revision, {
        family: c.req.param("family"), trash: base.trash, fields: c.req.query("fields"),
      });
      return respondWithEtag(c, result.etag, result.data);
    });
    app.get(`${base.path}/history`, (c) => {
      const q = c.req.query();
      const data = c.var.platform.readHistory(c.var.principal, c.req.param("docid"), {
        family: c.req.param("family"), trash: base.trash, slice: q.slice, offset: q.offset, revision: q.revision,
      });
      return c.json(successEnvelope(data));
    });
  }
  return app;
}
