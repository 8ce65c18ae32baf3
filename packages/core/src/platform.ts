import { createAccountsFacade, type AccountsFacade } from "./accounts/accounts-facade.ts";
import { createScryptPasswordHasher } from "./accounts/scrypt-password-hasher.ts";
import { createAuthFacade, type AuthFacade } from "./auth/auth-facade.ts";
import { createTokensFacade, type TokensFacade } from "./auth/tokens-facade.ts";
import { createBundlesFacade, type BundlesFacade } from "./bundle/bundles-facade.ts";
import { createDashboardsFacade, type DashboardsFacade } from "./dashboards/dashboards-facade.ts";
import { createElementsFacade, type ElementsFacade } from "./elements/elements-facade.ts";
import { createRevisionsFacade, type RevisionsFacade } from "./elements/revisions-facade.ts";
import { createTrashFacade, type TrashFacade } from "./elements/trash-facade.ts";
import { createLocksFacade, type LocksFacade } from "./elements/locks-facade.ts";
import { createEnumeratesFacade, type EnumeratesFacade } from "./enumerates/enumerates-facade.ts";
import { createEventsFacade, type EventsFacade } from "./events/events-facade.ts";
import { createFilesFacade, type FilesFacade } from "./files/files-facade.ts";
import { createImagesFacade, type ImagesFacade } from "./images/images-facade.ts";
import { createLifecycleFacade, type LifecycleFacade } from "./lifecycle/lifecycle-facade.ts";
import { createLifecycleEngine } from "./lifecycle/lifecycle-engine.ts";
import type { TransitionHooks } from "./lifecycle/transition-hooks.ts";
import type { ChangeClock } from "./ports/change-clock.port.ts";
import { systemClock, type Clock } from "./ports/clock.port.ts";
import type { DashboardServer } from "./ports/dashboard-server.port.ts";
import type { DocumentTextExtractor } from "./ports/document-text.port.ts";
import type { PasswordHasher } from "./ports/password-hasher.port.ts";
import type { SearchIndex } from "./ports/search-index.port.ts";
import type { Store } from "./ports/store.port.ts";
import type { WorkflowEngine } from "./ports/workflow-engine.port.ts";
import { createPlatformContext } from "./scope/platform-context.ts";
import type { SearchCallables } from "./search/element-text.ts";
import { createFullSearchFacade, type FullSearchFacade } from "./search/fullsearch-facade.ts";
import { createFoldersFacade, type FoldersFacade } from "./queries/folders-facade.ts";
import { createMemorySearchIndex } from "./search/memory-search-index.ts";
import { createSearchEngine } from "./search/search-engine.ts";
import type { IndexPacing } from "./search/index-pacing.ts";
import { createStructuresFacade, type StructuresFacade } from "./structures/structures-facade.ts";
import { createSearchesFacade, type SearchesFacade } from "./queries/searches-facade.ts";
import type { WebhookDestinations } from "./ports/webhook-destinations.port.ts";
import { createWebhooksFacade, type WebhooksFacade } from "./webhooks/webhooks-facade.ts";

export interface PlatformOptions {
  readonly store: Store;
  readonly clock?: Clock;
  readonly hasher?: PasswordHasher;
  /** How long a successful password verification is remembered (ms). */
  readonly credentialCacheMs?: number;
  /** Transition hooks (m0..m3) the bundles' lifecycles name; any of them may be async. */
  readonly hooks?: TransitionHooks;
  /** The workflow engine; the default lifecycle engine (with `hooks`) when not given. */
  readonly workflow?: WorkflowEngine;
  /** The most elements one list answer may hold, `slice=all` included; 10,000 by default (docs/limits.md). */
  readonly maxSlice?: number;
  /** How many answers of GET one element, and as many of searches, are kept until the next write (1000 each by default; 0 keeps none). */
  readonly readingCacheSize?: number;
  /** Full-text indexes; in memory (rebuilt at each start) when not given. */
  readonly searchIndex?: SearchIndex;
  /** Functions search domains name in `callables`: they return extra text to index for an element. */
  readonly searchCallables?: SearchCallables;
  /** Where the search engine tells of rebuilds and indexing problems; console by default. */
  readonly searchLog?: (message: string) => void;
  /** How long a search waits for its domain's index while it is first loaded or built (2000 ms by default). */
  readonly searchOpenWaitMs?: number;
  /** How index builds share the event loop with requests (a server's: `lineage serve` paces them); unpaced by default. */
  readonly searchPacing?: IndexPacing;
  /** The dashboard server the dashboards routes read (e.g. `createSupersetServer` of `@lineage/adapter-superset`); none when not given (DASH0100). */
  readonly dashboards?: DashboardServer;
  /** Reads attached PDF, ODT and DOCX files for the search domains that index files (e.g. `createDocumentTexts` of `@lineage/adapter-search`); none when not given. */
  readonly searchDocuments?: DocumentTextExtractor;
  /** How often live streams read the event log's last seq while they wait (500 ms by default), besides the store's wake-ups. */
  readonly eventPollMs?: number;
  /**
   * Where webhooks may send: `createWebhookDestinations` of `@lineage/adapter-node` refuses hosts on
   * loopback, private and link-local networks. None: every http(s) URL is accepted.
   */
  readonly webhookDestinations?: WebhookDestinations;
}

