import type { Principal } from "../accounts/principal.ts";
import { permissionsUnder } from "../accounts/principal.ts";
import { findState } from "../lifecycle/lifecycle.ts";
import type { Permission, Profile } from "./profile.ts";
import type { ElementRevision } from "../elements/smart-element.ts";
import type { ElementRepository, OwnedFilter, ReadableFilter } from "../ports/element-repository.port.ts";
import type { Definitions } from "../scope/definitions.ts";

type ProfileDefinitions = Pick<Definitions, "structure" | "lifecycle" | "profile">;

/**
 * The profile a revision is under instead of its structure's, as a write sets it: the element's own
 * profile, else the profile of the state it is written in (so an element entering a state takes
 * its profile, and leaving it for a state without one goes back to its structure's); null: its
 * structure's. Written into the revision rather than looked up at each read, as the original sets
 * a document's profile when it changes state: lists filter on it in the store.
 */
export function revisionProfile(
  definitions: ProfileDefinitions, revision: Pick<ElementRevision, "structure" | "state" | "ownProfile">,
): string | null {
  if (revision.ownProfile !== null) return revision.ownProfile;
  if (revision.state === null) return null;
  const lifecycleName = definitions.structure(revision.structure)?.lifecycle;
  const lifecycle = lifecycleName ? definitions.lifecycle(lifecycleName) : undefined;
  return (lifecycle && findState(lifecycle, revision.state)?.profile) ?? null;
}

/** A revision with its `profile` set again from its own profile and state (revisionProfile). */
export function withRevisionProfile<T extends Pick<ElementRevision, "structure" | "state" | "ownProfile" | "profile">>(
  definitions: ProfileDefinitions, revision: T,
): T {
  const profile = revisionProfile(definitions, revision);
  return profile === revision.profile ? revision : { ...revision, profile };
}

/** What a revision is checked by: its structure and profile, and its owner for the `owner` grant (none: that grant gives nothing). */
type Guarded = Pick<ElementRevision, "structure" | "profile"> & { readonly owner?: number };

/**
 * What the principal may do with a revision: under its own (or its state's) profile when it has
 * one, else under its structure's; a grant to `owner` holds when the principal owns it. A profile
 * named by a revision but missing from the definitions grants nothing (but to admin): a structure
 * without a profile stays open to everyone.
 */
export function revisionPermissions(definitions: ProfileDefinitions, principal: Principal, revision: Guarded): ReadonlySet<Permission> {
  if (revision.profile === null) {
    const name = definitions.structure(revision.structure)?.profile;
    return permissionsUnder(name ? definitions.profile(name) : undefined, principal, revision.owner);
  }
  return profilePermissions(definitions.profile(revision.profile), principal, revision.owner);
}

/** What the principal may do under a profile a revision names (none when it is missing, but admin). */
function profilePermissions(profile: Profile | undefined, principal: Principal, owner: number | undefined): ReadonlySet<Permission> {
  if (!profile && !principal.isAdmin) return new Set();
  return permissionsUnder(profile, principal, owner);
}

/**
 * The elements the principal may view, as a store filters a list by them (ReadableFilter);
 * undefined for admin, who may view every element. A profile that lets them view only the
 * elements they own (its `owner` grant) goes to `owned`, with the structures under it.
 */
