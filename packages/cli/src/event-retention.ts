import type { Platform } from "@lineage/core";

/** How many days events are kept when the configuration does not say (`events.retentionDays`). */
export const DEFAULT_RETENTION_DAYS = 30;
/** How often the server prunes the event log. */
export const PRUNE_EVERY_MS = 60_000;

export interface EventRetentionOptions {
  /** Events older than this many days are removed (fractions allowed); DEFAULT_RETENTION_DAYS by default. */
  readonly retentionDays?: number | undefined;
  readonly everyMs?: number;
  /** Where a failed prune is told (the database away: the next one tries again). */
  readonly log: (message: string) => void;
}

/** The running pruning, stopped before the store closes. */
export interface EventRetention {
  /** Stops the timer and waits for a prune under way. */
  stop(): Promise<void>;
}

/**
 * Prunes the event log now and every `everyMs` (a minute), keeping `retentionDays` days: what
 * `lineage serve` runs. Every node may run it: prunes take turns in the database, and a prune
 * finding nothing old removes nothing.
 * @example
 * const retention = keepEvents(platform, { retentionDays: 7, log: console.error });
 * await retention.stop();
 */
export function keepEvents(platform: Platform, options: EventRetentionOptions): EventRetention {
  const days = options.retentionDays ?? DEFAULT_RETENTION_DAYS;
  let running: Promise<void> | undefined;
  const prune = () => {
    running ??= platform.events.prune(days).then(
      () => undefined,
      (error: unknown) => options.log(`pruning the event log failed (tried again in a minute): ${(error as Error).message}`),
    ).finally(() => {
      running = undefined;
    });
  };
  prune();
  const timer = setInterval(prune, options.everyMs ?? PRUNE_EVERY_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
