import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Hono } from "hono";
import * as v from "valibot";
import { LineageError } from "@lineage/core";
import type { HttpEnv } from "../http-env.ts";
import { describedRoute, openApiDocumentOf, withStructureSchemas, type DocumentInfo, type RouteDescription } from "../openapi/index.ts";

/** The files of swagger-ui-dist the page loads; nothing comes from a CDN. */
const ASSETS: Readonly<Record<string, string>> = {
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "swagger-ui.css": "text/css; charset=utf-8",
  "favicon-32x32.png": "image/png",
};

const swaggerUiDir = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
const swaggerUiVersion = (JSON.parse(readFileSync(join(swaggerUiDir, "package.json"), "utf8")) as { version: string }).version;

/** The title and introduction of the served document (the end-to-end tests validate answers against the same). */
export const API_DOCUMENT_INFO: DocumentInfo = {
  title: "Lineage REST API v2",
  version: "2",
  description: "Smart Elements, revisions, trash, lifecycles, enumerates and more. Every JSON answer is the envelope {success, messages, data}; methods a path does not implement answer 501 (CRUD0103).",
};

const INIT_FILE = "reference-init.js";
const AssetNameSchema = v.pipe(v.picklist([...Object.keys(ASSETS), INIT_FILE]), v.description("A file of the page"));

const DESCRIBED: Record<"document" | "page" | "asset", RouteDescription> = {
  document: {
    tag: "API description",
    summary: "This OpenAPI 3.1 document",
    description: "Generated from the routes themselves: each one's description and the valibot schemas it validates with, and the error-code table; " +
      "with one schema per Smart Structure of the store (Attributes.<NAME>), and the element routes of each structure's collection typed by it.",
    response: {
      data: v.pipe(v.looseObject({ openapi: v.string(), paths: v.record(v.string(), v.unknown()) }), v.description("The OpenAPI document itself, not in the envelope")),
      envelope: false,
      description: "The OpenAPI document (not wrapped in the envelope)",
    },
  },
  page: {
    tag: "API description",
    summary: "Interactive reference page of this document",
    description: "Swagger UI, served from the server (no CDN). Same authentication as the rest of /api/.",
    response: { contentType: "text/html", description: "The page" },
  },
  asset: {
    tag: "API description", summary: "Files of the reference page", params: { file: AssetNameSchema },
    description: "Swagger UI's files, with an ETag (If-None-Match gives 304); the page's own script has none.",
    response: { contentType: "text/javascript", alternatives: { "text/css": null, "image/png": null }, description: "The file" },
    etag: true, errors: ["API0004"],
  },
};

const page = (base: string) => `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Lineage API v2 reference</title>
  <link rel="icon" href="${base}/docs/assets/favicon-32x32.png">
  <link rel="stylesheet" href="${base}/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="reference" data-spec-url="${base}/openapi.json"></div>
  <script src="${base}/docs/assets/swagger-ui-bundle.js"></script>
  <script src="${base}/docs/assets/${INIT_FILE}"></script>
</body>
</html>
`;

// Kept out of the page so a Content-Security-Policy without 'unsafe-inline' still allows it.
// Tags start collapsed, with a filter box: with one set of operations per structure, Swagger UI
// 5 in "list" mode stopped committing operation blocks after the first tag (past ~130 operations).
const INIT_SCRIPT = `const root = document.getElementById("reference");
window.ui = SwaggerUIBundle({ url: root.dataset.specUrl, domNode: root, deepLinking: true, docExpansion: "none", filter: true, defaultModelsExpandDepth: 0, tryItOutEnabled: false });
`;

/**
 * GET /api/v2/openapi.json and the reference page /api/v2/docs. Mounted
 * behind the same authentication as every /api/ route: the spec leaves no
 * /api/ request unauthenticated, and a browser shows the Basic prompt or uses
 * the session of the login form. The routes' document is made once, at its first request, from the routes
 * `served` has by then (hono-openapi gathers their descriptions); the structures' schemas are added to it
 * once per change of the definitions.
 */
export function apiReferenceRoutes(served: Hono<HttpEnv>): Hono<HttpEnv> {
  const app = new Hono<HttpEnv>({ strict: false });
  let routesDocument: Promise<Record<string, unknown>> | undefined;
  let document: { readonly stamp: string; readonly text: string } | undefined;
  const assets = new Map<string, Uint8Array<ArrayBuffer>>();

  app.get("/openapi.json", describedRoute(DESCRIBED.document, async (c) => {
    routesDocument ??= openApiDocumentOf(served, API_DOCUMENT_INFO);
    const base = await routesDocument;
    const definitions = await c.var.platform.structures.definitions(c.var.stamp);
    if (document?.stamp !== definitions.stamp || definitions.stamp === "") {
      document = { stamp: definitions.stamp, text: JSON.stringify(withStructureSchemas(base, definitions)) };
    }
    return c.body(document.text, 200, { "Content-Type": "application/json; charset=utf-8" });
  }));
  app.get("/docs", describedRoute(DESCRIBED.page, (c) => c.html(page(c.req.path.replace(/\/docs\/?$/, "")))));
  app.get("/docs/assets/:file", describedRoute(DESCRIBED.asset, (c) => {
    const parsed = v.safeParse(AssetNameSchema, c.req.param("file"));
    if (!parsed.success) throw new LineageError("API0004", [c.req.path]);
    if (parsed.output === INIT_FILE) return c.body(INIT_SCRIPT, 200, { "Content-Type": "text/javascript; charset=utf-8" });
    const etag = `"swagger-ui-${swaggerUiVersion}-${parsed.output}"`;
    if (c.req.header("if-none-match") === etag) return c.body(null, 304, { ETag: etag });
    let content = assets.get(parsed.output);
    if (!content) {
      content = new Uint8Array(readFileSync(join(swaggerUiDir, parsed.output)));
      assets.set(parsed.output, content);
    }
    return c.body(content, 200, { "Content-Type": ASSETS[parsed.output] as string, ETag: etag });
  }));
  return app;
}
