import type { Account, AddUserInput } from "./accounts/account.ts";
import { createPasswordAuthenticator } from "./accounts/authenticate.ts";
import { addUser, listUsers, removeUser, setAccountDisabled, setPassword } from "./accounts/manage-accounts.ts";
import type { Principal } from "./accounts/principal.ts";
import { createScryptPasswordHasher } from "./accounts/scrypt-password-hasher.ts";
import type { ElementRevision } from "./elements/smart-element.ts";
import type { RequestScope, Transact } from "./scope/request-scope.ts";
import { createRequestScope } from "./scope/create-request-scope.ts";
import { etagFor } from "./elements/if-match.ts";
import * as read from "./elements/read-elements.ts";
import { createVersionedCache, principalKey } from "./scope/reading-cache.ts";
import type { ChangeStamp } from "./ports/change-clock.port.ts";
import { createDefinitionsCache, type Definitions } from "./scope/definitions.ts";
import * as write from "./elements/write-elements.ts";
import { readEnumerate } from "./enumerates/read-enumerate.ts";
import { readFieldFile } from "./files/field-file.ts";
import { readStructure } from "./structures/read-structure.ts";
import { listStructureSummaries } from "./structures/structure-summaries.ts";
import { systemClock, type Clock } from "./ports/clock.port.ts";
import type { PasswordHasher } from "./ports/password-hasher.port.ts";
import type { Store } from "./ports/store.port.ts";
import type { WorkflowEngine } from "./ports/workflow-engine.port.ts";
import { createLifecycleEngine } from "./lifecycle/lifecycle-engine.ts";
import { bindLifecycleUseCases, type LifecycleUseCases } from "./lifecycle/lifecycle-use-cases.ts";
import type { TransitionHooks } from "./lifecycle/transition-hooks.ts";
import type { SearchIndex } from "./ports/search-index.port.ts";
import type { DocumentTextExtractor } from "./ports/document-text.port.ts";
import type { SearchCallables } from "./search/element-text.ts";
import { createSearchEngine } from "./search/search-engine.ts";
import { bindFullSearchUseCases, type FullSearchUseCases } from "./search/fullsearch-use-cases.ts";
import { createMemorySearchIndex } from "./search/memory-search-index.ts";
import { createAccessToken, listAccessTokens, revokeAccessToken, type TokenSummary } from "./auth/manage-tokens.ts";
import type { TokenExpiration } from "./auth/access-token.ts";
import type { TokenRouteInput } from "./auth/token-route.ts";

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
  /** How many answers of GET one element are kept until the next write (1000 by default; 0 keeps none). */
  readonly readingCacheSize?: number;
  /** Full-text indexes; in memory (rebuilt at each start) when not given. */
  readonly searchIndex?: SearchIndex;
  /** Functions search domains name in `callables`: they return extra text to index for an element. */
  readonly searchCallables?: SearchCallables;
  /** Where the search engine tells of rebuilds and indexing problems; console by default. */
  readonly searchLog?: (message: string) => void;
  /** How long a search waits for its domain's index while it is first loaded or built (2000 ms by default). */
  readonly searchOpenWaitMs?: number;
  /** Reads attached PDF, ODT and DOCX files for the search domains that index files (e.g. `createDocumentTexts` of `@lineage/adapter-search`); none when not given. */
  readonly searchDocuments?: DocumentTextExtractor;
}

type Tail<F> = F extends (scope: RequestScope, ...rest: infer R) => infer T ? (principal: Principal, ...rest: R) => Promise<Awaited<T>> : never;
type ClockTail<F> = F extends (scope: RequestScope, clock: Clock, ...rest: infer R) => infer T ? (principal: Principal, ...rest: R) => Promise<Awaited<T>> : never;

/**
 * The platform's use cases, bound to a store: what adapters (HTTP, CLI) and
 * embedding apps call. Every call takes the acting principal first.
 * @example
 * const platform = createPlatform({ store: createMemoryStore() });
 * const alice = await platform.authenticate("alice", "secret");
 */
