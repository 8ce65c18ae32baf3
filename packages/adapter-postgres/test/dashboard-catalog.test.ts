import { expect, it } from "vitest";
import { dashboardCatalogContract } from "@lineage/core/testing";
import { openPostgresStore } from "../src/index.ts";
import { freshDatabase } from "./fresh-database.ts";

dashboardCatalogContract("postgres", async () => openPostgresStore({ url: await freshDatabase() }));

it("shows a dashboard another node saved at once", async () => {
  const url = await freshDatabase();
  const reader = await openPostgresStore({ url });
  const writer = await openPostgresStore({ url });
  try {
    expect(await reader.catalog.dashboards()).toEqual([]);
    await writer.catalog.saveDashboard({ slug: "sales", uuid: "8f0c2a9e-1111-2222-3333-444455556666", roles: ["clerk"] });
    expect((await reader.catalog.dashboard("sales"))?.roles).toEqual(["clerk"]);
  } finally {
    await reader.close();
    await writer.close();
  }
});
