import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Store } from "../ports/store.port.ts";

/**
 * The behaviour of the catalog's dashboards every Store adapter shares; `open`
 * must give an empty store, and is called once per test. `openTwin`, for
 * stores shared by several processes or nodes, opens another store on the
 * same data.
 * @example
 * dashboardCatalogContract("memory", () => createMemoryStore());
 */
export function dashboardCatalogContract(
  name: string, open: () => Store | Promise<Store>, openTwin?: (store: Store) => Store | Promise<Store>,
): void {
  describe(`Dashboard catalog contract: ${name}`, () => {
    let store: Store;
    const twins: Store[] = [];
    beforeEach(async () => {
      store = await open();
    });
    afterEach(async () => {
      for (const twin of twins.splice(0)) await twin.close();
      await store.close();
    });

    const sales = { slug: "sales", uuid: "8f0c2a9e-1111-2222-3333-444455556666", roles: ["clerk", "editor"] };

    it("saves, reads by slug and lists by slug", async () => {
      await store.catalog.saveDashboard({ slug: "zeta", uuid: "8f0c2a9e-1111-2222-3333-444455556667", roles: [] });
      await store.catalog.saveDashboard(sales);
      expect(await store.catalog.dashboard("sales")).toEqual(sales);
      expect(await store.catalog.dashboard("Sales")).toBeUndefined();
      expect(await store.catalog.dashboard("nope")).toBeUndefined();
      expect((await store.catalog.dashboards()).map((d) => d.slug)).toEqual(["sales", "zeta"]);
    });

    it("replaces the entry with the same slug", async () => {
      await store.catalog.saveDashboard(sales);
      await store.catalog.saveDashboard({ ...sales, roles: ["reader"] });
      expect(await store.catalog.dashboards()).toEqual([{ ...sales, roles: ["reader"] }]);
    });

    it("keeps nothing of a transaction that failed", async () => {
      await expect(store.transaction(async (tx) => {
        await tx.catalog.saveDashboard(sales);
        throw new Error("boom");
      })).rejects.toThrow("boom");
      expect(await store.catalog.dashboards()).toEqual([]);
    });

    it("gives back a copy the caller cannot change in the store", async () => {
      const roles = ["clerk"];
      await store.catalog.saveDashboard({ ...sales, roles });
      roles.push("intruder");
      expect((await store.catalog.dashboard("sales"))?.roles).toEqual(["clerk"]);
    });

    it.skipIf(!openTwin)("shows a dashboard another store on the same data saved, at once", async () => {
      const writer = await openTwin!(store);
      twins.push(writer);
      expect(await store.catalog.dashboards()).toEqual([]);
      await writer.catalog.saveDashboard({ ...sales, roles: ["clerk"] });
      expect((await store.catalog.dashboard("sales"))?.roles).toEqual(["clerk"]);
    });
  });
}
