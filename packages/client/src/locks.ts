import { elementPath } from "./path-segment.ts";
import type { Transport } from "./transport.ts";

/** Which lock: a permanent one (kept until released) or a temporary one (released when the holder's session ends). */
export type LockKind = "permanent" | "temporary";

/** An element's lock as the caller sees it (docs/elements.md, Locks). */
export interface LockInfo {
  /** True when the caller may not change the element now: no edit right, or a lock someone else holds. */
  readonly readOnly: boolean;
  readonly uri: string;
  readonly lock: {
    readonly lockedBy: { readonly id: number; readonly title: string };
    readonly isMyLock: boolean;
    readonly temporary: boolean;
    readonly fixed: false;
  } | null;
}

/** Options of a lock request: under a structure's collection (refused when the element is not of it). */
export interface LockOptions {
  readonly structure?: string;
  readonly signal?: AbortSignal;
}

/** Locks on elements (docs/api.md, Locks): read, take and release, one kind or every lock. */
export interface LocksApi {
  /** GET …/locks (every lock) or …/locks/<kind>. */
  read(ref: string | number, kind?: LockKind, options?: LockOptions): Promise<LockInfo>;
  /** POST …/locks/<kind>: the caller takes the lock (409-like refusal CRUD0231 when another holds one). */
  take(ref: string | number, kind: LockKind, options?: LockOptions): Promise<LockInfo>;
  /** DELETE …/locks (every lock the caller may release) or …/locks/<kind>. */
  release(ref: string | number, kind?: LockKind, options?: LockOptions): Promise<LockInfo>;
}

/** The locks area over a transport. */
export function locksApi(transport: Transport): LocksApi {
  const path = (ref: string | number, kind: LockKind | undefined, options: LockOptions) =>
    `${elementPath(ref, options.structure)}/locks${kind ? `/${kind}` : ""}`;
  const call = async (method: "GET" | "POST" | "DELETE", ref: string | number, kind: LockKind | undefined, options: LockOptions) =>
    (await transport.json<LockInfo>({ method, path: path(ref, kind, options), signal: options.signal })).data;
  return {
    read: (ref, kind, options = {}) => call("GET", ref, kind, options),
    take: (ref, kind, options = {}) => call("POST", ref, kind, options),
    release: (ref, kind, options = {}) => call("DELETE", ref, kind, options),
  };
}
