import { createHash } from "node:crypto";
import type { Account, Group, Role } from "../accounts/account.ts";
import type { Enumerate } from "../catalog/enumerate.ts";
import type { Lifecycle } from "../catalog/lifecycle.ts";
import type { Profile } from "../catalog/profile.ts";
import type { HistoryEntry } from "../element/history-entry.ts";
import type { ElementRevision, FieldValue, NewRevision } from "../element/smart-element.ts";
import type { AccountRepository, NewAccount } from "../ports/account-repository.port.ts";
import type { CatalogRepository } from "../ports/catalog-repository.port.ts";
import type { DashboardEntry } from "../dashboards/dashboard-entry.ts";
import { systemClock, type Clock } from "../ports/clock.port.ts";
import type { ElementQuery, ElementRepository, OrderTerm } from "../ports/element-repository.port.ts";
import type { Store } from "../ports/store.port.ts";
import type { Vault, VaultFile } from "../ports/vault.port.ts";
import { createMemorySearchRepository } from "./memory-search-repository.ts";
import type { SmartStructure } from "../structure/smart-structure.ts";
import { createMemorySessionRepository } from "./memory-session-repository.ts";
import { createMemoryTokenRepository } from "./memory-token-repository.ts";

export interface MemoryStoreOptions {
  /** Dates the vault stamps on new files. */
  readonly clock?: Clock;
}

