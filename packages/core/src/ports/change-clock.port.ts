/**
 * Where committed data stands, as two opaque texts. `data` changes whenever
 * anything is committed; `definitions` only when definitions are: structures,
 * enumerates, lifecycles, profiles, dashboards, search domains, accounts,
 * roles and groups. Caches keyed by them never serve what a commit replaced.
 */
export interface ChangeStamp {
  readonly data: string;
  readonly definitions: string;
}

/**
 * Change detection (a "change clock"): asynchronous, as a networked database
 * answers it. Read on the store, it tells what is committed. Read on a
 * transaction, `data` is the empty text, and `definitions` is the committed
 * stamp the transaction sees until it writes a definition, then the empty
 * text: nothing a transaction wrote may be cached for others (it may yet
 * roll back, and another transaction commit the same counter value).
 */
export interface ChangeClock {
  read(): Promise<ChangeStamp>;
}