export interface Platform {
  readonly store: Store;
  readonly clock: Clock;
  readonly hasher: PasswordHasher;
  /** The principal for a login and password, or undefined; `stamp`, the change clock as the request saw it. */
  authenticate(login: string, password: string, stamp?: ChangeStamp): Promise<Principal | undefined>;
  /** The principal when this password was verified against this login's current password within `credentialCacheMs`, else undefined (no I/O). */
  rememberedPassword(login: string, password: string, stamp?: ChangeStamp): Principal | undefined;
  /** The principal of an account, by login; undefined when there is none. `stamp`, the change clock as the request saw it. */
  principal(login: string, stamp?: ChangeStamp): Promise<Principal | undefined>;
  principalOfAccount(account: Account, stamp?: ChangeStamp): Promise<Principal>;
  addUser(input: AddUserInput): Promise<Account>;
  /** Every account, by id. */
  listUsers(): Promise<Account[]>;
  /** A new password for a login; its sessions end. */
  setPassword(login: string, password: string): ReturnType<typeof setPassword>;
  /** Disables a login (no authentication by any method, its sessions end) or enables it again. */
  setAccountDisabled(login: string, disabled: boolean): ReturnType<typeof setAccountDisabled>;
  /** Removes a login with its sessions and tokens; refused (ACCOUNT0004) while it owns elements. */
  removeUser(login: string): ReturnType<typeof removeUser>;
  /** The definitions (structures, enumerates, lifecycles, profiles, roles, groups) at the stamp given, or as now committed. */
  definitions(stamp?: ChangeStamp): Promise<Definitions>;
  /** A request scope: lookups and permissions for one request; `stamp`, the change clock as the request saw it. */
  scope(principal: Principal, stamp?: ChangeStamp): Promise<RequestScope>;
  readElement: Tail<typeof read.readElement>;
  listElements: Tail<typeof read.listAliveElements>;
  listTrash: Tail<typeof read.listTrash>;
  listRevisions: Tail<typeof read.listRevisions>;
  readRevision: Tail<typeof read.readRevision>;
  readHistory: Tail<typeof read.readHistory>;
  createElement: ClockTail<typeof write.createElement>;
  /** POST on a structure's collection: a new element from API values, under the profile's `create` grant. */
  createElementByApi: ClockTail<typeof write.createElementByApi>;
  /** GET /api/v2/smart-structures/<name>: a structure's properties and field definitions, with its ETag. */
  readStructure: Tail<typeof readStructure>;
  /** The structures the principal may view, with their counts of elements alive and in the trash. */
  listStructures(principal: Principal, stamp?: ChangeStamp): ReturnType<typeof listStructureSummaries>;
  /** The file a file or image field holds, of the latest revision or of one revision, for a principal who may view the element. */
  readFieldFile: Tail<typeof readFieldFile>;
  updateElement: ClockTail<typeof write.updateElement>;
  deleteElement: ClockTail<typeof write.deleteElement>;
  restoreElement: ClockTail<typeof write.restoreElement>;
  /** Starts a new revision of an element, in a transaction of its own. */
  reviseElement(principal: Principal, current: ElementRevision, input?: write.ReviseInput): Promise<ElementRevision>;
  /** The ETag GET of this element answers the principal: what a write answers with, for the client's next If-Match. */
  etagOf(principal: Principal, revision: ElementRevision, stamp?: ChangeStamp): Promise<string>;
  /** The data PUT, DELETE and restore answer with; `stamp`, the request's (definitions of the request's start suit the answer). */
  writeResult(principal: Principal, revision: ElementRevision, startedAt: number, fields?: string, stamp?: ChangeStamp): ReturnType<typeof write.writeResult>;
  /** The items of an enumerate (by reference, or of an enum field), filtered and ordered, in the principal's locale. */
  readEnumerate: Tail<typeof readEnumerate>;
  /** The Lifecycle collection: states, transitions and guarded state changes. */
  readonly lifecycle: LifecycleUseCases;
  /** Full-text search in search domains, and their administration. */
  readonly fullsearch: FullSearchUseCases;
  /** A new access token (api-v2.md, Token): its secret, shown once; routes are `{pattern, methods}` or `"METHODS PATTERN"`. */
  getAuthorizationToken(userAccount: Account | string, routes: readonly TokenRouteInput[], expiration?: TokenExpiration, oneshot?: boolean, description?: string): Promise<string>;
  /** Every access token, without secrets (administrators only). */
  listAuthorizationTokens(principal: Principal): Promise<TokenSummary[]>;
  /** Revokes an access token by id or secret (administrators only). */
  revokeAuthorizationToken(principal: Principal, idOrSecret: string): Promise<void>;
}

