import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Store } from "../ports/store.port.ts";

/**
 * The behaviour of the catalog's dashboards every Store adapter shares; `open`
 * must give an empty store, and is called once per test.
 * @example
 * dashboardCatalogContract("memory", () => createMemoryStore());
 */
export function dashboardCatalogContract(name: string, open: () => Store | Promise<Store>): void {
  describe(`Dashboard catalog contract: ${name}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await open();
    });
    afterEach(() => store.close());

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
  });
}