/**
 * The platform: one object per area of the domain, bound to a store. What adapters (HTTP, the
 * console, the command line) and embedding apps call; every use case takes the acting principal
 * first. Each method is the use case itself or one call to it (docs/architecture.md).
 * @example
 * const platform = createPlatform({ store: createMemoryStore() });
 * const alice = await platform.accounts.authenticate("alice", "secret");
 * const { documents } = await platform.elements.list(alice!, { family: "ARTICLE" });
 */
export interface Platform {
  /** The Smart Element collection: read, list, create, update, delete. */
  readonly elements: ElementsFacade;
  /** Deleted lineages: list, read, restore. */
  readonly trash: TrashFacade;
  /** Locks on elements: who holds one, taking and releasing them. */
  readonly locks: LocksFacade;
  /** A lineage's revisions and history. */
  readonly revisions: RevisionsFacade;
  /** Folders: their content, and the elements put in and taken out. */
  readonly folders: FoldersFacade;
  /** Smart Structures and the definitions they come with. */
  readonly structures: StructuresFacade;
  readonly enumerates: EnumeratesFacade;
  /** Files held by file and image fields. */
  readonly files: FilesFacade;
  /** The sources of the resized images. */
  readonly images: ImagesFacade;
  readonly dashboards: DashboardsFacade;
  /** Logins, passwords, principals and their administration. */
  readonly accounts: AccountsFacade;
  /** Access tokens. */
  readonly tokens: TokensFacade;
  /** Authentication services (providers, throttle, sessions) for authenticators. */
  readonly auth: AuthFacade;
  /** States, transitions and guarded state changes. */
  readonly lifecycle: LifecycleFacade;
  /** Full-text search in search domains, and their administration. */
  readonly fullsearch: FullSearchFacade;
  /** Saved searches and reports: list them, run them. */
  readonly searches: SearchesFacade;
  /** Bundles: check and import. */
  readonly bundles: BundlesFacade;
  /** The event log: what changed, read by position, and waiting for more (live streams); its retention. */
  readonly events: EventsFacade;
  /** Webhooks: their administration, and the delivery worker's steps. */
  readonly webhooks: WebhooksFacade;
  /** The change clock: a request reads it once, and every read it makes is of that stamp. */
  readonly changes: ChangeClock;
  readonly clock: Clock;
}

/** Binds the use cases to a store and the other ports given. */
export function createPlatform(options: PlatformOptions): Platform {
  const { store } = options;
  const clock = options.clock ?? systemClock;
  const context = createPlatformContext(store, clock, options.hasher ?? createScryptPasswordHasher(), options.maxSlice);
  const elements = createElementsFacade(context, options.readingCacheSize);
  const accounts = createAccountsFacade(context, options.credentialCacheMs);
  const search = createSearchEngine({
    store, index: options.searchIndex ?? createMemorySearchIndex(), callables: options.searchCallables, log: options.searchLog,
    definitions: () => context.definitions(), openWaitMs: options.searchOpenWaitMs, documents: options.searchDocuments,
    pacing: options.searchPacing,
  });
  return {
    elements,
    trash: createTrashFacade(context, elements),
    locks: createLocksFacade(context),
    searches: createSearchesFacade(context),
    revisions: createRevisionsFacade(context),
    folders: createFoldersFacade(context),
    structures: createStructuresFacade(context),
    enumerates: createEnumeratesFacade(context),
    files: createFilesFacade(context),
    images: createImagesFacade(context),
    dashboards: createDashboardsFacade(context, options.dashboards),
    accounts,
    tokens: createTokensFacade(context),
    auth: createAuthFacade(context, accounts),
    lifecycle: createLifecycleFacade(context, options.workflow ?? createLifecycleEngine({ clock, hooks: options.hooks })),
    fullsearch: createFullSearchFacade(context, search, options.readingCacheSize),
    bundles: createBundlesFacade(context),
    events: createEventsFacade(context, options.eventPollMs === undefined ? {} : { pollMs: options.eventPollMs }),
    webhooks: createWebhooksFacade(context, { destinations: options.webhookDestinations }),
    changes: store.changes,
    clock,
  };
}
