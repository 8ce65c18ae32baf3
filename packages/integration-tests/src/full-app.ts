import { createImageVariants, createPlatform } from "@lineage/core";
import { createMemoryDashboardServer, createMemoryImageStore } from "@lineage/core/testing";
import type { Hono } from "hono";
import { seededPlatform } from "@lineage/core/testing";
import { createHttpApp } from "@lineage/adapter-http";
import type { HttpEnv } from "@lineage/adapter-http";

/**
 * An app built with every optional service (images, dashboards), so that every route exists: what
 * the OpenAPI document is made from in the tests. Nothing is served: no request reaches its services.
 */
export async function appWithEveryRoute(): Promise<Hono<HttpEnv>> {
  const seed = await seededPlatform();
  // The dashboard server is given to the platform (createPlatform({ dashboards })): the seeded one's, over the same store.
  const platform = { ...seed.platform, dashboards: createPlatform({ store: seed.store, dashboards: createMemoryDashboardServer() }).dashboards };
  const store = createMemoryImageStore();
  const processor = new Proxy({}, { get: () => () => { throw new Error("not used by route registration"); } });
  return createHttpApp({
    platform,
    images: { store, variants: createImageVariants({ store, processor: processor as never }) },
  });
}
