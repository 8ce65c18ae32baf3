import type { Principal } from "../accounts/principal.ts";
import type { ChangeStamp } from "../ports/change-clock.port.ts";
import type { Clock } from "../ports/clock.port.ts";
import type { PasswordHasher } from "../ports/password-hasher.port.ts";
import type { Store } from "../ports/store.port.ts";
import { createRequestScope } from "./create-request-scope.ts";
import { createDefinitionsCache, type Definitions } from "./definitions.ts";
import type { RequestScope, Transact } from "./request-scope.ts";

/** What the area façades share: the store, and the request scopes opened on it. */
export interface PlatformContext {
  readonly store: Store;
  readonly clock: Clock;
  readonly hasher: PasswordHasher;
  /** The most elements one list answer may hold (docs/limits.md); the lists' default when undefined. */
  readonly maxSlice: number | undefined;
  /** The definitions at the stamp given, or as now committed. */
  definitions(stamp?: ChangeStamp): Promise<Definitions>;
  /** The scope of one request: a principal's look-ups and rights, with the definitions at the stamp given. */
  scope(principal: Principal, stamp?: ChangeStamp): Promise<RequestScope>;
}

/** The context of a platform over a store: one definitions cache, and scopes whose transactions read the definitions afresh. */
export function createPlatformContext(store: Store, clock: Clock, hasher: PasswordHasher, maxSlice: number | undefined): PlatformContext {
  const cache = createDefinitionsCache();
  const definitions = (stamp?: ChangeStamp) => cache.get(store, stamp?.definitions);
  const transact: Transact = (fn, options) => store.transaction(async (tx) => fn(tx, await cache.get(tx)), options);
  return {
    store,
    clock,
    hasher,
    maxSlice,
    definitions,
    scope: async (principal, stamp) => createRequestScope(store, principal, await definitions(stamp), transact, hasher),
  };
}
