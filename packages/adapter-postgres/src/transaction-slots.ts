/** Runs a store's transactions side by side, at most `limit` at once, the others in the order they came. */
export interface TransactionSlots {
  run<T>(task: () => Promise<T>): Promise<T>;
  /** Settles once every task started or waiting has settled. */
  idle(): Promise<void>;
}

/**
 * Slots for transactions: each holds a connection of the pool from its BEGIN to its end, so fewer
 * of them than the pool's connections leaves some to the reads (a transaction may wait for a read
 * of the pool's, which must not wait for a connection only transactions hold).
 */
export function createTransactionSlots(limit: number): TransactionSlots {
  let running = 0;
  const waiting: (() => void)[] = [];
  const pending = new Set<Promise<unknown>>();
  const acquire = (): Promise<void> => {
    if (running < limit) {
      running++;
      return Promise.resolve();
    }
    return new Promise((resolve) => waiting.push(resolve));
  };
  // A freed slot goes straight to the first waiting task, so that none starts past the limit meanwhile.
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running--;
  };
  return {
    run(task) {
      const result = acquire().then(async () => {
        try {
          return await task();
        } finally {
          release();
        }
      });
      const settled = result.then(() => undefined, () => undefined);
      pending.add(settled);
      void settled.then(() => pending.delete(settled));
      return result;
    },
    async idle() {
      while (pending.size > 0) await Promise.all(pending);
    },
  };
}
