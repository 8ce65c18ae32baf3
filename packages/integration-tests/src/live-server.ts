import { createPlatform, createScryptPasswordHasher, importBundle, type Platform, type Store } from "@lineage/core";
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
    api: apiClient(url),
    async close() {
      await proxy?.close();
      for (const server of servers) await server.close();
      // The seed's store is the first of the shared ones: dispose closes it.
      await shared.dispose();
    },
  };
}

/** A seed with its twin: a platform of the same password hasher over another store, for a second node. */
export function withTwin<T extends { readonly platform: Platform; readonly store: Store }>(seed: T): T & Required<Pick<Seed, "twin">> {
  return { ...seed, twin: (other: Store) => createPlatform({ store: other, hasher: seed.platform.hasher }) };
}

/** A seed that imports `bundle` into the store (passwords hashed cheaply, as tests afford), with its twin for a second node. */
export function bundleSeed(bundle: unknown): (store: Store) => Promise<Required<Seed>> {
  return async (store) => {
    const platform = createPlatform({ store, hasher: createScryptPasswordHasher({ N: 1024 }) });
    await importBundle(platform, bundle, { readFile: () => undefined });
    return withTwin({ platform, store });
  };
}
