import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import type { Store } from "@lineage/core";
import { authStoreContract } from "@lineage/core/testing";
import { openSqliteStore } from "../src/index.ts";

const dirs = new Map<Store, string>();
afterAll(() => [...new Set(dirs.values())].forEach((dir) => rmSync(dir, { recursive: true, force: true })));

authStoreContract("sqlite", {
  open: () => {
    const dataDir = mkdtempSync(join(tmpdir(), "lineage-auth-store-"));
    const store = openSqliteStore({ dataDir });
    dirs.set(store, dataDir);
    return store;
  },
  openTwin: (store) => openSqliteStore({ dataDir: dirs.get(store)! }),
});
