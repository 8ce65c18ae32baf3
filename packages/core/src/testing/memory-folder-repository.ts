import type { FolderRepository } from "../ports/folder-repository.port.ts";
import type { Table } from "./memory-tables.ts";

type Membership = { readonly folder: number; readonly element: number };

/** The memory store's folder memberships, one row per folder and element. */
export function createMemoryFolderRepository(members: Table<string, Membership>): FolderRepository {
  const key = (folder: number, element: number) => `${folder}:${element}`;
  const ascending = (a: number, b: number) => a - b;
  return {
    async add(folder, element) {
      if (members.has(key(folder, element))) return false;
      members.set(key(folder, element), Object.freeze({ folder, element }));
      return true;
    },
    async remove(folder, element) {
      return members.delete(key(folder, element));
    },
    async holds(folder, element) {
      return members.has(key(folder, element));
    },
    async members(folder) {
      return [...members.values()].filter((row) => row.folder === folder).map((row) => row.element).sort(ascending);
    },
    async foldersOf(element) {
      return [...members.values()].filter((row) => row.element === element).map((row) => row.folder).sort(ascending);
    },
  };
}
