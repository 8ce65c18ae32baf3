/** A stored field value: scalar, or an array for multiple fields and array columns. */
export type FieldValue = string | number | null | readonly FieldValue[];

/** Values of an element by field id. Array columns hold one entry per row. */
export type ElementValues = Readonly<Record<string, FieldValue>>;

export type LineageStatus = "alive" | "deleted";

/**
 * One revision of a Smart Element. Every revision has its own `id`; the first
 * revision's id is the lineage's `initid`. Old revisions are `fixed`.
 */
export interface ElementRevision {
  readonly id: number;
  readonly initid: number;
  readonly revision: number;
  readonly structure: string;
  readonly name: string | null;
  readonly title: string;
  readonly owner: number;
  readonly status: LineageStatus;
  readonly fixed: boolean;
  readonly state: string | null;
  readonly values: ElementValues;
  /** ISO 8601 date-times. */
  readonly createdAt: string;
  readonly modifiedAt: string;
  /** Identifies the bundle entry an element came from, so a re-import finds it. */
  readonly importKey: string | null;
  /** The element's own profile (a bundle element's `profile`), kept by every revision; null: none. */
  readonly ownProfile: string | null;
  /**
   * The profile whose grants decide who may do what with this revision instead of its structure's:
   * its own profile, else the profile of the state it was written in (element-profile.ts); null:
   * its structure's. Set at every write, so that the store filters lists by it.
   */
  readonly profile: string | null;
}

/** What a repository needs to insert a revision; the id is given by the store. */
export type NewRevision = Omit<ElementRevision, "id" | "initid"> & { readonly initid?: number };

/** The status property as served: deleted, fixed (an old revision) or alive. */
export function statusProperty(revision: ElementRevision): "alive" | "deleted" | "fixed" {
  if (revision.status === "deleted") return "deleted";
  return revision.fixed ? "fixed" : "alive";
}
