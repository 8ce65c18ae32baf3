import { describe, expect, it } from "vitest";
import { createMemoryStore } from "@lineage/core/testing";
import { createRecipeBook, quickRecipes } from "../src/recipes.ts";

// The app's domain rule, tested with the core's in-memory store: no I/O.
describe("the recipe book embedding the core", () => {
  it("finds quick recipes through the core's list use case", async () => {
    const { platform, cook } = await createRecipeBook(createMemoryStore());
    await platform.elements.create(cook, { structure: "RECIPE", values: { rc_name: "Omelette", rc_minutes: 10, rc_step: ["Beat", "Cook"] } });
    await platform.elements.create(cook, { structure: "RECIPE", values: { rc_name: "Cassoulet", rc_minutes: 240 } });
    expect(await quickRecipes(platform, cook)).toEqual(["Omelette"]);
  });

  it("gets the core's typing for free", async () => {
    const { platform, cook } = await createRecipeBook(createMemoryStore());
    await expect(platform.elements.create(cook, { structure: "RECIPE", values: { rc_name: "Soup", rc_difficulty: "medium" } }))
      .rejects.toThrow(/"medium" is not a key of enumerate "DIFFICULTY"/);
  });
});
