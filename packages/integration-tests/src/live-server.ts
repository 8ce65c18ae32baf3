import { createPlatform, createScryptPasswordHasher, type DashboardServer, type PasswordHasher, type Platform, type PlatformOptions, type Store } from "@lineage/core";
import { createHttpApp, startServer, type HttpAppOptions, type RunningServer } from "@lineage/adapter-http";
import { startAlternatingProxy } from "./alternating-proxy.ts";
import { apiClient } from "./api-client.ts";
import { E2E_STORE, openSharedStores } from "./test-stores.ts";

/** A real listening server over a seeded store: one node on SQLite, or two nodes on PostgreSQL behind a proxy. */
export interface LiveServer<S> {
  readonly seed: S;
  /** Where tests send requests, `http://127.0.0.1:<port>`: the node, or the proxy alternating between the nodes. */
  readonly url: string;
  /** The first node itself, for tests of one connection's handling (raw sockets, timeouts). */
  readonly nodeUrl: string;
  /** Every node itself (one on SQLite, two on PostgreSQL): for tests of what one node sees of another's writes. */
  readonly nodeUrls: readonly string[];
  readonly api: ReturnType<typeof apiClient>;
  close(): Promise<void>;
}

/** What a seed gives besides its platform: `twin` makes another node's platform over another store. */
interface Seed {
  readonly platform: Platform;
  readonly store: Store;
  readonly twin?: (store: Store) => Platform;
}

/**
 * Seeds a fresh store with `seedWith` and serves it on a free loopback port. With
 * LINEAGE_E2E_STORE=postgres, a second node (the seed's `twin` over a second store on the same
 * database, with the same options) serves too, and requests alternate between the two.
 */
export async function startLiveServer<S extends Seed>(
  seedWith: (store: Store) => Promise<S>,
  options: Partial<HttpAppOptions> = {},
): Promise<LiveServer<S>> {
  const nodes = E2E_STORE === "postgres" ? 2 : 1;
  const shared = await openSharedStores(nodes);
  const seed = await seedWith(shared.stores[0]!);
  const platforms = [seed.platform, ...shared.stores.slice(1).map((store) => {
    if (!seed.twin) throw new Error("This seed has no twin: it cannot serve a second node");
    return seed.twin(store);
  })];
  const servers: RunningServer[] = [];
  for (const platform of platforms) servers.push(await startServer(createHttpApp({ platform, onUnexpectedError: () => {}, ...options })));
  const proxy = nodes > 1 ? await startAlternatingProxy(servers.map((server) => server.url)) : undefined;
  const url = proxy?.url ?? servers[0]!.url;
  return {
    seed,
    url,
    nodeUrl: servers[0]!.url,
    nodeUrls: servers.map((server) => server.url),
    api: apiClient(url),
    async close() {
      await proxy?.close();
      for (const server of servers) await server.close();
      // The seed's store is the first of the shared ones: dispose closes it.
      await shared.dispose();
    },
  };
}

/** What a seed's platform is made with besides its store and password hasher (`dashboards`...): its twin is made with the same. */
export type SeedOptions = Omit<PlatformOptions, "store" | "hasher">;

/** A seed with its twin: a platform of the same password hasher (and `options`) over another store, for a second node. */
export function withTwin<T extends { readonly platform: Platform; readonly store: Store; readonly hasher: PasswordHasher }>(
  seed: T, options: SeedOptions = {},
): T & Required<Pick<Seed, "twin">> {
  return { ...seed, twin: (other: Store) => createPlatform({ ...options, store: other, hasher: seed.hasher }) };
}

/**
 * A seed whose platforms (its own and its twin's) read this dashboard server: for the seeds of the
 * core's fixtures, whose platforms are made without one. Their `dashboards` is that of a platform
 * given the server over the same store (the dashboards façade reads the store and the server only).
 */
export function withDashboards<T extends Seed>(seed: T, server: DashboardServer): T {
  const reading = <P extends Platform>(platform: P, store: Store): P => ({ ...platform, dashboards: createPlatform({ store, dashboards: server }).dashboards });
  const { twin } = seed;
  return { ...seed, platform: reading(seed.platform, seed.store), ...(twin ? { twin: (other: Store) => reading(twin(other), other) } : {}) };
}

/** A seed that imports `bundle` into the store (passwords hashed cheaply, as tests afford), with its twin for a second node. */
export function bundleSeed(bundle: unknown): (store: Store) => Promise<Required<Seed> & { readonly hasher: PasswordHasher }> {
  return async (store) => {
    const hasher = createScryptPasswordHasher({ N: 1024 });
    const platform = createPlatform({ store, hasher });
    await platform.bundles.import(bundle, { readFile: () => undefined });
    return withTwin({ platform, store, hasher });
  };
}
