import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { dashboardCatalogContract } from "@lineage/core/testing";
import { openSqliteStore } from "../src/index.ts";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "lineage-dashboards-"));
  dirs.push(dir);
  return dir;
}

dashboardCatalogContract("sqlite", () => openSqliteStore({ dataDir: freshDir() }));

it("shows a dashboard another connection saved at once", async () => {
  const dataDir = freshDir();
  const reader = openSqliteStore({ dataDir });
  const writer = openSqliteStore({ dataDir });
  try {
    expect(await reader.catalog.dashboards()).toEqual([]);
    await writer.catalog.saveDashboard({ slug: "sales", uuid: "8f0c2a9e-1111-2222-3333-444455556666", roles: ["clerk"] });
    expect((await reader.catalog.dashboard("sales"))?.roles).toEqual(["clerk"]);
  } finally {
    await reader.close();
    await writer.close();
  }
});
