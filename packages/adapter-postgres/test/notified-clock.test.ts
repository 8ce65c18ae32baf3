import { expect, it } from "vitest";
import { storeContract } from "@lineage/core/testing";
import { openPostgresStore } from "../src/index.ts";
import { freshDatabase } from "../src/testing/fresh-database.ts";

storeContract("postgres, clock kept by notifications", async () => openPostgresStore({ url: await freshDatabase(), changes: "notify" }));

it("moves a listening node's clock when another node commits", async () => {
  const url = await freshDatabase();
  const writer = await openPostgresStore({ url });
  const reader = await openPostgresStore({ url, changes: "notify" });
  try {
    const before = await reader.changes.read();
    expect(await reader.changes.read()).toEqual(before);
    await writer.catalog.saveEnumerate({ name: "E", items: [] });
    let after = await reader.changes.read();
    for (const started = Date.now(); after.data === before.data && Date.now() - started < 2000;) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      after = await reader.changes.read();
    }
    expect(after.data).not.toBe(before.data);
    expect(after.definitions).not.toBe(before.definitions);
    expect(await reader.catalog.enumerate("E")).toEqual({ name: "E", items: [] });
  } finally {
    await reader.close();
    await writer.close();
  }
});
