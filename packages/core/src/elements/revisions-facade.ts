import type { Principal } from "../accounts/principal.ts";
import type { PlatformContext } from "../scope/platform-context.ts";
import {
  listRevisions, readHistory, readRevision,
  type ElementHistory, type HistoryOptions, type ListOptions, type RevisionList, type RevisionOptions, type RevisionReading,
} from "./read-elements.ts";
import type { ElementRevision } from "./smart-element.ts";
import { reviseElement, type ReviseInput } from "./write-elements.ts";

/** A lineage's revisions and history. */
export interface RevisionsFacade {
  /** GET .../revisions/: every revision of a lineage, newest first, with the list's ETag. */
  list(principal: Principal, ref: string, options?: RevisionOptions & ListOptions): Promise<RevisionList>;
  /** GET .../revisions/<n>: one revision, with its ETag. */
  read(principal: Principal, ref: string, revision: string, options?: RevisionOptions & { fields?: string | undefined }): Promise<RevisionReading>;
  /** GET .../history/: the lineage's history grouped by revision, newest first. */
  history(principal: Principal, ref: string, options?: HistoryOptions): Promise<ElementHistory>;
  /** Starts a new revision of a lineage (the current one becomes fixed), in a transaction of its own. */
  revise(principal: Principal, current: ElementRevision, input?: ReviseInput): Promise<ElementRevision>;
}

/** The revisions façade over a platform's context. */
export function createRevisionsFacade(context: PlatformContext): RevisionsFacade {
  const { clock, maxSlice } = context;
  return {
    list: async (principal, ref, options) => listRevisions(await context.scope(principal, options?.stamp), ref, { maxSlice, ...options }),
    read: async (principal, ref, revision, options) => readRevision(await context.scope(principal, options?.stamp), ref, revision, options),
    history: async (principal, ref, options) => readHistory(await context.scope(principal, options?.stamp), ref, options),
    revise: async (principal, current, input) => (await context.scope(principal)).transaction((tx) => reviseElement(tx, clock, current, input)),
  };
}
