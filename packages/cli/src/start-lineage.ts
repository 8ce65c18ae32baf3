import { createPlatform, createTransitionHooks, SYSTEM_STRUCTURES, type ImportReport, type OverwrittenElement, type Platform, type SearchCallables, type TransitionHook } from "@lineage/core";
import { ConfigError } from "./config/load-config.ts";
import { missingFunctions } from "./config/named-functions.ts";
import { createNodeScryptPasswordHasher, createWebhookDestinations, createWebhookSender, startWebhookWorker } from "@lineage/adapter-node";
import { createHttpApp, createReadiness, startServer, type HttpAuthOptions, type HttpLimits, type Logger, type RunningServer } from "@lineage/adapter-http";
import { createJimpImages } from "@lineage/adapter-images";
import { createCompactSearchIndex, createDocumentTexts, createMiniSearchIndex } from "@lineage/adapter-search";
import { createSupersetServer, type SupersetServerOptions } from "@lineage/adapter-superset";
import type { DashboardServer, DocumentTextExtractor, ImageProcessor, IndexPacing, SearchIndex } from "@lineage/core";
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { dirname, join, resolve } from "node:path";
import { bundleFolderReader } from "./bundle-file.ts";
import { keepEvents } from "./event-retention.ts";
import { importXmlElementsFile, isXmlElementsFile } from "./xml-elements-file.ts";
import { openBundleStream } from "./bundle-stream.ts";
import type { ImportProgressView } from "./import-progress.ts";
import { createLoopPacing } from "./loop-pacing.ts";
import { openStore, withSharedThrottle, type StoreLocation } from "./store-location.ts";

export interface LineageOptions {
  /** Data directory (SQLite database and vault, or only the node's caches with `databaseUrl`); `./data` by default. */
  readonly dataDir?: string;
  /** A PostgreSQL database (`postgres://…`) holding the data instead of SQLite: several nodes may serve it. */
  readonly databaseUrl?: string;
  readonly bundles?: readonly string[];
  /** Bundles imported only into a store that holds no Smart Structure yet (a new data directory or database): later starts keep what users changed. */
  readonly seeds?: readonly string[];
  /** The Images directory; `images/` beside the first bundle (seeds first) by default. */
  readonly imagesDir?: string;
  /** What resizes images: jimp (built in) or sharp (@lineage/adapter-images-sharp, when installed); env LINEAGE_IMAGE_PROCESSOR, else jimp. */
  readonly imageProcessor?: "jimp" | "sharp";
  /** The full-text index: compact (ours, the default) or minisearch; env LINEAGE_SEARCH_INDEX, else compact. */
  readonly searchIndex?: SearchIndexKind;
  readonly port?: number;
  readonly host?: string;
  /** Request, upload and list limits (docs/limits.md); each has a default. */
  readonly limits?: LineageLimits;
  /** One line per request (createRequestLogger); none when absent. */
  readonly logger?: Logger;
  /** SQLite's sync at commit: "full" by default (docs/limits.md, Durability). */
  readonly synchronous?: "full" | "normal";
  /** The Superset server of the Dashboards routes: the `dashboards` key of the configuration file; without it those routes answer 500. */
  readonly dashboards?: SupersetServerOptions;
  /** Authenticators, providers, session cookie and guest home page: the auth keys of the configuration file (docs/configuration.md). */
  readonly auth?: HttpAuthOptions;
  /** How many days events are kept (fractions allowed): `events.retentionDays` of the configuration file; 30 by default. Pruned every minute. */
  readonly eventRetentionDays?: number;
  /** The lifecycle hooks (m0-m3) the bundles name, by name: the functions of the configuration's `hooks` modules. */
  readonly hooks?: Readonly<Record<string, TransitionHook>>;
  /** The search callables the bundles' search domains name, by name: those of its `searchCallables` modules. */
  readonly searchCallables?: SearchCallables;
  /** Outgoing webhooks: the `webhooks` key of the configuration file. */
  readonly webhooks?: WebhookSettings;
}

/** How webhooks are sent. */
export interface WebhookSettings {
  /** Accept and send to hosts on loopback, private and link-local networks; false by default. */
  readonly allowPrivateNetworks?: boolean | undefined;
}

/** The HTTP limits and the largest list page. */
export interface LineageLimits extends Partial<HttpLimits> {
  readonly maxSlice?: number | undefined;
}

