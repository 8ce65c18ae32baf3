/** Runs tasks one at a time, in the order they were queued: a store's transactions on its one write connection. */
export interface SerialQueue {
  /** Runs `task` once every task queued before it has settled. */
  run<T>(task: () => Promise<T>): Promise<T>;
}

/** An empty queue. */
export function createSerialQueue(): SerialQueue {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    run(task) {
      const result = tail.then(task);
      // The next task waits for this one to settle, failed or not.
      tail = result.catch(() => undefined);
      return result;
    },
  };
}
