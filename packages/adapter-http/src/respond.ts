import { etagMatches } from "@lineage/core";
import type { ChangeStamp } from "@lineage/core";
import type { Context } from "hono";
import type { HttpEnv } from "./http-env.ts";
import { successEnvelope } from "./envelope.ts";
import { headerOf } from "./request-header.ts";

// Answers the core serves again unchanged (its reading cache) are serialized and encoded once.
const serialized = new WeakMap<object, Uint8Array<ArrayBuffer>>();
const utf8 = new TextEncoder();

/** A JSON envelope answer, or 304 with an empty body when the client already has this ETag. */
export function respondWithEtag(c: Context, etag: string, data: object): Response {
  c.header("ETag", etag);
  if (etagMatches(headerOf(c, "if-none-match"), etag)) return c.body(null, 304);
  let body = serialized.get(data);
  if (body === undefined) {
    body = utf8.encode(JSON.stringify(successEnvelope(data)));
    serialized.set(data, body);
  }
  return c.body(body, 200, { "Content-Type": "application/json" });
}


/** The list parameters of a collection's query (`orderby`, the original's spelling, is read too), with the request's change stamp. */
export function listQueryOf(c: Context<HttpEnv>): { fields?: string; slice?: string; offset?: string; orderBy?: string; stamp: ChangeStamp } {
  const q = c.req.query();
  return { fields: q.fields, slice: q.slice, offset: q.offset, orderBy: q.orderBy ?? q.orderby, stamp: c.get("stamp") };
}

/** The parameters of a list that takes a filter: the list's, `filter` (JSON) and `count`. */
export function filteredListQueryOf(c: Context<HttpEnv>): ReturnType<typeof listQueryOf> & { filter?: string; count?: string } {
  const q = c.req.query();
  return { ...listQueryOf(c), filter: q.filter, count: q.count };
}
