import type { Account } from "../accounts/account.ts";
import type { Principal } from "../accounts/principal.ts";
import { mayCreateUnder, rightsVector } from "../accounts/principal.ts";
import type { Permission } from "../catalog/profile.ts";
import type { ViewContext } from "../element/element-view.ts";
import type { ElementRevision } from "../element/smart-element.ts";
import type { Repositories, TransactionOptions } from "../ports/store.port.ts";
import type { VaultFile } from "../ports/vault.port.ts";
import type { ResolvedField } from "../structure/smart-field.ts";
import { fieldIndex, type SmartStructure } from "../structure/smart-structure.ts";
import { effectiveStructure, visibilityKey } from "../structure/field-visibility.ts";
import { parseFileValue } from "../values/file-value.ts";
import type { PasswordHasher } from "../ports/password-hasher.port.ts";
import type { Definitions } from "./definitions.ts";
import type { ReadableFilter } from "../ports/element-repository.port.ts";
import { readableFilter, revisionPermissions } from "./element-profile.ts";

/** What a rendering or a write will look up, read in a few batch calls beforehand. */
export interface ScopeNeeds {
  /** Elements by initid, revision id (numbers or digit strings) or logical name. */
  readonly elements?: Iterable<string | number>;
  readonly accounts?: Iterable<number>;
  /** Accounts by login: what account values name. */
  readonly logins?: Iterable<string>;
  readonly vaultFiles?: Iterable<number>;
}

/**
 * Everything one request reads through, for one principal: definitions, the
 * elements, accounts and vault files it has loaded, permissions per
 * structure, and the rendering context. Lookups are synchronous and answer
 * only what was loaded (`find`, `load`, `prepare`): rendering does no I/O and
 * a page costs a few batch reads, never one read per value. `structure` answers
 * a structure as the principal sees it (its field access's layers granted to
 * them applied); `definitions.structure` answers it as every reader sees it.
 */
export interface ReadScope extends ViewContext {
  readonly principal: Principal;
  /** Where the scope reads: the store, or a transaction's repositories. */
  readonly repos: Repositories;
  readonly definitions: Definitions;
  permissions(element: ElementRevision): ReadonlySet<Permission>;
  /** True when the principal may create elements of this structure through the API (its profile's `create` grant). */
  mayCreate(structureName: string): boolean;
  /** What the principal's ETags of an element change with: their rights on it, and their fields' visibility where a field access applies. */
  rightsVector(element: ElementRevision): string;
  /** The elements the principal may view, as lists and counts filter them in the store; undefined (admin) means all. */
  readable(): ReadableFilter | undefined;
  /** The latest revision of a lineage by initid, any revision id or logical name (read once per scope). */
  find(ref: string | number): Promise<ElementRevision | undefined>;
  /** Loads what later lookups will ask for. */
  load(needs: ScopeNeeds): Promise<void>;
  /** Loads what rendering these revisions needs: the elements, accounts and vault files their values name. */
  prepare(revisions: readonly ElementRevision[]): Promise<void>;
  /** How password values are hashed before they are written; refuses when the scope was made without a hasher. */
  readonly passwords: PasswordHasher;
  /**
   * Runs `fn` in one store transaction with a scope of the same principal
   * reading through it (nothing loaded here is carried over: the transaction
   * reads afresh). Transactions do not nest: a scope given to `fn` refuses this.
   */
  transaction<T>(fn: (tx: ReadScope) => Promise<T>, options?: TransactionOptions): Promise<T>;
}

/** Runs a function in one store transaction, with the definitions as that transaction sees them. */
export type Transact = <T>(fn: (tx: Repositories, definitions: Definitions) => Promise<T>, options?: TransactionOptions) => Promise<T>;

/** A lookup asked for what was not loaded first: a bug of the caller, never of the data. */
function notLoaded(kind: string, key: string | number): never {
  throw new Error(`read scope: ${kind} ${String(key)} was not loaded before it was looked up`);
}

const referenceCache = new WeakMap<SmartStructure, ResolvedField[]>();

/** The fields of a structure whose values name elements, accounts or vault files (memoised per structure object). */
function referenceFields(structure: SmartStructure): ResolvedField[] {
  let fields = referenceCache.get(structure);
  if (!fields) {
    fields = [...fieldIndex(structure).values()].filter((f) => f.type === "docid" || f.type === "account" || f.type === "file" || f.type === "image");
    referenceCache.set(structure, fields);
  }
  return fields;
}