/** How the store and platform are opened: what `serve` and `import` may tune. */
export interface OpenSettings {
  readonly maxSlice?: number | undefined;
  readonly synchronous?: "full" | "normal" | undefined;
  readonly searchIndex?: SearchIndexKind | undefined;
  /** Bundles imported first, and only when the store holds no Smart Structure yet. */
  readonly seeds?: readonly string[] | undefined;
  /** What shows the progress of importing a bundle file; none by default. */
  readonly importProgress?: ((file: string) => ImportProgressView) | undefined;
  /** Reads attached PDF, DOCX and ODT files for the search indexes (`serve`, `search reindex`); none by default. */
  readonly documents?: DocumentTextExtractor | undefined;
  /** The dashboard server of the Dashboards routes (`serve`); none by default. */
  readonly dashboards?: DashboardServer | undefined;
  /** The lifecycle hooks (m0-m3) the bundles name, by name. */
  readonly hooks?: Readonly<Record<string, TransitionHook>> | undefined;
  /** The search callables the bundles' search domains name, by name. */
  readonly searchCallables?: SearchCallables | undefined;
  /** Where webhooks may send (`webhooks.allowPrivateNetworks`); private networks refused by default. */
  readonly webhooks?: WebhookSettings | undefined;
  /** How index builds share the event loop with requests (`serve`); unpaced by default. */
  readonly searchPacing?: IndexPacing | undefined;
}

/** The full-text index adapters; both keep their snapshots under `<data>/search/`, each in its own files. */
export type SearchIndexKind = "compact" | "minisearch";

export interface RunningLineage extends RunningServer {
  readonly platform: Platform;
  readonly imagesDir: string | undefined;
  readonly imports: ImportReport[];
  /** The bundles imported, in the order of `imports`: the seeds (when the store was new), then the bundles. */
  readonly imported: string[];
  /** Seeds left out because the store already held data. */
  readonly skippedSeeds: string[];
}

/** Opens the store and imports bundles (and the seeds, into a new store): what `serve` and `import` share. */
export async function openLineage(location: StoreLocation, bundles: readonly string[] = [], settings: OpenSettings = {}) {
  // Chosen before the store opens: an unknown kind fails with nothing to close.
  const searchIndex = chooseSearchIndex(join(location.dataDir, "search"), settings.searchIndex);
  const store = await openStore(location, settings.synchronous);
  // Node's native scrypt: a login or `user add` hashes off the event loop.
  const platform = createPlatform({
    store, searchIndex, hasher: createNodeScryptPasswordHasher(), ...(settings.maxSlice ? { maxSlice: settings.maxSlice } : {}),
    ...(settings.documents ? { searchDocuments: settings.documents } : {}),
    ...(settings.dashboards ? { dashboards: settings.dashboards } : {}),
    ...(settings.hooks ? { hooks: createTransitionHooks(settings.hooks) } : {}),
    ...(settings.searchCallables ? { searchCallables: settings.searchCallables } : {}),
    ...(settings.searchPacing ? { searchPacing: settings.searchPacing } : {}),
    webhookDestinations: createWebhookDestinations({ allowPrivateNetworks: settings.webhooks?.allowPrivateNetworks }),
  });
  const imports: ImportReport[] = [];
  const seeds = settings.seeds ?? [];
  let seeding = false;
  try {
    // New: no structure but the system's, which every store holds from its first opening.
    seeding = seeds.length > 0 && (await store.catalog.structures()).every((structure) => SYSTEM_STRUCTURES.some((system) => system.name === structure.name));
    for (const path of [...(seeding ? seeds : []), ...bundles]) {
      imports.push(await importBundleFile(platform, path, location.dataDir, { progress: settings.importProgress?.(path) }));
    }
  } catch (error) {
    await store.close();
    throw error;
  }
  return { platform, store, imports, imported: [...(seeding ? seeds : []), ...bundles], skippedSeeds: seeding ? [] : [...seeds] };
}

/** How one bundle file is imported: its progress, its overwrites, and whether it is only tried. */
export interface BundleFileImport {
  readonly progress?: ImportProgressView | undefined;
  readonly onOverwrite?: ((element: OverwrittenElement) => void) | undefined;
  /** Imports, then rolls back: the report of what the import would do. */
  readonly dryRun?: boolean | undefined;
}

/**
 * Imports one bundle file, streamed, its elements staged under `stagingDir`: a bundle of any size,
 * never read as one string. A `.xml` file holds elements in the original's XML import format
 * (xml-elements-file.ts).
 */
export async function importBundleFile(platform: Platform, path: string, stagingDir: string, options: BundleFileImport = {}): Promise<ImportReport> {
  if (isXmlElementsFile(path)) return importXmlElementsFile(platform, path, options);
  const bundle = openBundleStream(path, { stagingDir, onBytes: options.progress?.onBytes });
  try {
    return await platform.bundles.importSource(bundle, {
      readFile: bundleFolderReader(path), onProgress: options.progress?.onProgress, onOverwrite: options.onOverwrite, dryRun: options.dryRun,
    });
  } finally {
    await bundle.close();
  }
}

