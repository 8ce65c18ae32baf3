import { etagMatches } from "@lineage/core";
import type { Context } from "hono";
import { successEnvelope } from "./envelope.ts";

/** A JSON envelope answer, or 304 with an empty body when the client already has this ETag. */
export function respondWithEtag(c: Context, etag: string, data: unknown): Response {
  c.header("ETag", etag);
  if (etagMatches(c.req.header("if-none-match"), etag)) return c.body(null, 304);
  return c.json(successEnvelope(data));
}

/** The query variables of a request, first value of each. */
export function queryOf(c: Context): Record<string, string | undefined> {
  return c.req.query();
}