/**
 * An in-memory Store with real transactions, for tests that need no I/O.
 * Sorting mimics SQLite (NULL < numbers < text, text by code point) so the
 * fake and the SQLite adapter pass the same contract suite.
 *
 * @example
 * const store = createMemoryStore();
 * const element = store.transaction(() => store.elements.insert(revision));
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): Store {
  const clock = options.clock ?? systemClock;
  const journal = createJournal();
  const counters = createCounters(journal);
  let closed = false;

  const state = {
    elements: new Map<number, ElementRevision>(),
    history: new Map<number, { readonly seq: number; readonly entry: HistoryEntry }>(),
    structures: new Map<string, SmartStructure>(),
    enumerates: new Map<string, Enumerate>(),
    lifecycles: new Map<string, Lifecycle>(),
    profiles: new Map<string, Profile>(),
    dashboards: new Map<string, DashboardEntry>(),
    accounts: new Map<string, Account>(),
    roles: new Map<string, Role>(),
    groups: new Map<string, Group>(),
    files: new Map<number, VaultFile>(),
    blobs: new Map<string, Uint8Array>(),
  };

  function put<K, V>(map: Map<K, V>, key: K, value: V): void {
    if (closed) throw new Error("The store is closed");
    const had = map.has(key);
    const previous = map.get(key);
    // Restoring with set (not delete + set) keeps a replaced key at its place in iteration order.
    journal.record(() => (had ? map.set(key, previous as V) : map.delete(key)));
    map.set(key, value);
  }

  const structureId = (name: string): number | null => state.structures.get(name)?.id ?? null;

  const elements: ElementRepository = {
    insert(revision) {
      const id = counters.next("element");
      const stored = freeze(toRevision(id, revision.initid ?? id, revision));
      put(state.elements, id, stored);
      return stored;
    },
    save(revision) {
      if (!state.elements.has(revision.id)) throw new Error(`No revision ${revision.id} to save`);
      put(state.elements, revision.id, freeze(toRevision(revision.id, revision.initid, revision)));
    },
    byId: (id) => state.elements.get(id),
    latestByName(name) {
      return pickLatest([...state.elements.values()].filter((r) => r.name === name && !r.fixed), true);
    },
    latest: (initid) => pickLatest(lineage(initid), false),
    revisions: (initid) => lineage(initid).sort(newestFirst),
    byImportKey: (key) => pickLatest([...state.elements.values()].filter((r) => r.importKey === key), false),
    setLineageStatus(initid, status, modifiedAt) {
      const latest = pickLatest(lineage(initid), false);
      for (const revision of lineage(initid)) {
        // Fixed revisions are snapshots: only the live one records when the lineage moved.
        const stamp = revision === latest ? modifiedAt : revision.modifiedAt;
        put(state.elements, revision.id, freeze({ ...revision, status, modifiedAt: stamp }));
      }
    },
    list(query) {
      if (query.structures?.length === 0) return [];
      const wanted = query.structures && new Set(query.structures);
      const rows = [...state.elements.values()].filter(
        (r) => !r.fixed && r.status === query.status && (!wanted || wanted.has(r.structure)),
      );
      const keys = withTieBreak(query.orderBy).map((term) => ({ term, value: sortValue(term, structureId) }));
      rows.sort((a, b) => {
        for (const { term, value } of keys) {
          const order = compareSql(value(a), value(b));
          if (order !== 0) return term.direction === "asc" ? order : -order;
        }
        return 0;
      });
      return rows.slice(query.offset, query.limit === null ? undefined : query.offset + query.limit);
    },
    appendHistory(entry) {
      const seq = counters.next("history");
      put(state.history, seq, { seq, entry: freeze(structuredClone(entry)) });
    },
    history(initid) {
      return [...state.history.values()]
        .filter(({ entry }) => entry.initid === initid)
        .sort((a, b) => b.entry.revision - a.entry.revision || compareSql(b.entry.date, a.entry.date) || b.seq - a.seq)
        .map(({ entry }) => entry);
    },
  };

  function lineage(initid: number): ElementRevision[] {
    return [...state.elements.values()].filter((r) => r.initid === initid);
  }

  const catalog: CatalogRepository = {
    structure: (name) => state.structures.get(name),
    structureById: (id) => [...state.structures.values()].find((s) => s.id === id),
    structures: () => [...state.structures.values()].sort((a, b) => a.id - b.id),
    saveStructure(definition) {
      const id = state.structures.get(definition.name)?.id ?? counters.next("structure");
      const stored = freeze({ ...structuredClone(definition), id });
      put(state.structures, definition.name, stored);
      return stored;
    },
    enumerate: (name) => state.enumerates.get(name),
    saveEnumerate: (enumerate) => put(state.enumerates, enumerate.name, freeze(structuredClone(enumerate))),
    lifecycle: (name) => state.lifecycles.get(name),
    saveLifecycle: (lifecycle) => put(state.lifecycles, lifecycle.name, freeze(structuredClone(lifecycle))),
    profile: (name) => state.profiles.get(name),
    saveProfile: (profile) => put(state.profiles, profile.name, freeze(structuredClone(profile))),
    dashboard: (slug) => state.dashboards.get(slug),
    dashboards: () => [...state.dashboards.values()].sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0)),
    saveDashboard: (entry) => put(state.dashboards, entry.slug, freeze({ slug: entry.slug, uuid: entry.uuid, roles: [...entry.roles] })),
  };

  const accounts: AccountRepository = {
    byLogin: (login) => state.accounts.get(login),
    byId: (id) => [...state.accounts.values()].find((a) => a.id === id),
    saveAccount(account) {
      const id = state.accounts.get(account.login)?.id ?? counters.next("account");
      const stored = freeze(toAccount(id, account));
      put(state.accounts, account.login, stored);
      return stored;
    },
    roles: () => [...state.roles.values()],
    saveRole: (role) => put(state.roles, role.id, freeze(structuredClone(role))),
    groups: () => [...state.groups.values()],
    saveGroup: (group) => put(state.groups, group.id, freeze(structuredClone(group))),
  };

  const vault: Vault = {
    store(content, meta) {
      const sha256 = createHash("sha256").update(content).digest("hex");
      const existing = [...state.files.values()].find((f) => f.sha256 === sha256 && f.name === meta.name);
      if (existing) return existing;
      // Copy so a caller reusing its buffer cannot change what was stored.
      if (!state.blobs.has(sha256)) put(state.blobs, sha256, new Uint8Array(content));
      const id = counters.next("vault");
      const file = freeze({ id, sha256, name: meta.name, mime: meta.mime, size: content.byteLength, createdAt: clock.now().toISOString() });
      put(state.files, id, file);
      return file;
    },
    file: (id) => state.files.get(id),
    read(id) {
      const file = state.files.get(id);
      const blob = file && state.blobs.get(file.sha256);
      return blob && new Uint8Array(blob);
    },
  };

  return {
    elements,
    catalog,
    accounts,
    vault,
    search: createMemorySearchRepository(put, () => state.elements.values()),
    sessions: createMemorySessionRepository((undo) => journal.record(undo)),
    tokens: createMemoryTokenRepository((undo) => journal.record(undo)),
    transaction: (fn) => journal.run(fn),
    version: () => (journal.open() ? undefined : String(journal.writes())),
    close() {
      closed = true;
    },
  };
}

/** Undo log of the running transaction: writes record how to revert themselves. */
interface Journal {
  record(undo: () => void): void;
  run<T>(fn: () => T): T;
  /** True while a transaction runs. */
  open(): boolean;
  /** How many writes were made so far (rolled back ones included). */
  writes(): number;
}

function createJournal(): Journal {
  let undos: (() => void)[] | undefined;
  let writes = 0;
  return {
    record(undo) {
      writes++;
      // Outside a transaction each write commits on its own, so there is nothing to keep.
      undos?.push(undo);
    },
    open: () => undos !== undefined,
    writes: () => writes,
    run(fn) {
      if (undos) return synchronous(fn());
      const log: (() => void)[] = [];
      undos = log;
      try {
        return synchronous(fn());
      } catch (error) {
        for (const undo of log.reverse()) undo();
        throw error;
      } finally {
        undos = undefined;
      }
    },
  };
}

