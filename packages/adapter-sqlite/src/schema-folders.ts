import { index, integer, primaryKey, sqliteTable } from "drizzle-orm/sqlite-core";

/**
 * Folder memberships (core's FolderRepository): one row per folder and element, both by initid.
 * The primary key answers a folder's members in order, the index an element's folders.
 */
export const folderMembers = sqliteTable(
  "folder_members",
  {
    folderId: integer("folder_id").notNull(),
    elementId: integer("element_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.folderId, t.elementId] }), index("folder_members_element_idx").on(t.elementId, t.folderId)],
);
