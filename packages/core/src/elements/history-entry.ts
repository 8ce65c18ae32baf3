export const HISTORY_LEVELS = ["message", "info", "notice", "warning", "error"] as const;
export type HistoryLevel = (typeof HISTORY_LEVELS)[number];

/** One line of an element's history. */
export interface HistoryEntry {
  readonly initid: number;
  /** The revision id the entry was written on. */
  readonly revisionId: number;
  readonly revision: number;
  readonly accountId: number;
  readonly accountName: string;
  /** ISO 8601 date-time with milliseconds. */
  readonly date: string;
  readonly level: HistoryLevel;
  /** What the line records; a folder's content changing: MODCONTAIN on the folder, MOVEADD and MOVEUNLINK on the element (the original's codes). */
  readonly code: "CREATE" | "MODIFY" | "DELETE" | "RESTORE" | "REVISION" | "STATE" | "MODCONTAIN" | "MOVEADD" | "MOVEUNLINK" | null;
  readonly comment: string;
}
