import { LineageError } from "../src/index.ts";
import { createMemoryDashboardServer, dashboardServerContract } from "../src/testing/index.ts";

dashboardServerContract("memory", (seeds) => {
  const server = createMemoryDashboardServer({
    dashboards: seeds.map((seed) => ({
      id: seed.id, uuids: [seed.uuid, ...(seed.embedded ? [seed.embedded] : [])], title: seed.title, published: seed.published,
      changedOn: "2024-03-01T05:06:07.123456", changedByName: "Ada Lovelace", slug: seed.slug,
      url: `http://superset.test/superset/dashboard/${seed.slug ?? seed.id}/`,
    })),
  });
  return { server, fail: () => { server.failure = new LineageError("DASH0101", [server.address, "connection refused"]); } };
});
