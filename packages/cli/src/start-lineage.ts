import { createPlatform, importBundle, type ImportReport, type Platform } from "@lineage/core";
import { openSqliteStore } from "@lineage/adapter-sqlite";
import { createHttpApp, startServer, type RunningServer } from "@lineage/adapter-http";
import { dirname, resolve } from "node:path";
import { readBundleFile } from "./bundle-file.ts";

export interface LineageOptions {
  /** Data directory (SQLite database and vault); `./data` by default. */
  readonly dataDir?: string;
  readonly bundles?: readonly string[];
  /** The Images directory; `images/` beside the first bundle by default. */
  readonly imagesDir?: string;
  readonly port?: number;
  readonly host?: string;
}

export interface RunningLineage extends RunningServer {
  readonly platform: Platform;
  readonly imagesDir: string | undefined;
  readonly imports: ImportReport[];
}

/** Opens the data directory and imports bundles: what `serve` and `import` share. */
export async function openLineage(dataDir: string, bundles: readonly string[] = []) {
  const store = openSqliteStore({ dataDir });
  const platform = createPlatform({ store });
  const imports: ImportReport[] = [];
  try {
    for (const path of bundles) {
      const bundle = readBundleFile(path);
      imports.push(await importBundle(platform, bundle.json, { readFile: bundle.readFile }));
    }
  } catch (error) {
    store.close();
    throw error;
  }
  return { platform, imports };
}

/** `lineage serve`: opens (creates, migrates) the store, imports the bundles, listens. */
export async function startLineage(options: LineageOptions = {}): Promise<RunningLineage> {
  const { platform, imports } = await openLineage(options.dataDir ?? "./data", options.bundles);
  const firstBundle = options.bundles?.[0];
  const imagesDir = options.imagesDir ?? (firstBundle ? resolve(dirname(firstBundle), "images") : undefined);
  const app = createHttpApp({ platform });
  try {
    const server = await startServer(app, { port: options.port ?? 8080, host: options.host ?? "127.0.0.1" });
    return {
      ...server,
      platform,
      imagesDir,
      imports,
      close: async () => {
        await server.close();
        platform.store.close();
      },
    };
  } catch (error) {
    platform.store.close();
    throw error;
  }
}