/**
 * The key an element reference is looked up by: a number (initid or revision id) for a number or
 * a text of digits, else the logical name. The value codec and the renderer name elements by it
 * too, so what was loaded is what they look up.
 */
export function elementKey(ref: string | number): string | number {
  if (typeof ref === "number") return ref;
  const text = ref.trim();
  return /^\d+$/.test(text) ? Number(text) : text;
}

/** The element a stored docid value names, or undefined when it cannot name one (not a positive whole number). */
export function docidOf(value: unknown): number | undefined {
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

/** What a stored value names and rendering will look up. */
interface References {
  readonly elements: Set<number>;
  readonly logins: Set<string>;
  readonly files: Set<number>;
}

/** The docid, account and vault references held by a stored value (any depth of lists). */
function collectReferences(type: string, value: unknown, found: References): void {
  if (value === null || value === undefined) return;
  if (Array.isArray(value)) {
    for (const item of value) collectReferences(type, item, found);
    return;
  }
  if (type === "docid") {
    const id = docidOf(value);
    if (id !== undefined) found.elements.add(id);
  } else if (type === "account") {
    if (typeof value === "string" && value !== "") found.logins.add(value);
  } else if (type === "file" || type === "image") {
    const file = parseFileValue(String(value));
    if (file) found.files.add(file.vaultId);
  }
}

/** The hashing of a scope made without a hasher: such scopes (reads, bundle checks) never write a password. */
const NO_PASSWORDS: PasswordHasher = {
  hash: () => Promise.reject(new Error("read scope: made without a password hasher, it cannot write a password value")),
  verify: () => Promise.resolve(false),
};

/** A read scope over `repos` for a principal, in their locale; `transact` is how it opens transactions (none inside one). */
export function createReadScope(
  repos: Repositories, principal: Principal, definitions: Definitions, transact?: Transact, passwords: PasswordHasher = NO_PASSWORDS,
): ReadScope {
  // Elements by the ref they were asked by (number: initid or revision id; text: logical name).
  const elements = new Map<string | number, ElementRevision | undefined>();
  const accounts = new Map<number, Account | undefined>();
  const accountsByLogin = new Map<string, Account | undefined>();
  const files = new Map<number, VaultFile | undefined>();
  // By the revision's own (or state's) profile, else by its structure: a page's elements share a few.
  const permissionsByKey = new Map<string, ReadonlySet<Permission>>();
  let readable: { filter: ReadableFilter | undefined } | undefined;
  // Structures as the principal sees them: their field access's layers granted to them applied.
  const seen = new Map<string, SmartStructure | undefined>();
  const structureSeen = (name: string): SmartStructure | undefined => {
    if (seen.has(name)) return seen.get(name);
    const structure = definitions.structure(name);
    const found = structure && effectiveStructure(structure, structure.fieldAccess === undefined ? undefined : definitions.fieldAccess(structure.fieldAccess), principal);
    seen.set(name, found);
    return found;
  };

  const permissionsOf = (revision: ElementRevision): ReadonlySet<Permission> => {
    const key = revision.profile === null ? `structure:${revision.structure}` : `profile:${revision.profile}`;
    let found = permissionsByKey.get(key);
    if (!found) {
      found = revisionPermissions(definitions, principal, revision);
      permissionsByKey.set(key, found);
    }
    return found;
  };

  async function loadElements(refs: Iterable<string | number>): Promise<void> {
    const ids = new Set<number>();
    const names = new Set<string>();
    for (const ref of refs) {
      const key = elementKey(ref);
      if (elements.has(key)) continue;
      if (typeof key === "number") ids.add(key);
      else names.add(key);
    }
    if (ids.size === 0 && names.size === 0) return;
    const [byId, byName] = await Promise.all([
      ids.size ? repos.elements.byIds([...ids]) : [],
      names.size ? repos.elements.latestByNames([...names]) : [],
    ]);
    // A fixed revision stands for its lineage, whose latest revision is read.
    const fixed = byId.filter((revision) => revision.fixed);
    const latest = fixed.length ? await repos.elements.latestMany([...new Set(fixed.map((r) => r.initid))]) : [];
    const latestOf = new Map(latest.map((revision) => [revision.initid, revision]));
    const found = new Map(byId.map((revision) => [revision.id, revision.fixed ? latestOf.get(revision.initid) : revision]));
    for (const id of ids) elements.set(id, found.get(id));
    const named = new Map(byName.map((revision) => [revision.name, revision]));
    for (const name of names) elements.set(name, named.get(name));
  }

  async function loadAccounts(ids: Iterable<number>): Promise<void> {
    const missing = [...new Set(ids)].filter((id) => !accounts.has(id));
    if (missing.length === 0) return;
    const found = new Map((await repos.accounts.byIds(missing)).map((account) => [account.id, account]));
    for (const id of missing) accounts.set(id, found.get(id));
  }

  async function loadLogins(logins: Iterable<string>): Promise<void> {
    const missing = [...new Set(logins)].filter((login) => !accountsByLogin.has(login));
    // One read per login: a page names few accounts, and logins are the accounts' own key.
    const found = await Promise.all(missing.map((login) => repos.accounts.byLogin(login)));
    missing.forEach((login, i) => accountsByLogin.set(login, found[i]));
  }

  async function loadFiles(ids: Iterable<number>): Promise<void> {
    const missing = [...new Set(ids)].filter((id) => !files.has(id));
    if (missing.length === 0) return;
    const found = new Map((await repos.vault.files(missing)).map((file) => [file.id, file]));
    for (const id of missing) files.set(id, found.get(id));
  }

  // Methods rather than arrow functions: tsx names every arrow function kept in a property, and a
  // scope is made for every request.
  const scope: ReadScope = {
    principal,
    repos,
    definitions,
    locale: principal.account.locale,
    structure(name) {
      return structureSeen(name);
    },
    lifecycle(name) {
      return definitions.lifecycle(name);
    },
    enumerate(name) {
      return definitions.enumerate(name);
    },
    passwords,
    account(id) {
      return accounts.has(id) ? accounts.get(id) : notLoaded("account", id);
    },
    accountByLogin(login) {
      return accountsByLogin.has(login) ? accountsByLogin.get(login) : notLoaded("account", login);
    },
    vaultFile(id) {
      return files.has(id) ? files.get(id) : notLoaded("vault file", id);
    },
    element(ref) {
      const key = elementKey(ref);
      return elements.has(key) ? elements.get(key) : notLoaded("element", ref);
    },
    async find(ref) {
      await loadElements([ref]);
      return elements.get(elementKey(ref));
    },
    async load(needs) {
      await Promise.all([
        needs.elements ? loadElements(needs.elements) : undefined,
        needs.accounts ? loadAccounts(needs.accounts) : undefined,
        needs.logins ? loadLogins(needs.logins) : undefined,
        needs.vaultFiles ? loadFiles(needs.vaultFiles) : undefined,
      ]);
    },
    async prepare(revisions) {
      const found: References = { elements: new Set(), logins: new Set(), files: new Set() };
      for (const revision of revisions) {
        const structure = definitions.structure(revision.structure);
        if (!structure) continue;
        for (const field of referenceFields(structure)) collectReferences(field.type, revision.values[field.id], found);
      }
      await scope.load({ elements: found.elements, logins: found.logins, vaultFiles: found.files });
    },
    transaction(fn, options) {
      if (!transact) return Promise.reject(new Error("read scope: transactions do not nest; use the scope given to the transaction"));
      return transact((tx, txDefinitions) => fn(createReadScope(tx, principal, txDefinitions, undefined, passwords)), options);
    },
    permissions(revision) {
      return permissionsOf(revision);
    },
    mayCreate(structureName) {
      const profileName = definitions.structure(structureName)?.profile;
      return mayCreateUnder(profileName ? definitions.profile(profileName) : undefined, principal);
    },
    canView(revision) {
      return permissionsOf(revision).has("view");
    },
    rightsVector(revision) {
      const rights = rightsVector(permissionsOf(revision));
      // Where layers may change what the principal sees of the fields, the ETag changes with it.
      const structure = structureSeen(revision.structure);
      return structure?.fieldAccess === undefined ? rights : `${rights} ${visibilityKey(structure)}`;
    },
    readable() {
      readable ??= { filter: readableFilter(definitions, principal) };
      return readable.filter;
    },
  };
  return scope;
}