type CounterName = "element" | "structure" | "account" | "vault" | "history";

/** Id sequences that roll back with the transaction, as SQLite's AUTOINCREMENT does. */
function createCounters(journal: Journal) {
  const last: Record<CounterName, number> = { element: 0, structure: 0, account: 0, vault: 0, history: 0 };
  return {
    next(name: CounterName): number {
      const id = ++last[name];
      journal.record(() => (last[name] = id - 1));
      return id;
    },
  };
}

/** Writes after an `await` would escape the transaction, so async functions are refused (as better-sqlite3 does). */
function synchronous<T>(result: T): T {
  const then = typeof result === "object" && result !== null ? (result as { then?: unknown }).then : undefined;
  if (typeof then === "function") throw new TypeError("Store.transaction cannot run an async function");
  return result;
}

/** Picks the stored fields only: callers may pass richer objects (e.g. a revision with an id to insert). */
function toRevision(id: number, initid: number, r: NewRevision): ElementRevision {
  return {
    id, initid, revision: r.revision, structure: r.structure, name: r.name, title: r.title, owner: r.owner,
    status: r.status, fixed: r.fixed, state: r.state, values: structuredClone(r.values),
    createdAt: r.createdAt, modifiedAt: r.modifiedAt, importKey: r.importKey,
  };
}

function toAccount(id: number, a: NewAccount): Account {
  return {
    id, login: a.login, displayName: a.displayName, passwordHash: a.passwordHash, roles: [...a.roles],
    groups: [...a.groups], locale: a.locale, rights: [...a.rights],
  };
}

/** The live revision when there is one, else the highest; `aliveFirst` prefers a lineage not in the trash. */
function pickLatest(candidates: ElementRevision[], aliveFirst: boolean): ElementRevision | undefined {
  const rank = (r: ElementRevision) => (r.fixed ? 0 : 2) + (aliveFirst && r.status === "alive" ? 1 : 0);
  return candidates.sort((a, b) => rank(b) - rank(a) || newestFirst(a, b))[0];
}

function newestFirst(a: ElementRevision, b: ElementRevision): number {
  return b.revision - a.revision || b.id - a.id;
}

/** Terms closed by `id desc` unless they sort on id already, so every order is total. */
function withTieBreak(terms: readonly OrderTerm[]): readonly OrderTerm[] {
  if (terms.some((t) => t.kind === "property" && t.key === "id")) return terms;
  return [...terms, { kind: "property", key: "id", direction: "desc" }];
}

type SqlValue = string | number | null;

function sortValue(term: OrderTerm, structureId: (name: string) => number | null): (r: ElementRevision) => SqlValue {
  if (term.kind === "field") return (r) => fieldSortValue(r.values[term.key]);
  switch (term.key) {
    case "id": return (r) => r.id;
    case "initid": return (r) => r.initid;
    case "title": return (r) => r.title;
    case "name": return (r) => r.name;
    case "revision": return (r) => r.revision;
    case "owner": return (r) => r.owner;
    case "state": return (r) => r.state;
    case "fromname": return (r) => r.structure;
    case "fromid": return (r) => structureId(r.structure);
    case "cdate": return (r) => r.createdAt;
    case "mdate": return (r) => r.modifiedAt;
    case "status": return (r) => r.status;
    default: throw new Error(`Unknown sort property "${term.key}"`);
  }
}

/** What SQLite's json_extract yields for a value: arrays come back as their JSON text. */
function fieldSortValue(value: FieldValue | undefined): SqlValue {
  if (value === undefined || value === null) return null;
  return typeof value === "object" ? JSON.stringify(value) : value;
}

/** SQLite's order of values: NULL, then numbers, then text in BINARY collation. */
function compareSql(a: SqlValue, b: SqlValue): number {
  const rank = (v: SqlValue) => (v === null ? 0 : typeof v === "number" ? 1 : 2);
  const byRank = rank(a) - rank(b);
  if (byRank !== 0 || a === null || b === null) return byRank;
  if (typeof a === "number" && typeof b === "number") return a - b;
  return compareCodePoints(String(a), String(b));
}

/**
 * SQLite compares UTF-8 bytes, i.e. code points; UTF-16 units disagree only
 * when a surrogate meets U+E000..U+FFFF, so those two ranges swap places.
 */
function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

function codePointRank(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  return unit >= 0xe000 ? unit - 0x800 : unit;
}

function freeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) freeze(child);
    Object.freeze(value);
  }
  return value;
}
