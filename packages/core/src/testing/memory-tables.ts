import type { Account, Group, Role } from "../accounts/account.ts";
import type { AccessToken } from "../auth/access-token.ts";
import type { Session } from "../auth/session.ts";
import type { Enumerate } from "../enumerates/enumerate.ts";
import type { Lifecycle } from "../lifecycle/lifecycle.ts";
import type { Profile } from "../access/profile.ts";
import type { FieldAccess } from "../access/field-access.ts";
import type { DashboardEntry } from "../dashboards/dashboard-entry.ts";
import type { HistoryEntry } from "../elements/history-entry.ts";
import type { ElementLock } from "../elements/element-lock.ts";
import type { ElementEvent } from "../events/element-event.ts";
import type { ElementRevision } from "../elements/smart-element.ts";
import type { VaultFile } from "../ports/vault.port.ts";
import type { SearchDomain } from "../search/search-domain.ts";
import type { SmartStructure } from "../structures/smart-structure.ts";

/** The part of a Map the memory repositories use: a committed Map, or a transaction's draft of one. */
export interface Table<K, V> {
  get(key: K): V | undefined;
  has(key: K): boolean;
  set(key: K, value: V): void;
  delete(key: K): boolean;
  /** In insertion order; a replaced key keeps its place. */
  values(): Iterable<V>;
}

/** `event`: the last seq given; `eventsPruned`: the last seq pruning removed. */
export type CounterName = "element" | "structure" | "account" | "vault" | "history" | "definitions" | "event" | "eventsPruned";

/** Key and value of each table. */
interface Rows {
  elements: [number, ElementRevision];
  /** Folder memberships by `folder:element` (initids). */
  folderMembers: [string, { readonly folder: number; readonly element: number }];
  /** Locks by initid. */
  locks: [number, ElementLock];
  history: [number, { readonly seq: number; readonly entry: HistoryEntry }];
  structures: [string, SmartStructure];
  enumerates: [string, Enumerate];
  lifecycles: [string, Lifecycle];
  profiles: [string, Profile];
  fieldAccesses: [string, FieldAccess];
  dashboards: [string, DashboardEntry];
  accounts: [string, Account];
  roles: [string, Role];
  groups: [string, Group];
  files: [number, VaultFile];
  blobs: [string, Uint8Array];
  sessions: [string, Session];
  tokens: [string, AccessToken];
  searchDomains: [string, SearchDomain];
  searchGenerations: [string, number];
  /** The event log by seq, in seq order. */
  events: [number, ElementEvent];
  /** Id sequences and the definitions counter: they roll back with the rest. */
  counters: [CounterName, number];
}

export type MemoryTables = { readonly [K in keyof Rows]: Table<Rows[K][0], Rows[K][1]> };
export type CommittedTables = { readonly [K in keyof Rows]: Map<Rows[K][0], Rows[K][1]> };

const NAMES = [
  "elements", "folderMembers", "locks", "history", "structures", "enumerates", "lifecycles", "profiles", "fieldAccesses", "dashboards", "accounts", "roles", "groups",
  "files", "blobs", "sessions", "tokens", "searchDomains", "searchGenerations", "events", "counters",
] as const satisfies readonly (keyof Rows)[];

export function createCommittedTables(): CommittedTables {
  return Object.fromEntries(NAMES.map((name) => [name, new Map()])) as unknown as CommittedTables;
}

/**
 * The committed tables as the store's own repositories see them: writing to them is a bug (a
 * write outside a transaction must run as a transaction of its own), so it throws.
 */
export function readOnlyTables(committed: CommittedTables): MemoryTables {
  const refuse = (): never => {
    throw new Error("memory store: a write outside a transaction reached the committed tables");
  };
  return Object.fromEntries(NAMES.map((name) => {
    const map = committed[name] as Map<unknown, unknown>;
    const table: Table<unknown, unknown> = { get: (k) => map.get(k), has: (k) => map.has(k), values: () => map.values(), set: refuse, delete: refuse };
    return [name, table];
  })) as unknown as MemoryTables;
}

/** A transaction's view of the committed tables: its writes kept aside until `commit`. */
export interface Draft {
  readonly tables: MemoryTables;
  /** Applies the writes to the committed tables; false when there were none. */
  commit(): boolean;
  /** Refuses any later use of `tables`: the transaction is over. */
  end(): void;
}

const GONE = Symbol("gone");

export function openDraft(committed: CommittedTables): Draft {
  let ended = false;
  const check = () => {
    if (ended) throw new Error("memory store: a transaction's repositories were used after it ended");
  };
  const drafts = NAMES.map((name) => [name, draftOf(committed[name] as Map<unknown, unknown>, check)] as const);
  return {
    tables: Object.fromEntries(drafts) as unknown as MemoryTables,
    commit() {
      let changed = false;
      for (const [, draft] of drafts) changed = draft.commit() || changed;
      return changed;
    },
    end() {
      ended = true;
    },
  };
}

/** One table's draft: the keys written in the transaction (GONE when deleted) over the committed Map. */
function draftOf<K, V>(base: Map<K, V>, check: () => void): Table<K, V> & { commit(): boolean } {
  const changes = new Map<K, V | typeof GONE>();
  const get = (key: K): V | undefined => {
    check();
    if (!changes.has(key)) return base.get(key);
    const value = changes.get(key);
    return value === GONE ? undefined : value;
  };
  return {
    get,
    has: (key) => get(key) !== undefined,
    set(key, value) {
      check();
      changes.set(key, value);
    },
    delete(key) {
      const had = get(key) !== undefined;
      // A key the transaction added is simply forgotten, so that adding it again puts it last.
      if (base.has(key)) changes.set(key, GONE);
      else changes.delete(key);
      return had;
    },
    *values() {
      check();
      for (const [key, value] of base) {
        if (!changes.has(key)) yield value;
        else {
          const changed = changes.get(key);
          if (changed !== GONE) yield changed as V;
        }
      }
      for (const [key, value] of changes) if (!base.has(key) && value !== GONE) yield value;
    },
    commit() {
      for (const [key, value] of changes) {
        if (value === GONE) base.delete(key);
        else base.set(key, value);
      }
      return changes.size > 0;
    },
  };
}

/** A frozen deep copy of a JSON value, as a database would hand back its own copy. */
export function frozenCopy<T>(value: T): T {
  return freeze(JSON.parse(JSON.stringify(value)) as T);
}

export function freeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) freeze(child);
    Object.freeze(value);
  }
  return value;
}
