import pg from "pg";
import type { NotificationSource } from "./change-clocks.ts";

/** The connection that listens for commits; closed with the store. */
export interface ChangeListener {
  close(): Promise<void>;
}

/** What notifications feed: the notified clock, the event log's watchers. */
export interface NotificationSink {
  /** A connection listens: its notifications are the sink's from now on. */
  listen(client: NotificationSource): void;
  /** The connection is lost: nothing is notified until another one listens. */
  unlisten(): void;
}

/** Several sinks fed by one connection. */
export function allSinks(...sinks: readonly NotificationSink[]): NotificationSink {
  return {
    listen: (client) => sinks.forEach((sink) => sink.listen(client)),
    unlisten: () => sinks.forEach((sink) => sink.unlisten()),
  };
}

/** How long a lost listening connection waits before it is opened again. */
const RECONNECT_MS = 1000;

/**
 * Holds a connection of its own that LISTENs to lineage_clock, feeding the notified clock and the
 * event log's watchers (`sink`); when the connection fails (the server restarts), the clock falls
 * back to reading the row at every turn, and the watchers to their polling, until a new connection
 * listens again.
 */
export function listenForChanges(url: string, sink: NotificationSink, log: (message: string) => void): ChangeListener {
  let closed = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;

  // Said once per outage, not at every attempt to listen again.
  let said = false;
  const lost = (error?: Error) => {
    sink.unlisten();
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
    sink.listen(next);
  }

  const started = connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      await started;
      sink.unlisten();
      await client?.end();
    },
  };
}
