import { describe, expect, it } from "vitest";
import { createImageVariants } from "@lineage/core";
import { createMemoryDashboardServer, createMemoryImageStore } from "@lineage/core/testing";
import { seededPlatform } from "../../core/test/fixture.ts";
import { createHttpApp } from "../src/index.ts";
import { API_OPERATIONS } from "../src/openapi/api-operations.ts";

/**
 * Every route the app registers must be described in openapi/ (and every
 * description must have its route): this is what keeps /api/v2/openapi.json
 * complete. The app is built with every optional service so that every route exists.
 */
async function registeredRoutes(): Promise<string[]> {
  const { platform } = await seededPlatform();
  const store = createMemoryImageStore();
  // Registration only: no request reaches the processor in this test.
  const processor = new Proxy({}, { get: () => () => { throw new Error("not used by route registration"); } });
  const app = createHttpApp({
    platform,
    images: { store, variants: createImageVariants({ store, processor: processor as never }) },
    dashboards: createMemoryDashboardServer(),
  });
  // `use` middlewares and the 501 answers of not-available.ts are registered for ALL methods: they are no operations.
  const routes = app.routes.filter((route) => route.method !== "ALL").map((route) => `${route.method} ${route.path}`);
  return [...new Set(routes)].sort();
}

describe("the OpenAPI descriptions", () => {
  it("describe every registered route, and only those", async () => {
    const routes = await registeredRoutes();
    const described = [...new Set(API_OPERATIONS.map((operation) => `${operation.method} ${operation.path}`))].sort();
    expect(routes.length).toBeGreaterThan(30);
    expect(routes.filter((route) => !described.includes(route)), "routes without a description: add them to openapi/api-operations.ts").toEqual([]);
    expect(described.filter((operation) => !routes.includes(operation)), "descriptions without a route").toEqual([]);
  });

  it("describe each operation once", () => {
    const keys = API_OPERATIONS.map((operation) => `${operation.method} ${operation.path}`);
    expect(keys.filter((key, index) => keys.indexOf(key) !== index)).toEqual([]);
  });
});
