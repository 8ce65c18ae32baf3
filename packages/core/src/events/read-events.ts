import type { ElementRevision } from "../elements/smart-element.ts";
import { LineageError } from "../errors/lineage-error.ts";
import type { EventLogFilter } from "../ports/event-log.port.ts";
import type { RequestScope } from "../scope/request-scope.ts";
import type { ElementEvent } from "./element-event.ts";
import { DEFAULT_EVENT_SLICE, MAX_EVENT_SLICE, type EventQuery } from "./event-query.ts";
import { eventSeenBy } from "./event-visibility.ts";
import { createSharedLogReads, type SharedLogReads } from "./shared-log-reads.ts";

/** A page of events: those the reader may see, and the seq to pass as `after` next. */
export interface EventPage {
  readonly events: ElementEvent[];
  /**
   * The last seq this read went past: hidden events and, when it read to the end of the log, those
   * the query's types and structure leave out are passed too, so that the next read does not look at
   * them again; `after` when nothing was committed since.
   */
  readonly last: number;
}

/** The most events one read looks at, hidden ones included, before it answers what it found. */
const MAX_SCANNED = 10_000;

/**
 * The next events after `query.after` that the scope's principal may see, as they see them
 * (event-visibility.ts): rights are those of now, read at every call. 410 EVENT0410, with the
 * first seq still kept as the answer's `oldest`, when `after` is older than what the log keeps
 * (events the reader missed are gone); 400 EVENT0400 for an unknown structure. `reads` shares the
 * first look at the log with other readers at the same position (live streams, events-facade.ts).
 */
export async function readEvents(scope: RequestScope, query: EventQuery, reads: SharedLogReads = createSharedLogReads(scope.repos)): Promise<EventPage> {
  const log = scope.repos.events;
  if (query.structure !== undefined && !scope.definitions.structure(query.structure)) {
    throw new LineageError("EVENT0400", [`structure "${query.structure}" is not known`]);
  }
  const slice = Math.min(query.slice ?? DEFAULT_EVENT_SLICE, MAX_EVENT_SLICE);
  const filter: EventLogFilter = {
    types: query.types, structures: query.structure === undefined ? undefined : [query.structure], initids: query.initid === undefined ? undefined : [query.initid],
  };
  // None seen: from the oldest kept. Else the log is asked after the page is read, so a prune in between is told.
  const start = query.after ?? (await reads.oldestSeq()) - 1;
  // The horizon is read first: every event up to it is committed (seqs come in commit order), so a
  // read that reaches the end of the log has seen all of them that pass the filter.
  const window = await reads.window(start, slice, filter);
  const { horizon } = window;
  const events: ElementEvent[] = [];
  let last = start;
  let reachedEnd = false;
  let batch = window.events;
  for (let scanned = 0; ;) {
    reachedEnd = batch.length < slice;
    if (batch.length === 0) break;
    scanned += batch.length;
    // The window's elements are read once for every reader given it; a batch read past it, by this reader.
    const latest = batch === window.events ? await window.latest() : await latestOf(scope, batch);
    for (const event of batch) {
      last = event.seq;
      const seen = eventSeenBy(scope, event, latest.get(event.initid));
      if (seen) events.push(seen);
      if (events.length === slice) {
        reachedEnd = reachedEnd && event === batch.at(-1);
        break;
      }
    }
    if (reachedEnd || events.length === slice || scanned >= MAX_SCANNED) break;
    batch = await log.after(last, slice, filter);
  }
  if (reachedEnd) last = Math.max(last, horizon);
  if (query.after !== undefined) {
    const oldest = await window.oldestSeq();
    if (query.after < oldest - 1) throw new LineageError("EVENT0410", [query.after, oldest], { answer: { oldest } });
  }
  return { events, last };
}

/** The latest revisions of a batch's elements, through the scope (which keeps them for the rest of its request). */
async function latestOf(scope: RequestScope, batch: readonly ElementEvent[]): Promise<ReadonlyMap<number, ElementRevision | undefined>> {
  const initids = new Set(batch.map((event) => event.initid));
  await scope.load({ elements: initids });
  return new Map([...initids].map((initid) => [initid, scope.element(initid)]));
}
