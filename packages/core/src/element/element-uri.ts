import type { ElementRevision } from "./smart-element.ts";

/** The canonical URI of an element: its trash URI when deleted, its revision URI when fixed. */
export function elementUri(revision: ElementRevision): string {
  if (revision.status === "deleted") return trashUri(revision.initid);
  if (revision.fixed) return revisionUri(revision.initid, revision.revision);
  return `/api/v2/smart-elements/${revision.initid}.json`;
}

export function trashUri(initid: number): string {
  return `/api/v2/trash/${initid}.json`;
}

export function revisionUri(initid: number, revision: number): string {
  return `/api/v2/smart-elements/${initid}/revisions/${revision}.json`;
}
