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

    it("saves, reads by slug and lists by slug", () => {
      store.catalog.saveDashboard({ slug: "zeta", uuid: "8f0c2a9e-1111-2222-3333-444455556667", roles: [] });
      store.catalog.saveDashboard(sales);
      expect(store.catalog.dashboard("sales")).toEqual(sales);
      expect(store.catalog.dashboard("Sales")).toBeUndefined();
      expect(store.catalog.dashboard("nope")).toBeUndefined();
      expect(store.catalog.dashboards().map((d) => d.slug)).toEqual(["sales", "zeta"]);
    });

    it("replaces the entry with the same slug", () => {
      store.catalog.saveDashboard(sales);
      store.catalog.saveDashboard({ ...sales, roles: ["reader"] });
      expect(store.catalog.dashboards()).toEqual([{ ...sales, roles: ["reader"] }]);
    });

    it("keeps nothing of a transaction that failed", () => {
      expect(() => store.transaction(() => {
        store.catalog.saveDashboard(sales);
        throw new Error("boom");
      })).toThrow("boom");
      expect(store.catalog.dashboards()).toEqual([]);
    });

    it("gives back a copy the caller cannot change in the store", () => {
      const roles = ["clerk"];
      store.catalog.saveDashboard({ ...sales, roles });
      roles.push("intruder");
      expect(store.catalog.dashboard("sales")?.roles).toEqual(["clerk"]);
    });
  });
}
