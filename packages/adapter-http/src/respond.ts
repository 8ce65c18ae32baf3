import { etagMatches } from "@lineage/core";
import type { Context } from "hono";
import { successEnvelope } from "./envelope.ts";

// Answers the core serves again unchanged (its reading cache) are serialized once.
const serialized = new WeakMap<object, string>();

/** A JSON envelope answer, or 304 with an empty body when the client already has this ETag. */
export function respondWithEtag(c: Context, etag: string, data: object): Response {
  c.header("ETag", etag);
  if (etagMatches(c.req.header("if-none-match"), etag)) return c.body(null, 304);
  let text = serialized.get(data);
  if (text === undefined) {
    text = JSON.stringify(successEnvelope(data));
    serialized.set(data, text);
  }
  return c.body(text, 200, { "Content-Type": "application/json" });
}


/** The list parameters of a collection's query; `orderby` (the original's spelling) is read too. */
export function listQueryOf(c: Context): { fields?: string; slice?: string; offset?: string; orderBy?: string } {
  const q = c.req.query();
  return { fields: q.fields, slice: q.slice, offset: q.offset, orderBy: q.orderBy ?? q.orderby };
}
