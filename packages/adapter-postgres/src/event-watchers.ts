import type { NotificationSource } from "./change-clocks.ts";
import type { NotificationSink } from "./change-listener.ts";

/** The store's watchers of the event log (Store.watchEvents), and what wakes them. */
export interface EventWatchers extends NotificationSink {
  watch(listener: () => void): () => void;
  /** Wakes every watcher: this store committed events. */
  wake(): void;
}

/**
 * Watchers woken by this store's commits that appended events and by every notification of a commit
 * (any node's: NOTIFY lineage_clock goes out with every write transaction, write-transactions.ts).
 * A notification says only that something committed: the watchers read the log to know more, and
 * poll it besides, so a notification lost while the listening connection is away loses nothing.
 */
export function createEventWatchers(): EventWatchers {
  const watchers = new Set<() => void>();
  const wake = () => {
    for (const watcher of watchers) {
      try {
        watcher();
      } catch {
        // A watcher's own failure: the readers it wakes also poll.
      }
    }
  };
  return {
    watch(listener) {
      const watcher = () => listener();
      watchers.add(watcher);
      return () => void watchers.delete(watcher);
    },
    wake,
    listen(client: NotificationSource) {
      client.on("notification", wake);
    },
    unlisten() {
      // The connection is gone with its listener; the readers poll until another one listens.
    },
  };
}
