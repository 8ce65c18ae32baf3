import { describe, expect, it } from "vitest";
import { createPlatform, createScryptPasswordHasher } from "@lineage/core";
import { createMemoryStore } from "@lineage/core/testing";
import { ENUM_NAME, enumerateBundle, enumerateItems } from "../enumerate-bundle.ts";

describe("the Enumerates benchmark's bundle", () => {
  it("has 10 000 items with unique keys, 100 roots and their children, the same at every call", () => {
    const items = enumerateItems();
    expect(items).toHaveLength(10_000);
    expect(new Set(items.map((item) => item.key)).size).toBe(10_000);
    expect(items.filter((item) => item.parentKey === undefined)).toHaveLength(100);
    expect(items[1]).toEqual({ key: "r.001.p.01", label: { en: expect.any(String), fr: expect.any(String) }, parentKey: "r.001" });
    expect(enumerateItems()).toEqual(items);
  });

  it("imports as a valid bundle", async () => {
    const store = createMemoryStore();
    const platform = createPlatform({ store, hasher: createScryptPasswordHasher({ N: 16 }) });
    const report = await platform.bundles.import(enumerateBundle(enumerateItems(3, 4)), { readFile: () => undefined });
    expect(report.enumerates.created).toBe(2);
    expect((await store.catalog.enumerate(ENUM_NAME))?.items).toHaveLength(15);
  });
});
