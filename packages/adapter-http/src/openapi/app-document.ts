import { Hono, type Env } from "hono";
import { generateSpecs } from "hono-openapi";
import { buildOpenApiDocument, type DocumentInfo } from "./build-document.ts";
import { DESCRIPTION_KEY } from "./described-route.ts";
import type { ApiOperation, OperationMethod, RouteDescription } from "./operation.ts";

type Json = Record<string, unknown>;

/**
 * Every described route of `app` with the method and path it is registered with (`/api/v2/smart-elements/{docid}`),
 * in the order of registration, as hono-openapi gathers them from `app.routes`.
 */
export async function describedOperations<E extends Env>(app: Hono<E>): Promise<ApiOperation[]> {
  // hono-openapi leaves out paths ending in a bare `*`: named, the rest of the path is the parameter {path}.
  const routes = app.routes.map((route) => ({ ...route, path: route.path.replace(/\/\*$/, "/:path") }));
  const generated = await generateSpecs(Object.assign(new Hono(), { routes }), { excludeStaticFile: false });
  const operations: ApiOperation[] = [];
  for (const [path, item] of Object.entries(generated.paths ?? {})) {
    for (const [method, spec] of Object.entries((item ?? {}) as Record<string, Json | undefined>)) {
      const description = spec?.[DESCRIPTION_KEY] as RouteDescription | undefined;
      if (description) operations.push({ ...description, method: method.toUpperCase() as OperationMethod, path });
    }
  }
  return operations;
}

/**
 * The OpenAPI 3.1 document of an app: each route's own description (describedRoute), completed with
 * the envelope, the errors every request can get and those of its code table (build-document.ts).
 */
export async function openApiDocumentOf<E extends Env>(app: Hono<E>, info: DocumentInfo): Promise<Json> {
  return buildOpenApiDocument(await describedOperations(app), info);
}
