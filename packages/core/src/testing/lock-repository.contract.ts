import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ElementLock } from "../elements/element-lock.ts";
import type { Store } from "../ports/store.port.ts";

const lock = (initid: number, accountId: number, temporary = false): ElementLock => ({
  initid, accountId, temporary, lockedAt: "2026-03-04T05:06:07.000Z",
});

/**
 * The LockRepository of a Store (who holds a lock on which lineage), as one vitest suite; `open`
 * must give a new store, and is called once per test.
 *
 * @example
 * lockRepositoryContract("memory", () => createMemoryStore());
 */
export function lockRepositoryContract(name: string, open: () => Store | Promise<Store>): void {
  describe(`LockRepository contract: ${name}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await open();
    });
    afterEach(() => store.close());

    it("keeps one lock per lineage, which a later one replaces", async () => {
      expect(await store.locks.byElement(10)).toBeUndefined();
      await store.transaction((tx) => tx.locks.save(lock(10, 3, true)));
      expect(await store.locks.byElement(10)).toEqual(lock(10, 3, true));
      await store.transaction((tx) => tx.locks.save(lock(10, 3)));
      expect(await store.locks.byElement(10)).toEqual(lock(10, 3));
      await store.locks.save(lock(11, 4, true));
      const many = await store.locks.byElements([11, 10, 12, 10]);
      expect(many.sort((a, b) => a.initid - b.initid)).toEqual([lock(10, 3), lock(11, 4, true)]);
      expect(await store.locks.byElements([])).toEqual([]);
    });

    it("removes a lock and says whether there was one", async () => {
      await store.locks.save(lock(10, 3));
      expect(await store.transaction((tx) => tx.locks.remove(10))).toBe(true);
      expect(await store.locks.remove(10)).toBe(false);
      expect(await store.locks.byElement(10)).toBeUndefined();
    });

    it("forgets a lock taken in a transaction that fails", async () => {
      await expect(store.transaction(async (tx) => {
        await tx.locks.save(lock(10, 3));
        expect(await tx.locks.byElement(10)).toEqual(lock(10, 3));
        throw new Error("rolled back");
      })).rejects.toThrow("rolled back");
      expect(await store.locks.byElement(10)).toBeUndefined();
    });
  });
}
