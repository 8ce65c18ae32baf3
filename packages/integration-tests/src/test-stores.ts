import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Store } from "@lineage/core";
import { openPostgresStore } from "@lineage/adapter-postgres";
import { openSqliteStore } from "@lineage/adapter-sqlite";
import { freshDatabase } from "@lineage/adapter-postgres/testing";

/**
 * The store the end-to-end suites run on: SQLite, or PostgreSQL with two nodes when the vitest
 * project sets LINEAGE_E2E_STORE=postgres (vitest.config.ts).
 */
export const E2E_STORE: "sqlite" | "postgres" = process.env.LINEAGE_E2E_STORE === "postgres" ? "postgres" : "sqlite";

/** Stores sharing one new, empty set of data: the connections of as many nodes (or processes). */
export interface SharedStores {
  readonly stores: readonly Store[];
  /** Closes the stores and removes what they kept. */
  dispose(): Promise<void>;
}

/** `count` stores on one fresh database (PostgreSQL) or data directory (SQLite), as E2E_STORE says. */
export async function openSharedStores(count: number): Promise<SharedStores> {
  const stores: Store[] = [];
  if (E2E_STORE === "postgres") {
    const url = await freshDatabase();
    for (let i = 0; i < count; i++) stores.push(await openPostgresStore({ url }));
    return { stores, dispose: async () => { for (const store of stores) await store.close(); } };
  }
  const dataDir = mkdtempSync(join(tmpdir(), "lineage-live-"));
  for (let i = 0; i < count; i++) stores.push(openSqliteStore({ dataDir }));
  return {
    stores,
    async dispose() {
      for (const store of stores) await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
