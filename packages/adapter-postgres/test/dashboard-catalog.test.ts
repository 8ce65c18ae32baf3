import type { Store } from "@lineage/core";
import { dashboardCatalogContract } from "@lineage/core/testing";
import { openPostgresStore } from "../src/index.ts";
import { freshDatabase } from "../src/testing/fresh-database.ts";

const urls = new Map<Store, string>();

dashboardCatalogContract(
  "postgres",
  async () => {
    const url = await freshDatabase();
    const store = await openPostgresStore({ url });
    urls.set(store, url);
    return store;
  },
  // Another node on the same database.
  (store) => openPostgresStore({ url: urls.get(store)! }),
);
