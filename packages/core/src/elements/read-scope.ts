import type { Principal } from "../accounts/principal.ts";
import { permissionsUnder, rightsVector } from "../accounts/principal.ts";
import type { Permission } from "../catalog/profile.ts";
import type { ViewContext } from "../element/element-view.ts";
import type { ElementRevision } from "../element/smart-element.ts";
import type { Store } from "../ports/store.port.ts";

/**
 * Everything one request reads through, for one principal: lookups memoised
 * for the request, permissions per structure, and the rendering context.
 */
export interface ReadScope extends ViewContext {
  readonly principal: Principal;
  readonly store: Store;
  permissions(element: ElementRevision): ReadonlySet<Permission>;
  rightsVector(element: ElementRevision): string;
  /** Structures whose elements the principal may view; undefined means all. */
  viewableStructures(): string[] | undefined;
}

function memo<K, V>(load: (key: K) => V): (key: K) => V {
  const cache = new Map<K, V>();
  return (key) => {
    if (!cache.has(key)) cache.set(key, load(key));
    return cache.get(key) as V;
  };
}

/** A read scope over the store for a principal, in their locale. */
export function createReadScope(store: Store, principal: Principal): ReadScope {
  const structure = memo((name: string) => store.catalog.structure(name));
  const profile = memo((name: string) => store.catalog.profile(name));
  const permissionsOf = memo((structureName: string) => {
    const profileName = structure(structureName)?.profile;
    return permissionsUnder(profileName ? profile(profileName) : undefined, principal);
  });
  // Methods rather than arrow functions: tsx names every arrow function kept in a property, and a
  // scope is made for every request.
  const scope: ReadScope = {
    principal,
    store,
    locale: principal.account.locale,
    structure,
    lifecycle: memo((name: string) => store.catalog.lifecycle(name)),
    enumerate: memo((name: string) => store.catalog.enumerate(name)),
    account: memo((id: number) => store.accounts.byId(id)),
    vaultFile: memo((id: number) => store.vault.file(id)),
    element: memo((ref: string | number) => {
      if (typeof ref === "number") {
        const found = store.elements.byId(ref);
        return found && (found.fixed ? store.elements.latest(found.initid) : found);
      }
      return store.elements.latestByName(ref);
    }),
    permissions(revision) {
      return permissionsOf(revision.structure);
    },
    canView(revision) {
      return permissionsOf(revision.structure).has("view");
    },
    rightsVector(revision) {
      return rightsVector(permissionsOf(revision.structure));
    },
    viewableStructures() {
      return principal.isAdmin ? undefined : store.catalog.structures().filter((s) => permissionsOf(s.name).has("view")).map((s) => s.name);
    },
  };
  return scope;
}
