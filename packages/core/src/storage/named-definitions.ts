import type { CatalogRepository } from "../ports/catalog-repository.port.ts";
import type { Enumerate } from "../enumerates/enumerate.ts";
import type { FieldAccess } from "../access/field-access.ts";
import type { Lifecycle } from "../lifecycle/lifecycle.ts";
import type { Profile } from "../access/profile.ts";

/** For store adapters: look-up, list (by name) and save of the definitions of one kind kept by name. */
export interface NamedDefinitions<T extends { readonly name: string }> {
  get(name: string): Promise<T | undefined>;
  all(): Promise<T[]>;
  save(definition: T): Promise<void>;
}

type NamedCatalog = Pick<CatalogRepository,
  "enumerate" | "enumerates" | "saveEnumerate" | "lifecycle" | "lifecycles" | "saveLifecycle" | "profile" | "profiles" | "saveProfile"
  | "fieldAccess" | "fieldAccesses" | "saveFieldAccess">;

/** For store adapters: the catalog's enumerate, lifecycle, profile and field access methods over their named definitions. */
export function namedCatalog(kinds: {
  readonly enumerates: NamedDefinitions<Enumerate>;
  readonly lifecycles: NamedDefinitions<Lifecycle>;
  readonly profiles: NamedDefinitions<Profile>;
  readonly fieldAccesses: NamedDefinitions<FieldAccess>;
}): NamedCatalog {
  const { enumerates, lifecycles, profiles, fieldAccesses } = kinds;
  return {
    enumerate: enumerates.get,
    enumerates: enumerates.all,
    saveEnumerate: enumerates.save,
    lifecycle: lifecycles.get,
    lifecycles: lifecycles.all,
    saveLifecycle: lifecycles.save,
    profile: profiles.get,
    profiles: profiles.all,
    saveProfile: profiles.save,
    fieldAccess: fieldAccesses.get,
    fieldAccesses: fieldAccesses.all,
    saveFieldAccess: fieldAccesses.save,
  };
}
