import { dashboardServerContract } from "@lineage/core/testing";
import { createSupersetServer } from "../src/index.ts";
import { fakeDashboard, startFakeSuperset } from "../src/testing/fake-superset.ts";

// The Superset adapter against its stand-in on loopback (real HTTP); failing is the login refused.
dashboardServerContract("Superset, REST API v1", async (seeds) => {
  const superset = await startFakeSuperset(seeds.map((seed) => fakeDashboard(seed.id, seed.title, {
    slug: seed.slug, published: seed.published, uuid: seed.uuid, ...(seed.embedded ? { embedded: seed.embedded } : {}),
  })));
  return {
    server: createSupersetServer({ url: `${superset.url}/`, username: "lineage", password: "superset-pw" }),
    fail: () => { superset.knobs.password = "changed"; },
    close: () => superset.close(),
  };
});
