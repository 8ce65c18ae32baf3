import pg from "pg";
import type { NotifiedClock } from "./change-clocks.ts";

/** The connection that listens for commits; closed with the store. */
export interface ChangeListener {
  close(): Promise<void>;
}

/** How long a lost listening connection waits before it is opened again. */
const RECONNECT_MS = 1000;

/**
 * Holds a connection of its own that LISTENs to lineage_clock, feeding the notified clock; when
 * the connection fails (the server restarts), the clock falls back to reading the row at every
 * turn until a new connection listens again.
 */
export function listenForChanges(url: string, clock: NotifiedClock, log: (message: string) => void): ChangeListener {
  let closed = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;

  // Said once per outage, not at every attempt to listen again.
  let said = false;
  const lost = (error?: Error) => {
    clock.unlisten();
    client = undefined;
    if (closed) return;
    if (error && !said) log(`PostgreSQL change notifications lost (reading the clock every turn meanwhile): ${error.message}`);
    said = true;
    retry = setTimeout(() => void connect(), RECONNECT_MS);
    retry.unref();
  };

  async function connect(): Promise<void> {
    const next = new pg.Client({ connectionString: url, keepAlive: true });
    // Once per connection, whether it errs, ends, or both.
    let gone = false;
    const onLost = (error?: Error) => {
      if (gone) return;
      gone = true;
      lost(error);
    };
    next.on("error", onLost);
    next.once("end", () => onLost());
    try {
      await next.connect();
      await next.query("listen lineage_clock");
    } catch (error) {
      await next.end().catch(() => undefined);
      onLost(error as Error);
      return;
    }
    if (closed) {
      await next.end();
      return;
    }
    client = next;
    said = false;
    clock.listen(next);
  }

  const started = connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      await started;
      clock.unlisten();
      await client?.end();
    },
  };
}
