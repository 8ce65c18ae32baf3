/**
 * Which elements each folder holds (queries-and-events.md, section 2): lineages chosen by hand, by
 * initid, as the original keeps them (its fld table). A membership outlives the trash: a folder or
 * an element deleted keeps its rows, so that restoring it brings them back; lists show alive
 * elements only. Writes belong in a transaction (`Store.transaction`), with the history entry they
 * record.
 */
export interface FolderRepository {
  /** Puts an element in a folder; false when it was there already (nothing is written then). */
  add(folder: number, element: number): Promise<boolean>;
  /** Takes an element out of a folder; false when it was not there. */
  remove(folder: number, element: number): Promise<boolean>;
  /** True when the folder holds the element. */
  holds(folder: number, element: number): Promise<boolean>;
  /** The elements a folder holds, ascending. */
  members(folder: number): Promise<number[]>;
  /** The folders that hold an element, ascending. */
  foldersOf(element: number): Promise<number[]>;
}
