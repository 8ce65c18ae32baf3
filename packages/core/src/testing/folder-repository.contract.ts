import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Store } from "../ports/store.port.ts";

/**
 * The FolderRepository of a Store (folder memberships), as one vitest suite; `open` must give a
 * new store, and is called once per test.
 *
 * @example
 * folderRepositoryContract("memory", () => createMemoryStore());
 */
export function folderRepositoryContract(name: string, open: () => Store | Promise<Store>): void {
  describe(`FolderRepository contract: ${name}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await open();
    });
    afterEach(() => store.close());

    it("adds an element once: again changes nothing and says so", async () => {
      expect(await store.folders.add(10, 3)).toBe(true);
      expect(await store.folders.add(10, 3)).toBe(false);
      expect(await store.folders.members(10)).toEqual([3]);
      expect(await store.folders.holds(10, 3)).toBe(true);
      expect(await store.folders.holds(10, 4)).toBe(false);
    });

    it("gives a folder's members and an element's folders, ascending, each folder apart", async () => {
      for (const [folder, element] of [[10, 7], [10, 3], [11, 3], [10, 12], [12, 7], [11, 5]] as const) await store.folders.add(folder, element);
      expect(await store.folders.members(10)).toEqual([3, 7, 12]);
      expect(await store.folders.members(11)).toEqual([3, 5]);
      expect(await store.folders.members(13)).toEqual([]);
      expect(await store.folders.foldersOf(3)).toEqual([10, 11]);
      expect(await store.folders.foldersOf(7)).toEqual([10, 12]);
      expect(await store.folders.foldersOf(99)).toEqual([]);
      // A folder is an element too: it may be held by another folder, or by itself.
      await store.folders.add(10, 11);
      await store.folders.add(10, 10);
      expect(await store.folders.members(10)).toEqual([3, 7, 10, 11, 12]);
      expect(await store.folders.foldersOf(10)).toEqual([10]);
    });

    it("removes an element from one folder only, and says when it was not there", async () => {
      await store.folders.add(10, 3);
      await store.folders.add(11, 3);
      expect(await store.folders.remove(10, 3)).toBe(true);
      expect(await store.folders.remove(10, 3)).toBe(false);
      expect(await store.folders.remove(12, 3)).toBe(false);
      expect(await store.folders.members(10)).toEqual([]);
      expect(await store.folders.foldersOf(3)).toEqual([11]);
      expect(await store.folders.holds(10, 3)).toBe(false);
      // Added again after its removal.
      expect(await store.folders.add(10, 3)).toBe(true);
    });

    it("writes in a transaction: seen inside at once, by others once committed, and nothing of a rolled back one", async () => {
      await store.transaction(async (tx) => {
        expect(await tx.folders.add(10, 3)).toBe(true);
        expect(await tx.folders.members(10)).toEqual([3]);
        expect(await tx.folders.add(10, 3)).toBe(false);
      });
      expect(await store.folders.members(10)).toEqual([3]);
      await expect(store.transaction(async (tx) => {
        await tx.folders.add(10, 4);
        await tx.folders.remove(10, 3);
        throw new Error("rolled back");
      })).rejects.toThrow("rolled back");
      expect(await store.folders.members(10)).toEqual([3]);
      expect(await store.folders.foldersOf(4)).toEqual([]);
    });

    it("holds many members", async () => {
      await store.transaction(async (tx) => {
        for (let element = 1; element <= 1500; element++) await tx.folders.add(20, element * 2);
      });
      const members = await store.folders.members(20);
      expect(members).toHaveLength(1500);
      expect(members.slice(0, 3)).toEqual([2, 4, 6]);
      expect(members.at(-1)).toBe(3000);
    });
  });
}
