import type { Principal } from "../accounts/principal.ts";
import type { ChangeStamp } from "../ports/change-clock.port.ts";
import type { PlatformContext } from "../scope/platform-context.ts";
import type { EventQuery } from "./event-query.ts";
import { createEventWakeups, type EventWait, type EventWakeupsOptions } from "./event-wakeups.ts";
import { readEvents, type EventPage } from "./read-events.ts";
import { createSharedLogReads } from "./shared-log-reads.ts";
import { createSharedPages } from "./shared-pages.ts";

/** The event log: what changed, as each reader may see it, and waiting for what comes next. */
export interface EventsFacade {
  /** GET /events/: the next events after `query.after` the principal may see (410 EVENT0410 when `after` is older than what is kept). */
  read(principal: Principal, query: EventQuery, stamp?: ChangeStamp): Promise<EventPage>;
  /**
   * What a live stream reads once woken: `read`, sharing its look at the log with the other streams
   * at the same position (shared-log-reads.ts), so a commit costs one read of the log however many
   * streams follow it (and one read of the change clock and of the events' elements, on which each
   * stream checks its reader's rights), and its page with the streams of readers with the same rights
   * and query (shared-pages.ts): the same page object, not to be changed. Its page may stop short of
   * the newest commit; the next call finds it.
   */
  follow(principal: Principal, query: EventQuery): Promise<EventPage>;
  /**
   * Waits until events after `after` may exist, at most `timeoutMs`: what a live stream does between
   * two reads. It holds no database connection meanwhile; cancel it when the reader leaves.
   */
  wait(after: number, timeoutMs: number): EventWait;
  /** Removes the events older than `retentionDays` days (fractions allowed); answers how many. */
  prune(retentionDays: number): Promise<number>;
}

const DAY_MS = 86_400_000;

/** The events façade over a platform's context. */
export function createEventsFacade(context: PlatformContext, options: EventWakeupsOptions = {}): EventsFacade {
  const wakeups = createEventWakeups(context.store, options);
  const reads = createSharedLogReads(context.store);
  const pages = createSharedPages();
  return {
    read: async (principal, query, stamp) => readEvents(await context.scope(principal, stamp), query),
    // The streams woken by one commit share the change clock's read, hence their definitions, as they share the log's.
    follow: (principal, query) => pages.page(principal, query, async () => readEvents(await context.scope(principal, await reads.stamp()), query, reads)),
    wait: (after, timeoutMs) => wakeups.wait(after, timeoutMs),
    prune: (retentionDays) => context.store.events.prune(new Date(context.clock.now().getTime() - retentionDays * DAY_MS).toISOString()),
  };
}
