import { describe, expect, it } from "vitest";
import { describedOperations, openApiPath } from "@lineage/adapter-http/openapi";
import { API_DOCUMENT_INFO } from "@lineage/adapter-http/openapi";
import { openApiDocumentOf } from "@lineage/adapter-http/openapi";
import { appWithEveryRoute } from "../src/full-app.ts";

/**
 * The OpenAPI document is made from the routes themselves (describedRoute, gathered by hono-openapi):
 * a route registered without a description would be missing from it, silently. So every route of an
 * app with every optional service must be in the document, once, with what it says of itself.
 */
describe("the OpenAPI document of the app", () => {
  it("describes every registered route, once", async () => {
    const app = await appWithEveryRoute();
    // `use` middlewares and the 501 answers of not-available.ts are registered for ALL methods: they are no operations.
    const registered = [...new Set(app.routes.filter((route) => route.method !== "ALL").map((route) => `${route.method} ${openApiPath(route.path).path}`))].sort();
    const described = (await describedOperations(app)).map((operation) => `${operation.method} ${operation.path}`);
    expect(registered.length).toBeGreaterThan(30);
    expect(registered.filter((route) => !described.includes(route)), "routes without a description: wrap their handler in describedRoute(...)").toEqual([]);
    expect(described.filter((operation) => !registered.includes(operation)), "descriptions without a route").toEqual([]);
    expect(described.filter((key, index) => described.indexOf(key) !== index), "described twice").toEqual([]);
  });

  it("documents each route under its own path, method and description, a trailing * as {path}", async () => {
    const document = await openApiDocumentOf(await appWithEveryRoute(), API_DOCUMENT_INFO) as { paths: Record<string, Record<string, { summary: string; parameters?: Array<{ name: string; in: string }> }>> };
    expect(document.paths["/api/v2/smart-structures/{family}/smart-elements/{docid}"]?.put?.summary).toBe("Modify a Smart Element of a Smart Structure");
    expect(document.paths["/api/v2/smart-elements/{docid}"]?.delete?.summary).toBe("Put a Smart Element in the trash");
    const asset = document.paths["/api/v2/images/assets/sizes/{size}/{path}"]?.get;
    expect(asset?.parameters?.filter((parameter) => parameter.in === "path").map((parameter) => parameter.name)).toEqual(["size", "path"]);
    expect(Object.keys(document.paths["/api/v2/images/{path}"] ?? {}).sort()).toEqual(["delete", "patch", "post", "put"]);
    expect(document.paths["/health"]?.get?.summary).toBe("Readiness for load balancers");
  });
});