/** `lineage serve`: opens (creates, migrates) the store, imports the bundles, listens. */
export async function startLineage(options: LineageOptions = {}): Promise<RunningLineage> {
  const { maxSlice, ...httpLimits } = options.limits ?? {};
  // Chosen before the store opens: an unknown or missing processor fails with nothing to close.
  const processor = await chooseImageProcessor(options.imageProcessor);
  // Built first: a wrong `dashboards` setting stops the start before the store is opened.
  const dashboards = options.dashboards && createSupersetServer(options.dashboards);
  const location = { dataDir: options.dataDir ?? "./data", databaseUrl: options.databaseUrl };
  // Its worker threads start with the first document to read, and stop when idle.
  const documents = createDocumentTexts();
  const { platform, store, imports, imported, skippedSeeds } = await openLineage(location, options.bundles, {
    maxSlice, synchronous: options.synchronous, searchIndex: options.searchIndex, seeds: options.seeds, documents, dashboards, webhooks: options.webhooks,
    hooks: options.hooks ?? {}, searchCallables: options.searchCallables ?? {},
    // Index builds run beside the requests: in short steps, taking a small share of the loop while requests come.
    searchPacing: createLoopPacing(),
  }).catch(async (error: unknown) => {
    await documents.close();
    throw error;
  });
  // A hook or callable the bundles name and no module gives would silently do nothing: the start stops here instead.
  const missing = missingFunctions(await store.catalog.lifecycles(), await store.search.domains(), options.hooks ?? {}, options.searchCallables ?? {});
  if (missing.length > 0) {
    await store.close();
    await documents.close();
    throw new ConfigError(
      `the bundles name functions that no module of the configuration gives (its "hooks" and "searchCallables" keys, docs/configuration.md):\n  ${missing.join("\n  ")}`,
    );
  }
  const firstBundle = options.seeds?.[0] ?? options.bundles?.[0];
  const imagesDir = options.imagesDir ?? (firstBundle ? resolve(dirname(firstBundle), "images") : undefined);
  const readiness = createReadiness();
  try {
    // Listens at once: the search indexes are loaded (or built) meanwhile, /health says which.
    await platform.fullsearch.engine.start({ background: true });
  } catch (error) {
    await store.close();
    await documents.close();
    throw error;
  }
  const images = createJimpImages({
    imagesDir, cacheDir: join(options.dataDir ?? "./data", "image-cache"), processor,
  });
  const auth = withSharedThrottle(store, options.auth);
  const app = createHttpApp({ platform, images, limits: httpLimits, readiness, ...(options.logger ? { logger: options.logger } : {}), ...(auth ? { auth } : {}) });
  const { logger } = options;
  const retention = keepEvents(platform, {
    retentionDays: options.eventRetentionDays,
    log: (message) => (logger ? logger.warn(message) : console.error(`lineage: ${message}`)),
  });
  // Every node sends webhooks: the lease of each delivery in the database lets one node send each attempt.
  const sender = createWebhookSender({ allowPrivateNetworks: options.webhooks?.allowPrivateNetworks });
  const webhooks = startWebhookWorker({
    platform, sender, node: `${hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`,
    log: (message) => (logger ? logger.warn(message) : console.error(`lineage: ${message}`)),
  });
  /** What the platform holds once the server no longer answers, released in this order. */
  const release = async () => {
    await webhooks.stop();
    await sender.close();
    await retention.stop();
    await images.close();
    await platform.fullsearch.engine.stop();
    await documents.close();
    await store.close();
  };
  try {
    const server = await startServer(app, { port: options.port ?? 8080, host: options.host ?? "127.0.0.1", readiness, limits: httpLimits });
    return {
      ...server,
      platform,
      imagesDir,
      imports,
      imported,
      skippedSeeds,
      close: async () => {
        await server.close();
        await release();
      },
      shutdown: async (graceMs, unreadyMs) => {
        const outcome = await server.shutdown(graceMs, unreadyMs);
        await release();
        return outcome;
      },
    };
  } catch (error) {
    await release();
    throw error;
  }
}

/** The full-text index asked for; the compact index when none is. */
function chooseSearchIndex(dir: string, asked: string | undefined = process.env.LINEAGE_SEARCH_INDEX): SearchIndex {
  if (!asked || asked === "compact") return createCompactSearchIndex({ dir });
  if (asked === "minisearch") return createMiniSearchIndex({ dir });
  throw new Error(`unknown search index "${asked}": compact or minisearch`);
}

/** The sharp processor when asked for (and installed); undefined lets the images use jimp. */
async function chooseImageProcessor(asked = process.env.LINEAGE_IMAGE_PROCESSOR): Promise<ImageProcessor | undefined> {
  if (!asked || asked === "jimp") return undefined;
  if (asked !== "sharp") throw new Error(`unknown image processor "${asked}": jimp or sharp`);
  try {
    const { createSharpProcessor } = await import("@lineage/adapter-images-sharp");
    return createSharpProcessor();
  } catch (error) {
    throw new Error(`the sharp image processor is not installed (@lineage/adapter-images-sharp): ${(error as Error).message}`);
  }
}
