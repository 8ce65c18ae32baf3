import type { Principal } from "../accounts/principal.ts";
import type { PlatformContext } from "../scope/platform-context.ts";
import type { LockKind } from "./element-lock.ts";
import { readLock, releaseLock, takeLock, type LockInfo, type LockOptions } from "./element-locks.ts";

/** Locks on elements: `/smart-elements/<ref>/locks/permanent`, `/locks/temporary` and `/locks/`. */
export interface LocksFacade {
  /** GET: the lock of an element the principal may view (`all`: the collection's route). */
  read(principal: Principal, ref: string, route: "one" | "all", options?: LockOptions): Promise<LockInfo>;
  /** POST or PUT on a kind's route: the principal takes the lock. */
  take(principal: Principal, ref: string, kind: "permanent" | "temporary", options?: LockOptions): Promise<LockInfo>;
  /** DELETE: the lock of that kind (every lock for `all`) is released. */
  release(principal: Principal, ref: string, kind: LockKind, options?: LockOptions): Promise<LockInfo>;
}

/** The locks façade over a platform's context. */
export function createLocksFacade(context: PlatformContext): LocksFacade {
  return {
    read: async (principal, ref, route, options) => readLock(await context.scope(principal), ref, route, options),
    take: async (principal, ref, kind, options) => takeLock(await context.scope(principal), context.clock, ref, kind, options),
    release: async (principal, ref, kind, options) => releaseLock(await context.scope(principal), ref, kind, options),
  };
}
