import type { Database } from "better-sqlite3";
import type { FolderRepository } from "@lineage/core";

/** Folder memberships in SQLite (schema-folders.ts), over prepared statements. */
export function createFolderRepository(client: Database): FolderRepository {
  const add = client.prepare("insert into folder_members (folder_id, element_id) values (?, ?) on conflict do nothing");
  const remove = client.prepare("delete from folder_members where folder_id = ? and element_id = ?");
  const holds = client.prepare("select 1 from folder_members where folder_id = ? and element_id = ?").pluck();
  const members = client.prepare("select element_id from folder_members where folder_id = ? order by element_id").pluck();
  const foldersOf = client.prepare("select folder_id from folder_members where element_id = ? order by folder_id").pluck();
  return {
    async add(folder, element) {
      return add.run(folder, element).changes > 0;
    },
    async remove(folder, element) {
      return remove.run(folder, element).changes > 0;
    },
    async holds(folder, element) {
      return holds.get(folder, element) !== undefined;
    },
    async members(folder) {
      return members.all(folder) as number[];
    },
    async foldersOf(element) {
      return foldersOf.all(element) as number[];
    },
  };
}
