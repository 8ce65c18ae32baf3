import type { AttemptOutcome, ClaimedDelivery, Platform } from "@lineage/core";
import type { WebhookSender } from "./webhook-sender.ts";

export interface WebhookWorkerOptions {
  readonly platform: Platform;
  readonly sender: WebhookSender;
  /** This node's name among the nodes sharing the store (host and process id by default in the CLI). */
  readonly node: string;
  /** Attempts in flight at most; 64 by default. */
  readonly concurrency?: number | undefined;
  /** How long a claimed delivery stays this node's; DEFAULT_LEASE_MS of the core by default. */
  readonly leaseMs?: number | undefined;
  /** How often the worker looks for due retries when nothing wakes it; 1000 ms by default. */
  readonly pollMs?: number | undefined;
  /** Where failures of the worker itself go (the database away); stderr by default. */
  readonly log?: ((message: string) => void) | undefined;
}

/** A running delivery worker. */
export interface WebhookWorker {
  /** Stops claiming, waits for the attempts in flight to be recorded. */
  stop(): Promise<void>;
}

/**
 * The webhook delivery worker of one node: it queues the deliveries of new events (woken by the
 * event log's wake-ups, which every node's commits reach), claims due deliveries under a lease in
 * the database (exactly one node sends each attempt), sends them (at most `concurrency` at once) and
 * records each outcome. Every node runs one; a node that dies leaves its leased deliveries to the
 * others once the lease expires.
 * @example
 * const worker = startWebhookWorker({ platform, sender: createWebhookSender(), node: "web-1" });
 * await worker.stop();
 */
export function startWebhookWorker(options: WebhookWorkerOptions): WebhookWorker {
  const { platform, sender, node } = options;
  const concurrency = options.concurrency ?? 64;
  const pollMs = options.pollMs ?? 1000;
  const log = options.log ?? ((message: string) => process.stderr.write(`${message}\n`));
  let stopped = false;
  let inFlight = 0;
  const flights = new Set<Promise<void>>();
  let kick: (() => void) | undefined;
  let kicked = false;
  const wakeUp = () => {
    kicked = true;
    kick?.();
    kick = undefined;
  };
  let lastLogged = 0;
  const report = (what: string, error: unknown) => {
    // The database away for a while: one line every 10 s, not one per turn.
    if (Date.now() - lastLogged < 10_000) return;
    lastLogged = Date.now();
    log(`Webhooks: ${what} failed: ${error instanceof Error ? error.message : String(error)}`);
  };

  // Attempts that ended, recorded together: one write for all that ended meanwhile (one commit).
  // Each batch is taken after the event loop's I/O of the moment: answers arrive one callback each,
  // and a write that answers at once (SQLite) would else record them one by one, a commit each.
  const ended: { claimed: ClaimedDelivery; outcome: AttemptOutcome; at: number; recorded: () => void }[] = [];
  let recording = false;
  const record = async () => {
    if (recording) return;
    recording = true;
    try {
      while (ended.length > 0) {
        await new Promise((resolve) => setImmediate(resolve));
        const batch = ended.splice(0, 256);
        try {
          await platform.webhooks.settleAll(node, batch);
        } catch (error) {
          // Unrecorded, the attempts are taken over when their lease expires: sent again, never lost.
          report("recording attempts", error);
        }
        for (const one of batch) one.recorded();
      }
    } finally {
      recording = false;
    }
  };

  const attempt = (claimed: ClaimedDelivery) => {
    inFlight++;
    const flight = (async () => {
      const outcome = await sender.send(claimed);
      await new Promise<void>((recorded) => {
        ended.push({ claimed, outcome, at: platform.clock.now().getTime(), recorded });
        void record();
      });
    })().finally(() => {
      inFlight--;
      flights.delete(flight);
      wakeUp();
    });
    flights.add(flight);
  };

  // Claims are made in batches: after a few attempts ended, not after each one (a claim is a write).
  const claimBatch = Math.max(1, Math.floor(concurrency / 4));
  const loop = (async () => {
    let horizon = -1;
    let lookAtLog = true;
    // No webhook at the last look: no delivery to claim, and no commit to wake for (a webhook added
    // since is found at the next poll, and queues the events after its creation then).
    let none = false;
    while (!stopped) {
      let claimedAll = false;
      try {
        if (lookAtLog) {
          const queued = await platform.webhooks.enqueue();
          horizon = queued.last;
          none = queued.webhooks === 0;
          lookAtLog = false;
        }
        const free = concurrency - inFlight;
        if (!(none && inFlight === 0) && (free >= claimBatch || inFlight === 0)) {
          const claimed = await platform.webhooks.claim(node, free, options.leaseMs);
          for (const one of claimed) attempt(one);
          claimedAll = claimed.length === free;
        }
      } catch (error) {
        report("a turn", error);
      }
      if (stopped) break;
      // Every slot taken: more may be due as soon as some end.
      if (claimedAll) continue;
      // Wait for attempts to end, for new events, or for the poll (retries come due); without
      // webhooks, for the poll only: every node's commits would else cost each node a look at the log.
      const wait = none && inFlight === 0 ? pause(pollMs) : platform.events.wait(horizon, pollMs);
      const woken = await Promise.race([wait.promise.then(() => "log" as const), new Promise<"ended">((resolve) => {
        if (kicked) resolve("ended");
        else kick = () => resolve("ended");
      })]);
      kicked = false;
      wait.cancel();
      // New events, or a poll: the log is looked at again (retries and missed wake-ups are found this way).
      if (woken === "log") lookAtLog = true;
    }
  })();

  return {
    async stop() {
      stopped = true;
      wakeUp();
      await loop;
      await Promise.allSettled([...flights]);
    },
  };
}

/** A wait of `ms` that can be given up, as an event wait is. */
function pause(ms: number): { promise: Promise<boolean>; cancel(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let done: (value: boolean) => void = () => {};
  const promise = new Promise<boolean>((resolve) => {
    done = resolve;
    timer = setTimeout(() => resolve(false), ms);
  });
  return {
    promise,
    cancel() {
      clearTimeout(timer);
      done(false);
    },
  };
}
