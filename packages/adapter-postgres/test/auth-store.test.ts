import { afterAll } from "vitest";
import type { Store } from "@lineage/core";
import { authStoreContract } from "@lineage/core/testing";
import { openPostgresStore } from "../src/index.ts";
import { freshDatabase } from "../src/testing/fresh-database.ts";

const urls = new Map<Store, string>();
afterAll(() => urls.clear());

authStoreContract("postgres", {
  open: async () => {
    const url = await freshDatabase();
    const store = await openPostgresStore({ url });
    urls.set(store, url);
    return store;
  },
  // A second store on the same database: another node.
  openTwin: (store) => openPostgresStore({ url: urls.get(store)! }),
});
