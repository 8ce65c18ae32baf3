import type { ElementEvent, EventType, NewEvent } from "../events/element-event.ts";

/** Which events a read wants: those of these types, structures and elements (each undefined: any). */
export interface EventLogFilter {
  readonly types?: readonly EventType[] | undefined;
  /** Exact structure names. */
  readonly structures?: readonly string[] | undefined;
  /** The events of these elements only (an element's history). */
  readonly initids?: readonly number[] | undefined;
}

/**
 * The event log: every committed change appends its events in its own transaction, so no
 * committed change goes unannounced and no rolled-back one is announced. Readers (the API, live
 * streams, webhooks) read it by position and remember where they stopped.
 *
 * `seq` is strictly increasing in commit order and never given twice, gaps allowed (a store whose
 * numbers outlive a rollback skips them). Pruning removes a prefix of the log: every event after
 * `oldestSeq() - 1` is kept.
 */
export interface EventLog {
  /** Appends an event and answers it with its seq; call inside the change's transaction. */
  append(event: NewEvent): Promise<ElementEvent>;
  /** At most `limit` events with a seq above `seq`, passing `filter`, in seq order. */
  after(seq: number, limit: number, filter?: EventLogFilter): Promise<ElementEvent[]>;
  /**
   * Events committed with a seq above `seq` that `after` does not give yet, in seq order. Optional:
   * a store whose writers go side by side gives `after` only up to a horizon (no transaction still
   * running can commit a seq below it), and these beyond it, so that a reader may see every change
   * committed before it asks without moving its position past a seq that may still come.
   */
  beyond?(seq: number, limit: number): Promise<ElementEvent[]>;
  /** The highest seq given so far (pruned events included); 0 when none. */
  lastSeq(): Promise<number>;
  /**
   * The first seq still kept: every event from it on is kept, none before it is. 1 on a log never
   * pruned; one more than the last pruned seq after pruning (the next seq given, when all was pruned).
   */
  oldestSeq(): Promise<number>;
  /** Removes the oldest events, up to (not including) the first whose time is `before` or later; answers how many. */
  prune(before: string): Promise<number>;
}
