import * as v from "valibot";
import { LineageError } from "../errors/lineage-error.ts";
import type { HistoryEntry } from "../element/history-entry.ts";
import { parseFieldsSelection } from "../element/fields-selection.ts";
import { RestoreBodySchema } from "./restore-body.schema.ts";
import { renderDocument } from "../element/element-view.ts";
import type { ElementRevision } from "../element/smart-element.ts";
import type { Clock } from "../ports/clock.port.ts";
import { applyValues, checkNeeded, computeTitle } from "./element-values.ts";
import { CONSULT_RULES, findLatest, locateDeleted, locateElement } from "./locate-element.ts";
import type { ReadScope } from "./read-scope.ts";

type HistoryLine = Pick<HistoryEntry, "level" | "code" | "comment">;

function historyEntry(scope: ReadScope, revision: ElementRevision, date: Date, line: HistoryLine): HistoryEntry {
  return {
    initid: revision.initid,
    revisionId: revision.id,
    revision: revision.revision,
    accountId: scope.principal.account.id,
    accountName: scope.principal.account.displayName,
    date: date.toISOString(),
    ...line,
  };
}

export interface CreateElementInput {
  readonly structure: string;
  readonly name?: string | null;
  readonly values: Readonly<Record<string, unknown>>;
  /** Owner account id; the acting principal by default. */
  readonly owner?: number;
  readonly importKey?: string | null;
}

/** Creates a Smart Element (revision 0) in the first state of its lifecycle. */
export function createElement(scope: ReadScope, clock: Clock, input: CreateElementInput): ElementRevision {
  const store = scope.store;
  return store.transaction(() => {
    const structure = scope.structure(input.structure);
    if (!structure) throw new LineageError("ROUTES0105", [input.structure]);
    if (input.name && store.elements.latestByName(input.name)) throw new LineageError("BUNDLE0001", [`logical name "${input.name}" is taken`]);
    const values = applyValues(structure, {}, input.values, store, scope, { writeReadOnly: true });
    checkNeeded(structure, values);
    const lifecycle = structure.lifecycle ? scope.lifecycle(structure.lifecycle) : undefined;
    const now = clock.now();
    const name = input.name ?? null;
    const created = store.elements.insert({
      revision: 0,
      structure: structure.name,
      name,
      title: computeTitle(structure, values, name),
      owner: input.owner ?? scope.principal.account.id,
      status: "alive",
      fixed: false,
      state: lifecycle?.firstState ?? null,
      values,
      createdAt: now.toISOString(),
      modifiedAt: now.toISOString(),
      importKey: input.importKey ?? null,
    });
    store.elements.appendHistory(historyEntry(scope, created, now, { level: "notice", code: "CREATE", comment: "Created" }));
    store.search.markChanged(created.initid, created.structure);
    return created;
  });
}

export interface UpdateElementInput {
  readonly values: Readonly<Record<string, unknown>>;
  readonly caseInsensitive?: boolean;
  readonly family?: string | undefined;
  readonly comment?: string;
  /** Bundle imports may write read-only fields. */
  readonly writeReadOnly?: boolean;
}

/** Changes the latest revision of an element in place (PUT). */
export function updateElement(scope: ReadScope, clock: Clock, ref: string, input: UpdateElementInput): ElementRevision {
  const store = scope.store;
  return store.transaction(() => {
    if (!findLatest(scope, ref) && scope.structure(ref)) throw new LineageError("CRUD0213", [ref]);
    const current = locateElement(scope, ref, CONSULT_RULES, input.family);
    if (!scope.permissions(current).has("edit")) {
      throw new LineageError("CRUD0201", [ref, "Access not granted"], { userMessage: "Update forbidden" });
    }
    const structure = scope.structure(current.structure);
    if (!structure) throw new LineageError("ROUTES0109", [ref, `structure "${current.structure}" is missing`]);
    const values = applyValues(structure, current.values, input.values, store, scope, {
      caseInsensitive: input.caseInsensitive === true,
      writeReadOnly: input.writeReadOnly === true,
      onArrayField: (field) => {
        const why = new LineageError("ROUTES0127", [field.id]).message;
        throw new LineageError("ROUTES0107", [ref, field.id, why], { userMessage: "Document update failed", data: { id: field.id, index: -1, err: why } });
      },
    });
    checkNeeded(structure, values);
    const now = clock.now();
    const updated: ElementRevision = {
      ...current,
      values,
      title: computeTitle(structure, values, current.name),
      modifiedAt: now.toISOString(),
    };
    store.elements.save(updated);
    store.search.markChanged(updated.initid, updated.structure);
    store.elements.appendHistory(historyEntry(scope, updated, now, { level: "notice", code: "MODIFY", comment: input.comment ?? "Updated by API" }));
    return updated;
  });
}

