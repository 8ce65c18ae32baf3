import type { EngineState, OpenDomain } from "./engine-state.ts";

const PERSIST_AFTER_CHANGES = 1000;
const PERSIST_AFTER_MS = 5 * 60_000;

/** Writes the snapshots of the open domains' indexes, in the background, and knows which are being written. */
export interface IndexPersistence {
  /** Persists a domain; the answer rejects if the snapshot could not be written (which is also logged). */
  persist(state: OpenDomain): Promise<void>;
  /** Persists, in the background, the open domains with many changes since their snapshot, or old ones. */
  persistDue(): void;
  /** Persists, in the background, the open domains with any change since their snapshot. */
  persistChanged(): void;
  /** Settles once every snapshot being written is (a failed write is logged, and retried later). */
  written(): Promise<unknown>;
}

/** The snapshots of a search engine's open domains. */
export function createIndexPersistence(shared: EngineState): IndexPersistence {
  const { index, open, log } = shared;
  // Snapshots being written in the background: stop() waits for them.
  const writing = new Set<Promise<void>>();

  function persist(state: OpenDomain): Promise<void> {
    const name = state.domain.name;
    state.changedSincePersist = 0;
    state.lastPersist = Date.now();
    let written: Promise<void>;
    try {
      // Captured now, whatever happens to the index while it is written.
      written = Promise.resolve(index.persist(name));
    } catch (error) {
      written = Promise.reject(error as Error);
    }
    const settled = written.catch((error: unknown) => {
      log(`domain "${name}": writing its snapshot failed: ${(error as Error).message}`);
      // What the snapshot missed is written next time.
      state.changedSincePersist = Math.max(state.changedSincePersist, 1);
    });
    writing.add(settled);
    void settled.finally(() => writing.delete(settled));
    return written;
  }

  return {
    persist,
    persistDue() {
      for (const state of open.values()) {
        const due = state.changedSincePersist >= PERSIST_AFTER_CHANGES || (state.changedSincePersist > 0 && Date.now() - state.lastPersist > PERSIST_AFTER_MS);
        if (due) void persist(state);
      }
    },
    persistChanged() {
      for (const state of open.values()) if (state.changedSincePersist > 0) void persist(state);
    },
    written: () => Promise.all(writing),
  };
}
