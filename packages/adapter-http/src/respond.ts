import { etagMatches } from "@lineage/core";
import type { Context } from "hono";
import { successEnvelope } from "./envelope.ts";

/** A JSON envelope answer, or 304 with an empty body when the client already has this ETag. */
export function respondWithEtag(c: Context, etag: string, data: unknown): Response {
  c.header("ETag", etag);
  if (etagMatches(c.req.header("if-none-match"), etag)) return c.body(null, 304);
  return c.json(successEnvelope(data));
}


/** The list parameters of a collection's query; `orderby` (the original's spelling) is read too. */
export function listQueryOf(c: Context): { fields?: string; slice?: string; offset?: string; orderBy?: string } {
  const q = c.req.query();
  return { fields: q.fields, slice: q.slice, offset: q.offset, orderBy: q.orderBy ?? q.orderby };
}
