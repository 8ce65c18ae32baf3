import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fakeDashboard, startFakeSuperset, type FakeSuperset } from "@lineage/adapter-superset/testing";
import { startLineage } from "../src/index.ts";

// `dashboards` of startLineage (the configuration file's key) reaches the Dashboards routes.

const demo = resolve(import.meta.dirname, "..", "..", "..", "examples/demo/bundle.json");
const DEMO_UUID = "5b1f0f4e-8c3a-4d7e-9a61-2f0c3b7d9e10";
const dirs: string[] = [];
let superset: FakeSuperset;

beforeAll(async () => {
  superset = await startFakeSuperset([fakeDashboard(1, "Newsroom overview", { uuid: DEMO_UUID }), fakeDashboard(2, "Elsewhere")]);
});
afterAll(async () => {
  await superset.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "lineage-dashboards-"));
  dirs.push(dir);
  return dir;
};
const basic = (login: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${login}:${password}`).toString("base64")}` });

describe("lineage serve with dashboards", () => {
  it("serves the demo bundle's dashboard from the configured Superset", async () => {
    const running = await startLineage({
      dataDir: dataDir(), bundles: [demo], port: 0,
      dashboards: { url: superset.url, username: "lineage", password: "superset-pw", provider: "db" },
    });
    try {
      const alice = await fetch(`${running.url}/api/v2/dashboard/list`, { headers: basic("alice", "alice") });
      expect(await alice.json()).toMatchObject({
        success: true,
        data: [{ slug: "newsroom-overview", uuid: DEMO_UUID, title: "Newsroom overview", domain: superset.url }],
      });
      const bob = await fetch(`${running.url}/api/v2/dashboard/info?ref=newsroom-overview`, { headers: basic("bob", "bob") });
      expect(bob.status).toBe(403);
    } finally {
      await running.close();
    }
  });

  it("refuses to start with a dashboards setting that is not an http(s) address", async () => {
    await expect(startLineage({ dataDir: dataDir(), port: 0, dashboards: { url: "superset.local", username: "lineage", password: "pw" } }))
      .rejects.toThrow('Invalid dashboard server connection: url: an absolute http(s) address of the Superset server is expected');
  });
});
