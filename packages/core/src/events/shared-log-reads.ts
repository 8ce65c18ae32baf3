import type { ElementRevision } from "../elements/smart-element.ts";
import { latestRevisions } from "../elements/latest-revisions.ts";
import type { ChangeStamp } from "../ports/change-clock.port.ts";
import type { EventLogFilter } from "../ports/event-log.port.ts";
import type { Repositories } from "../ports/store.port.ts";
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
  /**
   * The latest revision of each element of `events`, by initid (undefined: gone for good), read
   * once after the window for every reader given it: what each reader's rights are checked on.
   */
  latest(): Promise<ReadonlyMap<number, ElementRevision | undefined>>;
}

/** Reads that concurrent readers of the log at one position share. */
export interface SharedLogReads {
  /** The log's window after `after`: one read for every caller asking the same while it runs. */
  window(after: number, limit: number, filter: EventLogFilter): Promise<EventWindow>;
  /** The first seq still kept, shared likewise: where a reader that saw nothing yet starts. */
  oldestSeq(): Promise<number>;
  /** The change clock, shared likewise: the stamp of the definitions the readers' rights are checked with. */
  stamp(): Promise<ChangeStamp>;
}

/**
 * Shares the reads of the log among the live readers that ask the same at about the same time: a
 * commit wakes every live stream at once, each at the same position, and without this each would
 * read the log, the change clock and the events' elements itself (a thousand streams, a thousand
 * identical reads of each per commit). A read is shared until the event loop's next turn after it
 * settled (the streams woken together reach it a few awaits apart). A caller given a window read
 * before a commit it was woken for loses nothing: the window's horizon is below that commit, so
 * the reader's next position does not pass it, and its next read, a turn later, finds it. What is
 * shared is what rights are checked on (the elements' latest revisions, the definitions' stamp);
 * each reader's rights are still checked, by the reader (read-events.ts).
 * @example
 * const reads = createSharedLogReads(store);
 * const { horizon, events } = await reads.window(position, 100, {});
 */
export function createSharedLogReads(repos: Pick<Repositories, "events" | "elements" | "changes">): SharedLogReads {
  const log = repos.events;
  const windows = new Map<string, Promise<EventWindow>>();
  const oldestSeq = sharedWhileRunning(() => log.oldestSeq());
  const stamp = sharedWhileRunning(() => repos.changes.read());
  return {
    window(after, limit, filter) {
      const key = JSON.stringify([after, limit, filter.types ?? null, filter.structures ?? null]);
      const running = windows.get(key);
      if (running) return running;
      const read = (async (): Promise<EventWindow> => {
        const horizon = await log.lastSeq();
        const events = await log.after(after, limit, filter);
        let oldest: Promise<number> | undefined;
        let latest: Promise<Map<number, ElementRevision | undefined>> | undefined;
        return {
          horizon,
          events,
          oldestSeq: () => (oldest ??= log.oldestSeq()),
          latest: () => (latest ??= latestRevisions(repos.elements, [...new Set(events.map((event) => event.initid))])),
        };
      })();
      windows.set(key, read);
      void read.finally(() => setTimeout(() => windows.delete(key), 0)).catch(() => {});
      return read;
    },
    oldestSeq,
    stamp,
  };
}

/** A read whose callers share one run while it runs, and until the event loop's next turn after it settled. */
function sharedWhileRunning<T>(read: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | undefined;
  return () => {
    if (running) return running;
    const run = read();
    running = run;
    void run.finally(() => setTimeout(() => {
      if (running === run) running = undefined;
    }, 0)).catch(() => {});
    return run;
  };
}
