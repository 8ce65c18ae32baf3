import { contentDisposition, etagMatches, wantsInline, type ErrorCode } from "@lineage/core";
import { Hono, type Context } from "hono";
import * as v from "valibot";
import type { HttpEnv } from "../http-env.ts";
import { describedRoute, type RouteDescription } from "../openapi/index.ts";
import { ELEMENT_PARAMS } from "../openapi/path-parameters.ts";
import { headerOf } from "../request-header.ts";

/** The homes of an element's files: the element, or one of its revisions, each also under its structure's collection. */
const FILE_BASES = [
  { path: "/smart-elements/:docid", revision: false },
  { path: "/smart-elements/:docid/revisions/:revision", revision: true },
  { path: "/smart-structures/:family/smart-elements/:docid", revision: false },
  { path: "/smart-structures/:family/smart-elements/:docid/revisions/:revision", revision: true },
] as const;

const FILE_PATH = "/files/:attrid/:index/:fileName";

const FileIndexSchema = v.pipe(v.string(), v.regex(/^-?[0-9]+$/), v.description("-1 for a field outside an array and not multiple, else the row or the item (0 = first)"));
const FileNameSchema = v.pipe(v.string(), v.description("Any name: the download is named after the stored file; file values' url gives the stored name"));
const RevisionSchema = v.pipe(v.string(), v.regex(/^[0-9]+$/), v.description("Revision number (0 for the first)"));
export const FileQuerySchema = v.object({
  inline: v.optional(v.pipe(v.string(), v.description("true, yes or 1: Content-Disposition inline; otherwise attachment"))),
});

const LOCATE_ERRORS: readonly ErrorCode[] = ["CRUD0200", "CRUD0201", "CRUD0220", "ROUTES0105"];
const VALUE_ERRORS: readonly ErrorCode[] = ["ROUTES0116", "ROUTES0118", "ROUTES0119", "ROUTES0120", "ROUTES0121", "ROUTES0122", "ROUTES0123", "ROUTES0124"];

/** The description of a home's files route, for the OpenAPI document. */
function fileDescription(base: (typeof FILE_BASES)[number]): RouteDescription {
  const family = base.path.startsWith("/smart-structures/");
  return {
    tag: "Files",
    summary: `Download the file of a file or image Smart Field${base.revision ? " of one revision" : ""}${family ? " (family-checked)" : ""}`,
    params: { ...ELEMENT_PARAMS, index: FileIndexSchema, fileName: FileNameSchema, ...(base.revision ? { revision: RevisionSchema } : {}) },
    query: FileQuerySchema,
    description: "The stored file with its type, named by the stored name (Content-Disposition, RFC 6266 filename*): attachment unless inline asks. " +
      "Needs the view right on the element, as reading it does; a field of visibility I answers as unknown (ROUTES0116). " +
      "Errors are the JSON envelope. Carries a strong ETag (the content's SHA-256); If-None-Match gives 304.",
    etag: true,
    response: { contentType: "*/*", description: "The file's bytes, with the type it was stored with" },
    errors: [...LOCATE_ERRORS, ...VALUE_ERRORS, ...(base.revision ? (["CRUD0221"] as const) : [])],
  };
}

/**
 * Download headers: a sandbox, so that an HTML or SVG file shown inline runs nothing on the API's
 * origin, and no sniffing: the type is the stored one.
 */
const SAFE_DOWNLOAD = { "X-Content-Type-Options": "nosniff", "Content-Security-Policy": "default-src 'none'; sandbox" } as const;

/**
 * The files of file and image Smart Fields (the original's FileAttribute):
 * GET .../files/<attrid>/<index>/<fileName>, of an element or of one of its revisions.
 */
export function fileRoutes(): Hono<HttpEnv> {
  const app = new Hono<HttpEnv>({ strict: false });
  for (const base of FILE_BASES) {
    app.get(`${base.path}${FILE_PATH}`, describedRoute(fileDescription(base), async (c: Context<HttpEnv>) => {
      const { platform, principal, stamp } = c.var;
      const download = await platform.files.read(principal, c.req.param("docid") ?? "", c.req.param("attrid") ?? "", c.req.param("index") ?? "", {
        family: c.req.param("family"), revision: base.revision ? c.req.param("revision") : undefined, stamp,
      });
      // Checked like the element: a revalidation still goes through the rights above.
      c.header("Cache-Control", "private, no-cache");
      c.header("ETag", download.etag);
      if (etagMatches(headerOf(c, "if-none-match"), download.etag)) return c.body(null, 304);
      return c.body(download.bytes as Uint8Array<ArrayBuffer>, 200, {
        ...SAFE_DOWNLOAD,
        "Content-Type": download.file.mime || "application/octet-stream",
        "Content-Disposition": contentDisposition(wantsInline(c.req.query("inline")), download.name),
      });
    }));
  }
  return app;
}
