import type { FolderRepository } from "@lineage/core";
import { statement, type SqlClient } from "./sql-client.ts";

const ADD = statement("insert into folder_members (folder_id, element_id) values ($1, $2) on conflict do nothing");
const REMOVE = statement("delete from folder_members where folder_id = $1 and element_id = $2");
const HOLDS = statement("select 1 from folder_members where folder_id = $1 and element_id = $2");
const MEMBERS = statement("select element_id from folder_members where folder_id = $1 order by element_id");
const FOLDERS_OF = statement("select folder_id from folder_members where element_id = $1 order by folder_id");

/** Folder memberships in PostgreSQL (schema.ts): two nodes adding the same element at once write one row. */
export function createFolderRepository(sql: SqlClient): FolderRepository {
  return {
    async add(folder, element) {
      return (await sql.run(ADD, [folder, element])) > 0;
    },
    async remove(folder, element) {
      return (await sql.run(REMOVE, [folder, element])) > 0;
    },
    async holds(folder, element) {
      return (await sql.rows(HOLDS, [folder, element])).length > 0;
    },
    async members(folder) {
      return (await sql.rows(MEMBERS, [folder])).map((row) => row[0] as number);
    },
    async foldersOf(element) {
      return (await sql.rows(FOLDERS_OF, [element])).map((row) => row[0] as number);
    },
  };
}
