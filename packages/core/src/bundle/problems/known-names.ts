import { ADMIN_ROLE } from "../../accounts/account.ts";
import { loadDefinitions, type Definitions } from "../../scope/definitions.ts";
import type { Store } from "../../ports/store.port.ts";
import type { SmartStructure, StructureDefinition } from "../../structures/smart-structure.ts";
import { resolveStructures, type ResolvedStructure } from "../../structures/structure-inheritance.ts";
import type { BundleView } from "./bundle-view.ts";

/** Where names resolve: the bundle first, then the store. */
export interface Known {
  role(id: string): boolean;
  group(id: string): boolean;
  user(login: string): boolean;
  enumerate(name: string): boolean;
  profile(name: string): boolean;
  fieldAccess(name: string): boolean;
  /** The structures that name this field access, or inherit it, as the import will leave them (whole ones only). */
  fieldAccessUsers(name: string): readonly ResolvedStructure<StructureDefinition>[];
  lifecycle(name: string): boolean;
  /**
   * The definition of a structure, whole (inherited fields included), as the bundle leaves it;
   * undefined also when the bundle's entry for it or for one of its ancestors is invalid, or its
   * parents are unknown or make a cycle (see structureDeclared).
   */
  structure(name: string): ResolvedStructure<StructureDefinition> | undefined;
  structureDeclared(name: string): boolean;
  /** The parent a structure names (`extends`), as the bundle leaves it. */
  parentOf(name: string): string | undefined;
  /** A structure as the bundle or the store gives it (not resolved), as the bundle leaves it. */
  definition(name: string): StructureDefinition | undefined;
  /** The stored structures the bundle does not give. */
  readonly storedOnly: readonly string[];
  /** A stored structure resolved as the store has it, before the bundle. */
  stored(name: string): ResolvedStructure<StructureDefinition> | undefined;
}

/** What the checks read of the store beforehand, in a few batch calls: the checks themselves are synchronous. */
export interface StoreFacts {
  readonly definitions: Definitions;
  /** The stored structures as their bundles gave them (not resolved): the bundle's may change their parents. */
  readonly structures: readonly SmartStructure[];
  /** Logins the bundle names (grants, owners) that have an account. */
  readonly logins: ReadonlySet<string>;
}

const USER_GRANT = /^user:(.+)$/;

/** Reads what the definitions may refer to in the store: its definitions, and the accounts the bundle names. */
export async function storeFacts(view: BundleView, store: Store, owners: ReadonlySet<string>): Promise<StoreFacts> {
  const [definitions, structures] = await Promise.all([loadDefinitions(store, ""), store.catalog.structures()]);
  const logins = new Set<string>(owners);
  const grant = (entry: unknown) => {
    const login = typeof entry === "string" ? USER_GRANT.exec(entry)?.[1] : undefined;
    if (login !== undefined) logins.add(login);
  };
  for (const profile of view.profiles) for (const entries of Object.values(profile?.grants ?? {})) entries?.forEach(grant);
  for (const access of view.fieldAccesses) for (const layer of access?.layers ?? []) grant(layer.grant);
  for (const lifecycle of view.lifecycles) for (const transition of lifecycle?.transitions ?? []) transition.grants?.forEach(grant);
  const accounts = await Promise.all([...logins].map((login) => store.accounts.byLogin(login)));
  return { definitions, structures, logins: new Set(accounts.flatMap((account) => (account ? [account.login] : []))) };
}

/** The names the bundle may use, as the import will leave them: the bundle's own, then the store's. */
export function knownNames(view: BundleView, facts: StoreFacts): Known {
  const { definitions } = facts;
  // The structures as the import will leave them: the bundle's entries (valid or not) in place of the stored ones.
  const given = new Map<string, StructureDefinition>(facts.structures.filter((s) => !view.declared.structures.has(s.name)).map((s) => [s.name, s]));
  for (const [name, structure] of firstByName(view.structures, (s) => s.name)) given.set(name, { ...structure, fields: structure.fields ?? [] });
  const resolved = new Map(resolveStructures([...given.values()]).map((s) => [s.name, s]));
  const stored = new Map(resolveStructures(facts.structures).map((s) => [s.name, s]));
  // Whole: every ancestor has a valid definition, and none comes back to the structure (asked once per element: kept).
  const wholes = new Map<string, boolean>();
  const whole = (name: string): boolean => {
    let found = wholes.get(name);
    if (found === undefined) {
      const seen = new Set([name]);
      found = given.has(name);
      for (let parent = given.get(name)?.extends; found && parent !== undefined; parent = given.get(parent)?.extends) {
        found = !seen.has(parent) && given.has(parent);
        seen.add(parent);
      }
      wholes.set(name, found);
    }
    return found;
  };
  return {
    role: (id) => id === ADMIN_ROLE || view.declared.roles.has(id) || definitions.roles().some((r) => r.id === id),
    group: (id) => view.declared.groups.has(id) || definitions.groups().some((g) => g.id === id),
    user: (login) => view.declared.users.has(login) || facts.logins.has(login),
    enumerate: (name) => view.enumerates.has(name) || definitions.enumerate(name) !== undefined,
    profile: (name) => view.declared.profiles.has(name) || definitions.profile(name) !== undefined,
    fieldAccess: (name) => view.declared.fieldAccesses.has(name) || definitions.fieldAccess(name) !== undefined,
    fieldAccessUsers: (name) => [...resolved.values()].filter((s) => s.fieldAccess === name && whole(s.name)),
    lifecycle: (name) => view.declared.lifecycles.has(name) || definitions.lifecycle(name) !== undefined,
    structure: (name) => (whole(name) ? resolved.get(name) : undefined),
    structureDeclared: (name) => view.declared.structures.has(name) || definitions.structure(name) !== undefined,
    parentOf: (name) => given.get(name)?.extends,
    definition: (name) => given.get(name),
    storedOnly: facts.structures.filter((s) => !view.declared.structures.has(s.name)).map((s) => s.name),
    stored: (name) => stored.get(name),
  };
}

function firstByName<T>(entries: readonly (T | undefined)[], name: (entry: T) => string): Map<string, T> {
  const map = new Map<string, T>();
  for (const entry of entries) if (entry && !map.has(name(entry))) map.set(name(entry), entry);
  return map;
}
