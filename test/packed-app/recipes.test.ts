// A domain test of the app outside the workspace: the core's use cases on its in-memory store, no I/O.
import { describe, expect, it } from "vitest";
import { createPlatform, type Platform, type Principal } from "@lineage/core";
import { createMemoryStore } from "@lineage/core/testing";

async function recipeBook(): Promise<{ platform: Platform; cook: Principal }> {
  const store = createMemoryStore();
  const platform = createPlatform({ store });
  await store.transaction(async (tx) => {
    await tx.catalog.saveStructure({
      name: "RECIPE", title: { en: "Recipe" }, titleField: "rc_name",
      fields: [{ id: "rc_name", type: "text", needed: true, label: "Name" }, { id: "rc_minutes", type: "int" }],
    });
  });
  const account = await platform.accounts.add({ login: "cook", password: "cook-pw", roles: ["admin"] });
  return { platform, cook: await platform.accounts.principalOf(account) };
}

describe("a recipe book on @lineage/core", () => {
  it("creates and lists elements through the core's use cases", async () => {
    const { platform, cook } = await recipeBook();
    await platform.elements.create(cook, { structure: "RECIPE", values: { rc_name: "Omelette", rc_minutes: 10 } });
    const page = await platform.elements.list(cook, { family: "RECIPE", slice: "all", fields: "document.properties.title" });
    expect(page.documents.map((doc) => doc.properties?.title)).toEqual(["Omelette"]);
  });

  it("refuses a value of the wrong type with the core's error", async () => {
    const { platform, cook } = await recipeBook();
    await expect(platform.elements.create(cook, { structure: "RECIPE", values: { rc_name: "Soup", rc_minutes: "long" } })).rejects.toThrow();
  });
});
