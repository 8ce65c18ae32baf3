import type { Repositories, Store } from "../ports/store.port.ts";

const REPOSITORIES = ["elements", "folders", "locks", "catalog", "accounts", "vault", "search", "sessions", "tokens", "changes", "events"] as const;

/** A store whose repository calls are recorded as "repository.method", outside transactions and in them. */
export interface CountingStore {
  readonly store: Store;
  /** Every call since the last `reset`, in order. */
  readonly calls: string[];
  /** The calls other than reads of the change clock. */
  reads(): string[];
  reset(): void;
}

/**
 * Wraps a store so a test can count what a use case asks of it (or act at a
 * given call with `onCall`, which runs once the call has answered).
 */
export function countingStore(inner: Store, onCall: (call: string) => void = () => {}): CountingStore {
  const calls: string[] = [];
  const wrap = (repos: Repositories): Repositories => {
    const wrapped: Record<string, unknown> = {};
    for (const name of REPOSITORIES) {
      const repository = repos[name] as unknown as Record<string, unknown>;
      const counted: Record<string, unknown> = {};
      for (const [method, value] of Object.entries(repository)) {
        counted[method] = typeof value !== "function" ? value : async (...args: unknown[]) => {
          const call = `${name}.${method}`;
          calls.push(call);
          const result: unknown = await (value as (...a: unknown[]) => Promise<unknown>).apply(repository, args);
          onCall(call);
          return result;
        };
      }
      wrapped[name] = counted;
    }
    return wrapped as unknown as Repositories;
  };
  const store: Store = {
    ...wrap(inner),
    transaction: (fn, options) => inner.transaction((tx) => fn(wrap(tx)), options),
    webhooks: inner.webhooks,
    ...(inner.watchEvents ? { watchEvents: inner.watchEvents.bind(inner) } : {}),
    close: () => inner.close(),
  };
  return {
    store,
    calls,
    reads: () => calls.filter((call) => call !== "changes.read"),
    reset: () => void calls.splice(0),
  };
}
