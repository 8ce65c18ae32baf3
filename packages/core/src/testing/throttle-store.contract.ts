import { describe, expect, it } from "vitest";
import type { ThrottleStore } from "../ports/throttle-store.port.ts";

const WINDOW = 60_000;

/**
 * The ThrottleStore contract: the in-memory store and every shared one run it.
 * `open` gives a fresh, empty store; keys are made unique per test, so a shared
 * store may keep what earlier tests counted.
 */
export function throttleStoreContract(name: string, open: () => Promise<ThrottleStore>): void {
  describe(`ThrottleStore contract: ${name}`, () => {
    let serial = 0;
    const key = (label: string) => `contract:${label}:${Date.now()}:${serial++}`;
    const failures = (records: ReadonlyArray<{ failures: number } | undefined>, count: number) =>
      Array.from({ length: count }, (_, i) => records[i]?.failures ?? 0);

    it("counts failures per key, with the time of the last one", async () => {
      const store = await open();
      const [a, b] = [key("a"), key("b")];
      expect(failures(await store.read([a, b], 1000, WINDOW), 2)).toEqual([0, 0]);
      expect(await store.fail([a, b], 1000, WINDOW)).toEqual([{ failures: 1, lastFailureAt: 1000 }, { failures: 1, lastFailureAt: 1000 }]);
      expect(await store.fail([a], 2000, WINDOW)).toEqual([{ failures: 2, lastFailureAt: 2000 }]);
      const records = await store.read([a, b], 2500, WINDOW);
      expect([records[0], records[1]]).toEqual([{ failures: 2, lastFailureAt: 2000 }, { failures: 1, lastFailureAt: 1000 }]);
      if (store.peek) expect(failures(store.peek([a, b], 2500, WINDOW), 2)).toEqual([2, 1]);
    });

    it("forgets a key's failures a window after its last one, and on demand", async () => {
      const store = await open();
      const [a, b] = [key("a"), key("b")];
      await store.fail([a, b], 1000, WINDOW);
      await store.fail([a], 1000 + WINDOW, WINDOW);
      expect(failures(await store.read([a, b], 1000 + WINDOW + 1, WINDOW), 2)).toEqual([2, 0]);
      // Out of the window, counting starts again at one.
      expect(await store.fail([b], 1000 + WINDOW + 1, WINDOW)).toEqual([{ failures: 1, lastFailureAt: 1000 + WINDOW + 1 }]);
      await store.forget([a]);
      expect(failures(await store.read([a, b], 1000 + WINDOW + 2, WINDOW), 2)).toEqual([0, 1]);
    });

    it("loses no failure counted at the same time", async () => {
      const store = await open();
      const a = key("a");
      const counted = await Promise.all(Array.from({ length: 20 }, () => store.fail([a], 5000, WINDOW)));
      expect(counted.map(([record]) => record?.failures).sort((x = 0, y = 0) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      expect(failures(await store.read([a], 5000, WINDOW), 1)).toEqual([20]);
    });
  });
}
