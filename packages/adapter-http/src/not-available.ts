import { LineageError } from "@lineage/core";
import type { Context, Hono } from "hono";
import type { HttpEnv } from "./http-env.ts";
import { describedRoute } from "./openapi/index.ts";
import { pathnameOf } from "./request-path.ts";
import { IMAGES_READ_ONLY } from "./routes/images.ts";

/** Every known path of API v2 (under /api/v2) with the methods it implements; the rest answer 501. */
export const KNOWN_PATHS: ReadonlyArray<{ path: string; methods: readonly string[] }> = [
  { path: "/smart-elements", methods: ["GET"] },
  { path: "/smart-elements/:docid", methods: ["GET", "PUT", "DELETE"] },
  { path: "/smart-structures/:family", methods: ["GET"] },
  { path: "/smart-structures/:family/smart-elements", methods: ["GET", "POST"] },
  { path: "/smart-structures/:family/smart-elements/:docid", methods: ["GET", "PUT", "DELETE"] },
  { path: "/trash", methods: ["GET"] },
  { path: "/trash/:docid", methods: ["GET", "PUT"] },
  { path: "/folders", methods: ["GET"] },
  { path: "/folders/:folder/smart-elements", methods: ["GET"] },
  { path: "/folders/:folder/smart-elements/:docid", methods: ["PUT", "DELETE"] },
  { path: "/smart-structures/:family/enumerates/:enum", methods: ["GET"] },
  { path: "/enumerates/:enum", methods: ["GET"] },
  { path: "/authent/tokens", methods: ["GET"] },
  { path: "/authent/tokens/:token", methods: ["DELETE"] },
  { path: "/dashboard/list", methods: ["GET"] },
  { path: "/dashboard/info", methods: ["GET"] },
  { path: "/fullsearch/domains/:domain/smart-elements", methods: ["GET"] },
  { path: "/images/assets/original/*", methods: ["GET"] },
  { path: "/images/assets/sizes/:size/*", methods: ["GET"] },
  { path: "/images/recorded/original/:image", methods: ["GET"] },
  { path: "/images/recorded/sizes/:size/:image", methods: ["GET"] },
  { path: "/smart-elements/:docid/images/:attrid/:index/sizes/:size", methods: ["GET"] },
  ...["/smart-elements/:docid", "/smart-structures/:family/smart-elements/:docid", "/trash/:docid"].flatMap((base) => [
    { path: `${base}/revisions`, methods: ["GET"] },
    { path: `${base}/revisions/:revision`, methods: ["GET"] },
    { path: `${base}/history`, methods: ["GET"] },
  ]),
  ...["/smart-elements/:docid", "/smart-structures/:family/smart-elements/:docid"].flatMap((base) => [
    { path: `${base}/files/:attrid/:index/:fileName`, methods: ["GET"] },
    { path: `${base}/revisions/:revision/files/:attrid/:index/:fileName`, methods: ["GET"] },
  ]),
  ...["/smart-elements/:docid", "/smart-structures/:family/smart-elements/:docid"].flatMap((base) => [
    { path: `${base}/workflows/states`, methods: ["GET"] },
    { path: `${base}/workflows/states/:state`, methods: ["GET", "POST"] },
    { path: `${base}/workflows/transitions`, methods: ["GET"] },
    { path: `${base}/workflows/transitions/:transition`, methods: ["GET", "POST"] },
  ]),
];

/** The 501 answer (CRUD0103) of a method a known path does not implement. */
export function notAvailable(c: Context<HttpEnv>): never {
  throw new LineageError("CRUD0103", [c.req.method, pathnameOf(c.req.url)]);
}

/** Registers the 501 answer for the methods a known path does not implement; call after the real routes. */
export function answerNotAvailable(app: Hono<HttpEnv>, prefix: string): void {
  // Images are read-only whether the app serves them or not.
  app.on(["POST", "PUT", "DELETE", "PATCH"], `${prefix}/images/*`, describedRoute(IMAGES_READ_ONLY, (c) => notAvailable(c)));
  for (const { path } of KNOWN_PATHS) app.all(`${prefix}${path}`, notAvailable);
}
