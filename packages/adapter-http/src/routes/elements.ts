import { Hono, type Context } from "hono";
import { LineageError, renderElementXml } from "@lineage/core";
import { successEnvelope } from "../envelope.ts";
import type { HttpEnv } from "../http-env.ts";
import { readPutValues } from "../request-body.ts";
import { splitFormat } from "../resource-name.ts";
import { listQueryOf, respondWithEtag } from "../respond.ts";

/** The element a PUT or DELETE names; the XML export is read-only (501). */
function writableName(segment: string, method: string): string {
  const { name, format } = splitFormat(segment, ["json", "xml"]);
  if (format === "xml") throw new LineageError("CRUD0103", [method, segment]);
  return name;
}

/**
 * The Smart Element collection (api-v2.md, Smart Element collection):
 * /api/v2/smart-elements/ and /api/v2/smart-structures/<family>/smart-elements/.
 */
export function elementRoutes(): Hono<HttpEnv> {
  const app = new Hono<HttpEnv>({ strict: false });

  const list = (c: Context<HttpEnv>, family?: string) => {
    const data = c.var.platform.listElements(c.var.principal, { ...listQueryOf(c), family });
    return c.json(successEnvelope(data));
  };
  app.get("/smart-elements", (c) => list(c));
  app.get("/smart-structures/:family/smart-elements", (c) => list(c, c.req.param("family")));

  for (const prefix of ["/smart-elements/:docid", "/smart-structures/:family/smart-elements/:docid"]) {
    app.get(prefix, async (c) => {
      const { name, format } = splitFormat(c.req.param("docid") ?? "", ["json", "xml"]);
      const family = c.req.param("family");
      const reading = await c.var.platform.readElement(c.var.principal, name, { fields: c.req.query("fields"), family });
      if (format === "xml") {
        c.header("ETag", reading.etag);
        return c.body(renderElementXml(reading.revision, c.var.platform.scope(c.var.principal)), 200, { "Content-Type": "application/xml; charset=utf-8" });
      }
      return respondWithEtag(c, reading.etag, reading.data);
    });
    app.put(prefix, async (c) => {
      const started = performance.now();
      const name = writableName(c.req.param("docid") ?? "", c.req.method);
      const { values, caseInsensitive } = await readPutValues(c);
      const { platform, principal } = c.var;
      const updated = platform.updateElement(principal, name, { values, caseInsensitive, family: c.req.param("family") });
      return c.json(successEnvelope(platform.writeResult(principal, updated, started, c.req.query("fields"))));
    });
    app.delete(prefix, (c) => {
      const started = performance.now();
      const name = writableName(c.req.param("docid") ?? "", c.req.method);
      const { platform, principal } = c.var;
      const deleted = platform.deleteElement(principal, name, c.req.param("family"));
      return c.json(successEnvelope(platform.writeResult(principal, deleted, started, c.req.query("fields"))));
    });
  }
  return app;
}
