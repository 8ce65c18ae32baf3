import { accountApi, type AccountApi } from "./account.ts";
import { dashboardsApi, type DashboardsApi } from "./dashboards.ts";
import { elementsApi, type ElementsApi } from "./elements.ts";
import { enumeratesApi, type EnumeratesApi } from "./enumerates.ts";
import { eventsApi, type EventsApi } from "./events.ts";
import { filesApi, imagesApi, type FilesApi, type ImagesApi } from "./files.ts";
import { foldersApi, type FoldersApi } from "./folders.ts";
import { fullsearchApi, type FullsearchApi } from "./fullsearch.ts";
import { lifecycleApi, type LifecycleApi } from "./lifecycle.ts";
import { locksApi, type LocksApi } from "./locks.ts";
import { revisionsApi, type RevisionsApi } from "./revisions.ts";
import { searchesApi, type SearchesApi } from "./searches.ts";
import { structuresApi, type StructuresApi } from "./structures.ts";
import { tokensApi, type TokensApi } from "./tokens.ts";
import { createTransport, type LineageClientOptions, type Transport } from "./transport.ts";
import { trashApi, type TrashApi } from "./trash.ts";

/** A client of one Lineage server: one object per area of the API. */
export interface LineageClient {
  readonly elements: ElementsApi;
  readonly structures: StructuresApi;
  readonly revisions: RevisionsApi;
  readonly trash: TrashApi;
  readonly lifecycle: LifecycleApi;
  readonly enumerates: EnumeratesApi;
  readonly files: FilesApi;
  readonly images: ImagesApi;
  readonly fullsearch: FullsearchApi;
  readonly folders: FoldersApi;
  readonly searches: SearchesApi;
  readonly events: EventsApi;
  readonly tokens: TokensApi;
  readonly dashboards: DashboardsApi;
  readonly locks: LocksApi;
  readonly account: AccountApi;
  /** The HTTP layer, for a route the areas do not cover. */
  readonly transport: Transport;
}

/**
 * A client of the server at `baseUrl`.
 * @example
 * const client = createLineageClient({ baseUrl: "http://localhost:8080", auth: { type: "basic", login: "alice", password: "alice" } });
 * const article = await client.elements.update("ART_HELLO", { ar_title: "Bonjour" });
 */
export function createLineageClient(options: LineageClientOptions): LineageClient {
  const transport = createTransport(options);
  return {
    elements: elementsApi(transport),
    structures: structuresApi(transport),
    revisions: revisionsApi(transport),
    trash: trashApi(transport),
    lifecycle: lifecycleApi(transport),
    enumerates: enumeratesApi(transport),
    files: filesApi(transport),
    images: imagesApi(transport),
    fullsearch: fullsearchApi(transport),
    folders: foldersApi(transport),
    searches: searchesApi(transport),
    events: eventsApi(transport),
    tokens: tokensApi(transport),
    dashboards: dashboardsApi(transport),
    locks: locksApi(transport),
    account: accountApi(transport),
    transport,
  };
}
