import type { Principal } from "../accounts/principal.ts";
import type { EventQuery } from "./event-query.ts";
import type { EventPage } from "./read-events.ts";

/**
 * What a principal's rights on events depend on: the account (a profile's `owner` and `user:`
 * grants, its global rights, its locale) and its effective roles and groups. Two principals with
 * the same key see every event the same way, so a page read for one is the other's page.
 */
export function rightsKey(principal: Principal): string {
  let key = rightsKeys.get(principal);
  if (key === undefined) {
    const { account } = principal;
    key = JSON.stringify([
      account.id, account.login, account.locale, [...account.rights].sort(), [...principal.roles].sort(), [...principal.groups].sort(), principal.isAdmin,
    ]);
    rightsKeys.set(principal, key);
  }
  return key;
}

// A stream keeps its principal: its key is made once, not at every commit.
const rightsKeys = new WeakMap<Principal, string>();

/** Pages that the live readers with the same rights and the same query share while they are read. */
export interface SharedPages {
  /** `read`'s page for the principal and query: one read for every caller with the same rights key and query while it runs. */
  page(principal: Principal, query: EventQuery, read: () => Promise<EventPage>): Promise<EventPage>;
}

/**
 * Shares a page of events among the live streams of readers with the same rights (rightsKey) at the
 * same position with the same query: a commit wakes them together, and each would otherwise check
 * the same rights on the same events and copy the events whose hidden fields it drops. Rights are
 * still those of the moment of the read, which is one read for them all; the page's events are the
 * same objects for each, so a stream's message is built once per distinct visible form of an event
 * (routes/events.ts keeps it). Shared until the event loop's next turn after the read settled, as
 * the log's reads are (shared-log-reads.ts), and never mutated by its readers.
 * @example
 * const pages = createSharedPages();
 * const page = await pages.page(principal, query, () => readEvents(scope, query, reads));
 */
export function createSharedPages(): SharedPages {
  const running = new Map<string, Promise<EventPage>>();
  return {
    page(principal, query, read) {
      const key = `${rightsKey(principal)}\u0000${JSON.stringify([query.after ?? null, query.slice ?? null, query.types ?? null, query.structure ?? null, query.initid ?? null])}`;
      const shared = running.get(key);
      if (shared) return shared;
      const run = read();
      running.set(key, run);
      void run.finally(() => setTimeout(() => {
        if (running.get(key) === run) running.delete(key);
      }, 0)).catch(() => {});
      return run;
    },
  };
}
