import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import type { Store } from "@lineage/core";
import { dashboardCatalogContract } from "@lineage/core/testing";
import { openSqliteStore } from "../src/index.ts";

const dirs = new Map<Store, string>();
afterAll(() => {
  for (const dir of new Set(dirs.values())) rmSync(dir, { recursive: true, force: true });
});

dashboardCatalogContract(
  "sqlite",
  () => {
    const dataDir = mkdtempSync(join(tmpdir(), "lineage-dashboards-"));
    const store = openSqliteStore({ dataDir });
    dirs.set(store, dataDir);
    return store;
  },
  // Another connection (or process) on the same data directory.
  (store) => openSqliteStore({ dataDir: dirs.get(store)! }),
);
