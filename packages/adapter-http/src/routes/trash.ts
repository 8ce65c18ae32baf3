import { Hono } from "hono";
import { successEnvelope } from "../envelope.ts";
import type { HttpEnv } from "../http-env.ts";
import { readJsonBody } from "../request-body.ts";
import { splitFormat } from "../resource-name.ts";
import { listQueryOf, respondWithEtag } from "../respond.ts";

/** The trash: deleted elements, readable and restorable (PUT status alive). */
export function trashRoutes(): Hono<HttpEnv> {
  const app = new Hono<HttpEnv>({ strict: false });
  app.get("/trash", (c) => {
    const data = c.var.platform.listTrash(c.var.principal, listQueryOf(c));
    return c.json(successEnvelope(data));
  });
  app.get("/trash/:docid", async (c) => {
    const { name } = splitFormat(c.req.param("docid"));
    const reading = await c.var.platform.readElement(c.var.principal, name, { fields: c.req.query("fields"), trash: true });
    return respondWithEtag(c, reading.etag, reading.data);
  });
  app.put("/trash/:docid", async (c) => {
    const started = performance.now();
    const { name } = splitFormat(c.req.param("docid"));
    const { platform, principal } = c.var;
    const restored = platform.restoreElement(principal, name, await readJsonBody(c));
    return c.json(successEnvelope(platform.writeResult(principal, restored, started, c.req.query("fields"))));
  });
  return app;
}