/** Moves a whole lineage to the trash (DELETE). */
export function deleteElement(scope: ReadScope, clock: Clock, ref: string, family?: string): ElementRevision {
  const store = scope.store;
  return store.transaction(() => {
    const current = locateElement(scope, ref, CONSULT_RULES, family);
    if (!scope.permissions(current).has("delete")) throw new LineageError("ROUTES0110", [ref, "Access not granted"]);
    const now = clock.now();
    store.elements.setLineageStatus(current.initid, "deleted", now.toISOString());
    store.search.markChanged(current.initid, current.structure);
    const deleted = store.elements.latest(current.initid) ?? { ...current, status: "deleted" as const };
    store.elements.appendHistory(historyEntry(scope, deleted, now, { level: "notice", code: "DELETE", comment: "Deleted by API" }));
    return deleted;
  });
}

/** True when a body is exactly the restoration request `{"document":{"properties":{"status":"alive"}}}`. */
function isRestoreRequest(body: unknown): boolean {
  return v.is(RestoreBodySchema, body);
}

/** Brings a lineage back from the trash (PUT on the trash resource). */
export function restoreElement(scope: ReadScope, clock: Clock, ref: string, body: unknown): ElementRevision {
  const store = scope.store;
  return store.transaction(() => {
    if (!isRestoreRequest(body)) throw new LineageError("CRUD0236");
    const existing = findLatest(scope, ref);
    if (existing && existing.status !== "deleted") throw new LineageError("CRUD0237", [ref]);
    const current = locateDeleted(scope, ref, "delete");
    const now = clock.now();
    store.elements.setLineageStatus(current.initid, "alive", now.toISOString());
    store.search.markChanged(current.initid, current.structure);
    const restored = store.elements.latest(current.initid) ?? { ...current, status: "alive" as const };
    store.elements.appendHistory(historyEntry(scope, restored, now, { level: "notice", code: "RESTORE", comment: "Restored from the trash" }));
    return restored;
  });
}

export interface ReviseInput {
  /** The state of the new revision; the current one by default. */
  readonly state?: string | null;
  readonly comment?: string;
}

/**
 * Starts a new revision of a lineage: the current one becomes fixed, a copy
 * becomes the latest with the revision number plus one. Runs in the caller's
 * transaction when there is one.
 */
export function reviseElement(scope: ReadScope, clock: Clock, current: ElementRevision, input: ReviseInput = {}): ElementRevision {
  const store = scope.store;
  return store.transaction(() => {
    const latest = store.elements.latest(current.initid);
    if (!latest || latest.id !== current.id) {
      throw new LineageError("ROUTES0109", [current.initid, "the element changed meanwhile, try again"]);
    }
    const now = clock.now();
    store.elements.save({ ...latest, fixed: true });
    const { id: _previousId, ...copy } = latest;
    const next = store.elements.insert({
      ...copy,
      revision: latest.revision + 1,
      fixed: false,
      state: input.state === undefined ? latest.state : input.state,
      modifiedAt: now.toISOString(),
      importKey: null,
    });
    store.elements.appendHistory(historyEntry(scope, next, now, { level: "notice", code: "REVISION", comment: input.comment ?? "New revision" }));
    store.search.markChanged(next.initid, next.structure);
    return next;
  });
}

/** The answer of PUT, DELETE and restore: the element as GET shows it by default. */
export function writeResult(scope: ReadScope, revision: ElementRevision, startedAt: number, fields?: string) {
  return {
    document: renderDocument(revision, parseFieldsSelection(fields, "one"), scope, "one"),
    duration: ((performance.now() - startedAt) / 1000).toFixed(4),
  };
}
