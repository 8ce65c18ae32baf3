import type { Group, Role } from "../accounts/account.ts";
import type { Enumerate } from "../enumerates/enumerate.ts";
import type { FieldAccess } from "../access/field-access.ts";
import type { Lifecycle } from "../lifecycle/lifecycle.ts";
import type { Profile } from "../access/profile.ts";
import type { ChangeStamp } from "../ports/change-clock.port.ts";
import type { Repositories } from "../ports/store.port.ts";
import type { SmartStructure } from "../structures/smart-structure.ts";
import { resolveStructures } from "../structures/structure-inheritance.ts";

/**
 * Every definition as of one change stamp, frozen: structures, enumerates,
 * lifecycles, profiles, field accesses, roles and groups. Looked up synchronously, so that
 * rendering needs no I/O; what core memoises per object (field indexes, an
 * enumerate's lookup index) lasts as long as the definitions do.
 */
export interface Definitions {
  /** The `definitions` part of the change stamp they were read at ("" inside a transaction that wrote definitions). */
  readonly stamp: string;
  structure(name: string): SmartStructure | undefined;
  structureById(id: number): SmartStructure | undefined;
  structures(): readonly SmartStructure[];
  /** The names of a structure and of every structure that extends it, directly or not (empty for an unknown one). */
  withDescendants(name: string): readonly string[];
  enumerate(name: string): Enumerate | undefined;
  lifecycle(name: string): Lifecycle | undefined;
  profile(name: string): Profile | undefined;
  profiles(): readonly Profile[];
  /** A field access (bundle `fieldAccesses`) by name. */
  fieldAccess(name: string): FieldAccess | undefined;
  roles(): readonly Role[];
  groups(): readonly Group[];
}

/** Freezes a value and everything in it. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

const byName = <T extends { readonly name: string }>(items: readonly T[]) => new Map(items.map((item) => [item.name, deepFreeze(item)]));

/** Reads every definition through `repos` (the store, or a transaction's repositories). */
export async function loadDefinitions(repos: Repositories, stamp: string): Promise<Definitions> {
  const [structures, enumerates, lifecycles, profiles, fieldAccesses, roles, groups] = await Promise.all([
    repos.catalog.structures(), repos.catalog.enumerates(), repos.catalog.lifecycles(), repos.catalog.profiles(),
    repos.catalog.fieldAccesses(), repos.accounts.roles(), repos.accounts.groups(),
  ]);
  // Served whole: inherited fields and settings filled in (structure-inheritance.ts).
  const structureMap = byName(resolveStructures(structures));
  const structureIds = new Map([...structureMap.values()].map((s) => [s.id, s]));
  const family = new Map([...structureMap.keys()].map((name) => [name, [name]]));
  for (const structure of structureMap.values()) for (const ancestor of structure.ancestors) family.get(ancestor)?.push(structure.name);
  const enumerateMap = byName(enumerates);
  const lifecycleMap = byName(lifecycles);
  const profileMap = byName(profiles);
  const fieldAccessMap = byName(fieldAccesses);
  deepFreeze(roles);
  deepFreeze(groups);
  const list = [...structureMap.values()];
  const profileList = [...profileMap.values()];
  return {
    stamp,
    structure: (name) => structureMap.get(name),
    structureById: (id) => structureIds.get(id),
    structures: () => list,
    withDescendants: (name) => family.get(name) ?? [],
    enumerate: (name) => enumerateMap.get(name),
    lifecycle: (name) => lifecycleMap.get(name),
    profile: (name) => profileMap.get(name),
    profiles: () => profileList,
    fieldAccess: (name) => fieldAccessMap.get(name),
    roles: () => roles,
    groups: () => groups,
  };
}

/** Options of a use case called for a request that has read the change clock already. */
export interface Stamped {
  /** The change clock as the request saw it: the definitions are those of its stamp, without another clock read. */
  readonly stamp?: ChangeStamp | undefined;
}

/** Definitions kept while the change clock's `definitions` stamp stays the same. */
export interface DefinitionsCache {
  /** The definitions as `repos` sees them: the kept ones when its stamp has not moved. */
  get(repos: Repositories, stamp?: string): Promise<Definitions>;
}

/**
 * One set of definitions at a time, shared by every request of the same
 * stamp (a concurrent load at the same stamp is shared too). Inside a
 * transaction the stamp is read through it, so a transaction that wrote
 * definitions reads its own, never kept for others.
 */
export function createDefinitionsCache(): DefinitionsCache {
  let kept: { readonly stamp: string; readonly definitions: Promise<Definitions> } | undefined;
  return {
    async get(repos, known) {
      const stamp = known ?? (await repos.changes.read()).definitions;
      if (kept?.stamp === stamp) return kept.definitions;
      const definitions = loadDefinitions(repos, stamp);
      if (stamp === "") return definitions;
      const entry = { stamp, definitions };
      kept = entry;
      definitions.catch(() => {
        if (kept === entry) kept = undefined;
      });
      return definitions;
    },
  };
}
