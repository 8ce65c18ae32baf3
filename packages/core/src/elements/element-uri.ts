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

/**
 * The files route of a value of field `fieldId` at `index` (-1 outside arrays and lists): the latest
 * revision's under the element, a fixed revision's under its revision, shown inline, as the original
 * links file values. Double quotes in the name become `-`, as there.
 */
export function fileUri(holder: Pick<ElementRevision, "initid" | "revision" | "fixed">, fieldId: string, index: number, name: string): string {
  const base = holder.fixed ? `/api/v2/smart-elements/${holder.initid}/revisions/${holder.revision}` : `/api/v2/smart-elements/${holder.initid}`;
  return `${base}/files/${encodeURIComponent(fieldId)}/${index}/${encodeURIComponent(name.replace(/"/g, "-"))}?inline=true`;
}
