import type { EventLog, EventLogFilter } from "../ports/event-log.port.ts";
import type { ElementEvent } from "./element-event.ts";

/** The first look at the log after a position: its last seq, then the events after the position, read in that order. */
export interface EventWindow {
  /** The log's last seq, read before `events`: every event up to it was committed when `events` was read. */
  readonly horizon: number;
  /** At most the limit asked of the events after the position, passing the filter, in seq order. */
  readonly events: readonly ElementEvent[];
  /**
   * The first seq still kept, read once after the window (so a prune that took events from the
   * window's start is seen) for every reader given this window.
   */
  oldestSeq(): Promise<number>;
}

/** Reads of the log that concurrent readers at one position share. */
export interface SharedLogReads {
  /** The log's window after `after`: one read for every caller asking the same while it runs. */
  window(after: number, limit: number, filter: EventLogFilter): Promise<EventWindow>;
  /** The first seq still kept, shared likewise: where a reader that saw nothing yet starts. */
  oldestSeq(): Promise<number>;
}

/**
 * Shares the reads of the log among the live readers that ask the same at about the same time: a
 * commit wakes every live stream at once, each at the same position, and without this each would
 * read the log itself (a thousand streams, a thousand identical reads per commit). A read is shared
 * until the event loop's next turn after it settled (the streams woken together reach it a few
 * awaits apart). A caller given a window read before a commit it was woken for loses nothing: the
 * window's horizon is below that commit, so the reader's next position does not pass it, and its
 * next read, a turn later, finds it.
 * @example
 * const reads = createSharedLogReads(store.events);
 * const { horizon, events } = await reads.window(position, 100, {});
 */
export function createSharedLogReads(log: EventLog): SharedLogReads {
  const windows = new Map<string, Promise<EventWindow>>();
  let oldest: Promise<number> | undefined;
  return {
    window(after, limit, filter) {
      const key = JSON.stringify([after, limit, filter.types ?? null, filter.structures ?? null]);
      const running = windows.get(key);
      if (running) return running;
      const read = (async (): Promise<EventWindow> => {
        const horizon = await log.lastSeq();
        const events = await log.after(after, limit, filter);
        let oldest: Promise<number> | undefined;
        return { horizon, events, oldestSeq: () => (oldest ??= log.oldestSeq()) };
      })();
      windows.set(key, read);
      void read.finally(() => setTimeout(() => windows.delete(key), 0)).catch(() => {});
      return read;
    },
    oldestSeq() {
      if (oldest) return oldest;
      const read = log.oldestSeq();
      oldest = read;
      void read.finally(() => setTimeout(() => (oldest = undefined), 0)).catch(() => {});
      return read;
    },
  };
}
