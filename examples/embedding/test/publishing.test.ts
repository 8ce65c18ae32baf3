import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteStore } from "@lineage/adapter-sqlite";
import type { Store } from "@lineage/core";
import { createMemoryStore } from "@lineage/core/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createRecipeBook } from "../src/recipes.ts";
import { startKitchen, type Kitchen } from "./kitchen-service.ts";

let kitchen: Kitchen;
const dataDirs: string[] = [];

beforeAll(async () => {
  kitchen = await startKitchen();
});
afterEach(() => {
  kitchen.calls.length = 0;
  kitchen.answers.clear();
});
afterAll(async () => {
  await kitchen.close();
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

function sqliteStore(): Store {
  const dataDir = mkdtempSync(join(tmpdir(), "lineage-publishing-"));
  dataDirs.push(dataDir);
  return openSqliteStore({ dataDir });
}

// The hooks await a real HTTP service inside the state change's transaction: on the in-memory store and on SQLite alike.
describe.each([["the in-memory store", createMemoryStore], ["SQLite", sqliteStore]])("publishing a recipe on %s", (_name, openStore) => {
  async function draft() {
    const store = openStore();
    const { platform, cook } = await createRecipeBook(store, { kitchen: kitchen.url });
    const omelette = await platform.elements.create(cook, { structure: "RECIPE", values: { rc_name: "Omelette", rc_minutes: 10 } });
    const history = await store.elements.history(omelette.initid);
    /** What a failed publication must have left as it was: the revision, its state, the history. */
    const unchanged = async () => {
      const latest = await store.elements.latest(omelette.initid);
      expect([latest?.id, latest?.revision, latest?.state]).toEqual([omelette.id, 0, "draft"]);
      expect(await store.elements.revisions(omelette.initid)).toHaveLength(1);
      expect(await store.elements.history(omelette.initid)).toEqual(history);
    };
    return { store, platform, cook, omelette, unchanged };
  }

  it("calls the kitchen from hooks m1 and m2, and shows m2's answer as the transition's message", async () => {
    const { store, platform, cook, omelette } = await draft();
    const result = await platform.lifecycle.runTransition(cook, String(omelette.initid), "publish", {});
    expect(result.messages).toEqual([{ level: "message", text: "On the kitchen board as #1" }]);
    expect(kitchen.calls).toEqual([
      { path: "/approve", body: { recipe: "Omelette" } },
      { path: "/announce", body: { recipe: "Omelette", revision: 1, by: "cook" } },
    ]);
    expect(await store.elements.latest(omelette.initid)).toMatchObject({ revision: 1, state: "published" });
    await store.close();
  });

  it("leaves nothing of the transition when m1 refuses after its call, and never calls m2", async () => {
    const { store, platform, cook, omelette, unchanged } = await draft();
    kitchen.answers.set("/approve", { status: 409, text: "not enough salt" });
    await expect(platform.lifecycle.runTransition(cook, String(omelette.initid), "publish", {}))
      .rejects.toMatchObject({ code: "WFL0300", message: expect.stringContaining('The kitchen does not approve "Omelette": not enough salt') });
    expect(kitchen.calls.map((call) => call.path)).toEqual(["/approve"]);
    await unchanged();
    await store.close();
  });

  it("leaves nothing of the transition when m2 fails after its call, its new revision included", async () => {
    const { store, platform, cook, omelette, unchanged } = await draft();
    kitchen.answers.set("/announce", { status: 503, text: "the board is down" });
    await expect(platform.lifecycle.runTransition(cook, String(omelette.initid), "publish", {}))
      .rejects.toThrow('the kitchen could not announce "Omelette" (503): the board is down');
    expect(kitchen.calls.map((call) => call.path)).toEqual(["/approve", "/announce"]);
    await unchanged();
    await store.close();
  });
});
