import type { Store } from "../ports/store.port.ts";

/** A wait for new events, which its holder may give up. */
export interface EventWait {
  /** True once events after the seq waited from may exist; false at the timeout or when cancelled. */
  readonly promise: Promise<boolean>;
  /** Gives the wait up (a stream whose client left): it resolves false and holds nothing more. */
  cancel(): void;
}

/** What live readers of the log (streams) wait on: one watcher per platform, however many readers. */
export interface EventWakeups {
  /** Waits until events after `after` may exist, at most `timeoutMs`. */
  wait(after: number, timeoutMs: number): EventWait;
}

export interface EventWakeupsOptions {
  /**
   * How often the last seq is read while someone waits (500 ms by default): a notification the
   * store missed or never sends (another process's commit) is caught within this.
   */
  readonly pollMs?: number;
}

interface Waiter {
  readonly after: number;
  done(found: boolean): void;
}

/**
 * Wakes the readers waiting for new events: it reads the log's last seq when the store says events
 * may have been appended (`Store.watchEvents`) and every `pollMs` besides, and wakes those waiting
 * from an older seq. Reading the last seq is all it does: the readers read the log themselves, by
 * seq, so a notification lost or repeated loses or doubles nothing. While nobody waits it holds no
 * timer and no subscription.
 * @example
 * const wakeups = createEventWakeups(store);
 * const { promise } = wakeups.wait(page.last, 15_000);
 */
export function createEventWakeups(store: Store, options: EventWakeupsOptions = {}): EventWakeups {
  const pollMs = options.pollMs ?? 500;
  const waiters = new Set<Waiter>();
  // The last seq read; -1 before the first read.
  let last = -1;
  let timer: ReturnType<typeof setInterval> | undefined;
  let unwatch: (() => void) | undefined;
  let reading = false;
  let readAgain = false;
  const deadlines = createDeadlines();

  const wake = () => {
    for (const waiter of waiters) if (last > waiter.after) waiter.done(true);
  };

  async function check(): Promise<void> {
    if (reading) {
      readAgain = true;
      return;
    }
    reading = true;
    try {
      do {
        readAgain = false;
        try {
          last = Math.max(last, await store.events.lastSeq());
        } catch {
          // The database is away for a moment: the next poll reads again.
        }
        wake();
      } while (readAgain && waiters.size > 0);
    } finally {
      reading = false;
    }
  }

  /** Starts watching when nobody waited; true when it did (what is known of the log may be old then). */
  const start = (): boolean => {
    if (timer) return false;
    timer = setInterval(() => void check(), pollMs);
    timer.unref?.();
    unwatch = store.watchEvents?.(() => void check());
    return true;
  };
  const stopWhenIdle = () => {
    if (waiters.size > 0 || !timer) return;
    clearInterval(timer);
    timer = undefined;
    unwatch?.();
    unwatch = undefined;
  };

  return {
    wait(after, timeoutMs) {
      let waiter: Waiter | undefined;
      let leave: (() => void) | undefined;
      const promise = new Promise<boolean>((resolve) => {
        const self: Waiter = {
          after,
          done(found) {
            if (!waiters.delete(self)) return;
            leave?.();
            stopWhenIdle();
            resolve(found);
          },
        };
        waiter = self;
        waiters.add(self);
      });
      if (waiter) leave = deadlines.add(waiter, timeoutMs);
      const watchedSince = start();
      // What is already known may answer at once. A read confirms it when nothing watched the log
      // until now, or when the store tells no commit: while the store's watch runs, every commit
      // after what is known reads the log again, so a thousand streams waiting again after one
      // commit cost no read each.
      if (last > after) waiter?.done(true);
      else if (watchedSince || !store.watchEvents) void check();
      return { promise, cancel: () => waiter?.done(false) };
    },
  };
}

/** How finely the waits' timeouts are told apart: those ending in the same slice of time share one timer. */
const DEADLINE_SLICE_MS = 25;

/** Timeouts of many waits: one timer per slice of DEADLINE_SLICE_MS in which some end, not one per wait. */
interface Deadlines {
  /** Answers the waiter false once `timeoutMs` passed (up to one slice later); gives what to call when it ends before. */
  add(waiter: Waiter, timeoutMs: number): () => void;
}

// A thousand streams each waiting up to a second, again at every commit, would otherwise make and
// clear a thousand timers per commit.
function createDeadlines(): Deadlines {
  const slices = new Map<number, { readonly due: Set<Waiter>; readonly timer: ReturnType<typeof setTimeout> }>();
  return {
    add(waiter, timeoutMs) {
      const end = Math.ceil((Date.now() + timeoutMs) / DEADLINE_SLICE_MS) * DEADLINE_SLICE_MS;
      let slice = slices.get(end);
      if (!slice) {
        const due = new Set<Waiter>();
        const timer = setTimeout(() => {
          slices.delete(end);
          for (const late of due) late.done(false);
        }, Math.max(0, end - Date.now()));
        timer.unref?.();
        slice = { due, timer };
        slices.set(end, slice);
      }
      const { due, timer } = slice;
      due.add(waiter);
      return () => {
        due.delete(waiter);
        if (due.size > 0 || slices.get(end)?.due !== due) return;
        clearTimeout(timer);
        slices.delete(end);
      };
    },
  };
}
