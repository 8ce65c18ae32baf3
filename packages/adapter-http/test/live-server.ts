import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Platform, Store } from "@lineage/core";
import { openSqliteStore } from "@lineage/adapter-sqlite";
import { createHttpApp, startServer, type HttpAppOptions } from "../src/index.ts";
import { apiClient } from "./api-client.ts";

/** A real listening server over a seeded SQLite store in a temporary data directory. */
export interface LiveServer<S> {
  readonly seed: S;
  /** The server's base URL, `http://127.0.0.1:<port>`. */
  readonly url: string;
  readonly api: ReturnType<typeof apiClient>;
  close(): Promise<void>;
}

/** Seeds a fresh SQLite store with `seedWith` and serves it on a free loopback port. */
export async function startLiveServer<S extends { platform: Platform; store: Store }>(
  seedWith: (store: Store) => Promise<S>,
  options: Partial<HttpAppOptions> = {},
): Promise<LiveServer<S>> {
  const dataDir = mkdtempSync(join(tmpdir(), "lineage-live-"));
  const seed = await seedWith(openSqliteStore({ dataDir }));
  const server = await startServer(createHttpApp({ platform: seed.platform, onUnexpectedError: () => {}, ...options }));
  return {
    seed,
    url: server.url,
    api: apiClient(server.url),
    async close() {
      await server.close();
      await seed.store.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
