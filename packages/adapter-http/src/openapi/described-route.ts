import type { Handler } from "hono";
import type { HandlerResponse, Input } from "hono/types";
import { uniqueSymbol } from "hono-openapi";
import type { HttpEnv } from "../http-env.ts";
import type { RouteDescription } from "./operation.ts";

/** Where a description travels through hono-openapi's spec of the route, to be completed once its method and path are known. */
export const DESCRIPTION_KEY = "x-lineage-route";

/**
 * A route handler carrying its description for the OpenAPI document (app-document.ts), as
 * hono-openapi's `describeRoute` would, but on the handler itself rather than as a middleware
 * of its own: every layer Hono composes costs each request an async step (docs/benchmarks.md).
 * Give each registration its own handler (a closure): one function carries one description.
 * @example
 * app.get("/enumerates/:enum", describedRoute({ tag: "Enumerates", summary: "Items of an enumerate" }, (c) => read(c)));
 */
// Any path (the route's own is not known here): `c.req.param(name)` is then a string or undefined.
export function describedRoute<I extends Input, R extends HandlerResponse<unknown>>(description: RouteDescription, handler: Handler<HttpEnv, any, I, R>): Handler<HttpEnv, any, I, R> {
  if (uniqueSymbol in handler) throw new Error(`This handler is already described (${description.summary}): give each route its own`);
  return Object.assign(handler, { [uniqueSymbol]: { spec: { [DESCRIPTION_KEY]: description } } });
}