/** Binds the use cases to a store. */
export function createPlatform(options: PlatformOptions): Platform {
  const { store } = options;
  const clock = options.clock ?? systemClock;
  const hasher = options.hasher ?? createScryptPasswordHasher();
  const definitionsCache = createDefinitionsCache();
  const definitions = (stamp?: ChangeStamp) => definitionsCache.get(store, stamp?.definitions);
  const passwords = createPasswordAuthenticator(store, definitions, hasher, clock, options.credentialCacheMs);
  const transact: Transact = (fn, transactionOptions) =>
    store.transaction(async (tx) => fn(tx, await definitionsCache.get(tx)), transactionOptions);
  const scope = async (principal: Principal, stamp?: ChangeStamp) => createRequestScope(store, principal, await definitions(stamp), transact, hasher);
  const readings = createVersionedCache<read.ElementReading>(options.readingCacheSize ?? 1000);
  const lists = { maxSlice: options.maxSlice };
  return {
    store,
    clock,
    hasher,
    authenticate: passwords.verify,
    rememberedPassword: passwords.remembered,
    principal: passwords.principalOfLogin,
    principalOfAccount: passwords.principal,
    addUser: (input) => addUser(store, hasher, input),
    listUsers: () => listUsers(store),
    setPassword: (login, password) => setPassword(store, hasher, login, password),
    setAccountDisabled: (login, disabled) => setAccountDisabled(store, login, disabled),
    removeUser: (login) => removeUser(store, login),
    definitions,
    scope,
    async readElement(p, ref, consult = {}) {
      const stamp = consult.stamp ?? (await store.changes.read());
      const key = [principalKey(p), ref, consult.fields, consult.family, consult.trash].join("\u0001");
      return readings.get(key, stamp.data, async () => read.readElement(await scope(p, stamp), ref, consult));
    },
    listElements: async (p, query) => read.listAliveElements(await scope(p, query?.stamp), { ...lists, ...query }),
    listTrash: async (p, query) => read.listTrash(await scope(p, query?.stamp), { ...lists, ...query }),
    listRevisions: async (p, ref, query) => read.listRevisions(await scope(p, query?.stamp), ref, { ...lists, ...query }),
    readRevision: async (p, ref, revision, options) => read.readRevision(await scope(p, options?.stamp), ref, revision, options),
    readHistory: async (p, ref, options) => read.readHistory(await scope(p, options?.stamp), ref, options),
    createElement: async (p, input) => write.createElement(await scope(p, input.stamp), clock, input),
    createElementByApi: async (p, family, input) => write.createElementByApi(await scope(p, input.stamp), clock, family, input),
    readStructure: async (p, name, options) => readStructure(await scope(p, options?.stamp), name, options),
    listStructures: async (p, stamp) => listStructureSummaries(await scope(p, stamp)),
    readFieldFile: async (p, docid, attrid, index, options) => readFieldFile(await scope(p, options?.stamp), docid, attrid, index, options),
    updateElement: async (p, ref, input) => write.updateElement(await scope(p, input.stamp), clock, ref, input),
    deleteElement: async (p, ref, family, options) => write.deleteElement(await scope(p, options?.stamp), clock, ref, family, options),
    restoreElement: async (p, ref, body, options) => write.restoreElement(await scope(p, options?.stamp), clock, ref, body, options),
    reviseElement: async (p, current, input) => (await scope(p)).transaction((tx) => write.reviseElement(tx, clock, current, input)),
    etagOf: async (p, revision, stamp) => etagFor(await scope(p, stamp), revision),
    writeResult: async (p, revision, startedAt, fields, stamp) => write.writeResult(await scope(p, stamp), revision, startedAt, fields),
    readEnumerate: async (p, ...rest) => readEnumerate(await scope(p), ...rest),
    lifecycle: bindLifecycleUseCases(scope, options.workflow ?? createLifecycleEngine({ clock, hooks: options.hooks })),
    fullsearch: bindFullSearchUseCases(scope, createSearchEngine({
      store, index: options.searchIndex ?? createMemorySearchIndex(), callables: options.searchCallables, log: options.searchLog, definitions: () => definitions(),
      openWaitMs: options.searchOpenWaitMs, documents: options.searchDocuments,
    }), options.maxSlice),
    getAuthorizationToken: (account, routes, expiration, oneshot, description) =>
      createAccessToken(store, clock, account, routes, expiration, oneshot, description),
    listAuthorizationTokens: (principal) => listAccessTokens(store, clock, principal),
    revokeAuthorizationToken: (principal, id) => revokeAccessToken(store, principal, id),
  };
}
