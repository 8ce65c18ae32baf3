import type { Account } from "../accounts/account.ts";
import type { Principal } from "../accounts/principal.ts";
import { mayCreateUnder, rightsVector } from "../accounts/principal.ts";
import type { Permission } from "../access/profile.ts";
import type { ElementRevision } from "../elements/smart-element.ts";
import type { Repositories } from "../ports/store.port.ts";
import type { VaultFile } from "../ports/vault.port.ts";
import type { ResolvedField } from "../structures/smart-field.ts";
import { fieldIndex, type SmartStructure } from "../structures/smart-structure.ts";
import { effectiveStructure, visibilityKey } from "../access/field-visibility.ts";
import { parseFileValue } from "../values/file-value.ts";
import type { PasswordHasher } from "../ports/password-hasher.port.ts";
import type { Definitions } from "./definitions.ts";
import type { ReadableFilter } from "../ports/element-repository.port.ts";
import { readableFilter, revisionPermissions } from "../access/element-profile.ts";
import type { RequestScope, Transact } from "./request-scope.ts";
import { elementKey, docidOf } from "../elements/element-reference.ts";
import { ACCOUNT_PROPERTIES, LOCK_PROPERTIES } from "../elements/fields-selection.ts";
import type { ElementLock } from "../elements/element-lock.ts";
import { latestRevisions } from "../elements/latest-revisions.ts";

/** A lookup asked for what was not loaded first: a bug of the caller, never of the data. */
function notLoaded(kind: string, key: string | number): never {
  throw new Error(`request scope: ${kind} ${String(key)} was not loaded before it was looked up`);
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
  hash: () => Promise.reject(new Error("request scope: made without a password hasher, it cannot write a password value")),
  verify: () => Promise.resolve(false),
};

/** A request scope over `repos` for a principal, in their locale; `transact` is how it opens transactions (none inside one). */
export function createRequestScope(
  repos: Repositories, principal: Principal, definitions: Definitions, transact?: Transact, passwords: PasswordHasher = NO_PASSWORDS,
): RequestScope {
  // Elements by the ref they were asked by (number: initid or revision id; text: logical name).
  const elements = new Map<string | number, ElementRevision | undefined>();
  const accounts = new Map<number, Account | undefined>();
  const accountsByLogin = new Map<string, Account | undefined>();
  const files = new Map<number, VaultFile | undefined>();
  const locks = new Map<number, ElementLock | undefined>();
  // By the revision's own (or state's) profile, else by its structure, and whether the principal owns it: a page's elements share a few.
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
    // Whether the principal owns it too: a profile's `owner` grant holds for its owner only.
    const mine = revision.owner === principal.account.id ? ":mine" : "";
    const key = `${revision.profile === null ? `structure:${revision.structure}` : `profile:${revision.profile}`}${mine}`;
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
      latestRevisions(repos.elements, [...ids]),
      names.size ? repos.elements.latestByNames([...names]) : [],
    ]);
    for (const [id, revision] of byId) elements.set(id, revision);
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

  async function loadLocks(initids: Iterable<number>): Promise<void> {
    const missing = [...new Set(initids)].filter((initid) => !locks.has(initid));
    if (missing.length === 0) return;
    const found = new Map((await repos.locks.byElements(missing)).map((lock) => [lock.initid, lock]));
    for (const initid of missing) locks.set(initid, found.get(initid));
  }

  // Methods rather than arrow functions: tsx names every arrow function kept in a property, and a
  // scope is made for every request.
  const scope: RequestScope = {
    principal,
    repos,
    definitions,
    locale: principal.account.locale,
    readerAccountId: principal.account.id,
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
    lock(initid) {
      return locks.has(initid) ? locks.get(initid) : notLoaded("lock of", initid);
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
    async prepare(revisions, selection) {
      const found: References = { elements: new Set(), logins: new Set(), files: new Set() };
      for (const revision of revisions) {
        const structure = definitions.structure(revision.structure);
        if (!structure) continue;
        for (const field of referenceFields(structure)) collectReferences(field.type, revision.values[field.id], found);
      }
      const owners = selection?.properties?.some((name) => ACCOUNT_PROPERTIES.has(name)) ? revisions.map((revision) => revision.owner) : undefined;
      const locked = selection?.properties?.some((name) => LOCK_PROPERTIES.has(name)) ? revisions.map((revision) => revision.initid) : undefined;
      await Promise.all([
        scope.load({ elements: found.elements, logins: found.logins, vaultFiles: found.files, ...(owners ? { accounts: owners } : {}) }),
        locked ? loadLocks(locked) : undefined,
      ]);
    },
    transaction(fn, options) {
      if (!transact) return Promise.reject(new Error("request scope: transactions do not nest; use the scope given to the transaction"));
      return transact((tx, txDefinitions) => fn(createRequestScope(tx, principal, txDefinitions, undefined, passwords)), options);
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
