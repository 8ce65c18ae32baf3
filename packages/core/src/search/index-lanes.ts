/**
 * Work on an index, one task at a time per index name. A task that reads the
 * store between its changes to an index (applying the change log, swapping in
 * a rebuilt index) must not interleave with another one on the same index:
 * the later reader could write its newer documents first and the earlier one
 * then put back older ones, or move the index's sequence number backwards.
 */
export interface IndexLanes {
  /** Runs `task` once every task queued before it on `name` has settled. */
  run<T>(name: string, task: () => Promise<T>): Promise<T>;
  /** Settles once every task queued so far, on any name, has settled. */
  idle(): Promise<void>;
}

export function createIndexLanes(): IndexLanes {
  const tails = new Map<string, Promise<void>>();
  return {
    run(name, task) {
      const result = (tails.get(name) ?? Promise.resolve()).then(task);
      // The next task waits for this one to settle, failed or not; its caller sees the failure.
      const tail = result.then(() => undefined, () => undefined);
      tails.set(name, tail);
      void tail.then(() => {
        if (tails.get(name) === tail) tails.delete(name);
      });
      return result;
    },
    async idle() {
      await Promise.all(tails.values());
    },
  };
}