export function readableFilter(definitions: Pick<Definitions, "structures" | "profiles" | "profile">, principal: Principal): ReadableFilter | undefined {
  if (principal.isAdmin) return undefined;
  const me = principal.account.id;
  const profiles: string[] = [];
  const ownedProfiles: string[] = [];
  for (const profile of definitions.profiles()) {
    if (permissionsUnder(profile, principal).has("view")) profiles.push(profile.name);
    else if (permissionsUnder(profile, principal, me).has("view")) ownedProfiles.push(profile.name);
  }
  const viewable = new Set(profiles);
  const ownedOnly = new Set(ownedProfiles);
  // A structure naming no profile, or one missing from the definitions, is open to everyone (permissionsUnder).
  const open = (name: string | undefined) => name === undefined || definitions.profile(name) === undefined || viewable.has(name);
  const structures: string[] = [];
  const ownedStructures: string[] = [];
  for (const structure of definitions.structures()) {
    if (open(structure.profile)) structures.push(structure.name);
    else if (ownedOnly.has(structure.profile!)) ownedStructures.push(structure.name);
  }
  if (ownedProfiles.length === 0 && ownedStructures.length === 0) return { structures, profiles };
  return { structures, profiles, owned: { owner: me, structures: ownedStructures, profiles: ownedProfiles } };
}

/** What a list asks the store for: the structures of its collection, and the filter of what the caller may view. */
export interface ListScope {
  readonly structures?: readonly string[];
  readonly readable?: ReadableFilter;
}

/**
 * The scope of a list of `structures` (undefined: every structure) for a caller who may view what
 * `readable` lets through: the structures the list does not hold, the profiles no element is under
 * and the structures viewable only as the owner of which the caller owns no element are left out
 * of the filter; when no profile
 * is left, the list keeps to the structures whose profile the caller may view (as the owner too),
 * which the store reads from their own indexes rather than the whole collection's.
 */
export async function listScope(
  elements: Pick<ElementRepository, "profilesInUse" | "structuresOwned">, structures: readonly string[] | undefined, readable: ReadableFilter | undefined,
): Promise<ListScope> {
  if (!readable) return structures === undefined ? {} : { structures };
  const owned = readable.owned;
  const asked = owned ? [...readable.profiles, ...owned.profiles] : readable.profiles;
  const none: string[] = [];
  // Only those of the list's structures are asked about: a structure's list of another asks nothing more.
  const ownedStructures = owned ? owned.structures.filter((name) => structures === undefined || structures.includes(name)) : none;
  const [used, mine] = await Promise.all([
    asked.length === 0 ? none : elements.profilesInUse(asked),
    owned && ownedStructures.length > 0 ? elements.structuresOwned(owned.owner, ownedStructures) : none,
  ]);
  const inUse = new Set(used);
  const profiles = readable.profiles.filter((name) => inUse.has(name));
  const narrowedOwned: OwnedFilter | undefined = owned && {
    owner: owned.owner, structures: owned.structures.filter((name) => mine.includes(name)), profiles: owned.profiles.filter((name) => inUse.has(name)),
  };
  // Only the list's structures: the fewer the keys, the less a store's check of each entry costs.
  const listed = structures === undefined ? readable.structures : readable.structures.filter((name) => structures.includes(name));
  const narrowed: ReadableFilter = narrowedOwned && (narrowedOwned.structures.length > 0 || narrowedOwned.profiles.length > 0)
    ? { structures: listed, profiles, owned: narrowedOwned }
    : { structures: listed, profiles };
  if (profiles.length > 0 || (narrowed.owned?.profiles.length ?? 0) > 0) {
    return structures === undefined ? { readable: narrowed } : { structures, readable: narrowed };
  }
  const viewable = new Set([...listed, ...(narrowed.owned?.structures ?? [])]);
  return { structures: (structures ?? [...viewable]).filter((name) => viewable.has(name)), readable: narrowed };
}

/** True when a revision passes a readable filter (how the in-memory store and core checks apply it). */
export function isReadable(filter: ReadableFilter | undefined, revision: Guarded): boolean {
  if (!filter) return true;
  if (revision.profile === null ? filter.structures.includes(revision.structure) : filter.profiles.includes(revision.profile)) return true;
  return filter.owned !== undefined && ownedBy(filter.owned, revision);
}

function ownedBy(owned: OwnedFilter, revision: Guarded): boolean {
  if (revision.owner !== owned.owner) return false;
  return revision.profile === null ? owned.structures.includes(revision.structure) : owned.profiles.includes(revision.profile);
}
