import type { IndexedFile, IndexedFileStatus } from "../ports/search-index.port.ts";

/** How many indexed files are in each status (D, K, W), over the file lists of a domain's documents. */
export function fileStatusCounts(lists: Iterable<readonly IndexedFile[] | undefined>): Record<IndexedFileStatus, number> {
  const counts: Record<IndexedFileStatus, number> = { D: 0, K: 0, W: 0 };
  for (const list of lists) for (const file of list ?? []) counts[file.status]++;
  return counts;
}
