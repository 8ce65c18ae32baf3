import * as v from "valibot";
import { LineageError } from "../errors/lineage-error.ts";
import type { HistoryEntry } from "./history-entry.ts";
import { parseFieldsSelection } from "./fields-selection.ts";
import { RestoreBodySchema } from "./restore-body.schema.ts";
import { renderDocument } from "./element-view.ts";
import { elementUri } from "./element-uri.ts";
import type { Clock } from "../ports/clock.port.ts";
import type { Deadline } from "../ports/store.port.ts";
import type { Stamped } from "../scope/definitions.ts";
import { applyValues, checkNeeded, withDefaults, type ApplyOptions } from "./element-values.ts";
import { changedElementTitle, composeTitle, newElementTitle } from "./element-title.ts";
import { apiHistoryComment } from "./api-history.ts";
import type { ElementRevision, ElementValues } from "./smart-element.ts";
import type { ResolvedField } from "../structures/smart-field.ts";
import type { SmartStructure } from "../structures/smart-structure.ts";
import { checkIfMatch } from "./if-match.ts";
import { revisionProfile, withRevisionProfile } from "../access/element-profile.ts";
import { CONSULT_RULES, locateDeleted, locateElement } from "./locate-element.ts";
import { refuseIfLockedByOther } from "./lock-check.ts";
import type { RequestScope } from "../scope/request-scope.ts";
import type { EventTransition } from "../events/element-event.ts";
import { recordEvent } from "../events/record-event.ts";

type HistoryLine = Pick<HistoryEntry, "level" | "code" | "comment">;

/** A history entry of a revision, written by the scope's principal at `date`. */
export function historyEntry(scope: RequestScope, revision: ElementRevision, date: Date, line: HistoryLine): HistoryEntry {
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

/** What a write use case may be told about its request. */
export interface WriteOptions extends Stamped {
  /** The request's time limit: the write is not committed once it has expired. */
  readonly deadline?: Deadline | undefined;
  /** The request's If-Match header: the write is refused (412 CRUD0238) unless it names the element's current ETag. */
  readonly ifMatch?: string | undefined;
}

/**
 * The modification date of a write: now, but always after the element's last one, so that every
 * write changes its ETag (made of that date) even within one millisecond or when the clock steps back.
 */
function modificationDate(clock: Clock, previous: ElementRevision): Date {
  const now = clock.now();
  const last = Date.parse(previous.modifiedAt);
  return now.getTime() > last ? now : new Date(last + 1);
}

export interface CreateElementInput extends WriteOptions {
  readonly structure: string;
  readonly name?: string | null;
  readonly values: Readonly<Record<string, unknown>>;
  /** Owner account id; the acting principal by default. */
  readonly owner?: number;
  readonly importKey?: string | null;
  /** The element's own profile (a bundle element's `profile`); none by default. */
  readonly ownProfile?: string | null;
  /** True: no event is appended, the caller appends its own (a bundle import, once every value of the element is set). */
  readonly withoutEvent?: boolean;
}

/** Creates a Smart Element (revision 0) in the first state of its lifecycle, in one transaction. */
export function createElement(scope: RequestScope, clock: Clock, input: CreateElementInput): Promise<ElementRevision> {
  return scope.transaction((tx) => insertElement(tx, clock, input), { deadline: input.deadline });
}

/** Creates a Smart Element inside the caller's transaction (`tx` reads through it). */
export async function insertElement(tx: RequestScope, clock: Clock, input: CreateElementInput): Promise<ElementRevision> {
  const structure = tx.structure(input.structure);
  if (!structure) throw new LineageError("ROUTES0105", [input.structure]);
  if (input.name && (await tx.repos.elements.latestByName(input.name))) throw new LineageError("BUNDLE0001", [`logical name "${input.name}" is taken`]);
  const values = withDefaults(structure, await applyValues(structure, {}, input.values, tx, { writeReadOnly: true }), tx);
  checkNeeded(structure, values);
  const identity = {
    name: input.name ?? null, owner: input.owner ?? tx.principal.account.id, importKey: input.importKey ?? null, ownProfile: input.ownProfile ?? null,
  };
  return storeNewElement(tx, clock, structure, values, identity, { level: "notice", code: "CREATE", comment: "Created" }, input.withoutEvent !== true);
}

export interface ApiCreateInput extends Stamped {
  readonly values: Readonly<Record<string, unknown>>;
  /** Form variables name fields case-insensitively. */
  readonly caseInsensitive?: boolean;
  readonly deadline?: Deadline | undefined;
}

/**
 * Creates an element of `family` for POST on a structure's collection, in one transaction: 404
 * CRUD0200 for an unknown structure, 403 API0204 without the profile's `create` grant, the
 * values refused as a PUT refuses them. Owned by the caller, history "Created by API".
 */
export function createElementByApi(scope: RequestScope, clock: Clock, family: string, input: ApiCreateInput): Promise<ElementRevision> {
  return scope.transaction(async (tx) => {
    const structure = tx.structure(family);
    if (!structure) throw new LineageError("CRUD0200", [family], { reason: "Family not found" });
    if (!tx.mayCreate(structure.name)) throw new LineageError("API0204", [family]);
    const values = withDefaults(structure, await applyValues(structure, {}, input.values, tx, { caseInsensitive: input.caseInsensitive === true, ...apiRefusals(family) }), tx);
    checkNeeded(structure, values);
    const identity = { name: null, owner: tx.principal.account.id, importKey: null, ownProfile: null };
    return storeNewElement(tx, clock, structure, values, identity, { level: "info", code: "CREATE", comment: apiHistoryComment("created", tx.locale) });
  }, { deadline: input.deadline });
}

/** Revision 0 of a new lineage with these values, in the first state of its lifecycle, with its history line. */
async function storeNewElement(
  tx: RequestScope,
  clock: Clock,
  structure: SmartStructure,
  values: ElementValues,
  identity: Pick<ElementRevision, "name" | "owner" | "importKey" | "ownProfile">,
  line: HistoryLine,
  withEvent = true,
): Promise<ElementRevision> {
  const repos = tx.repos;
  const lifecycle = structure.lifecycle ? tx.lifecycle(structure.lifecycle) : undefined;
  const now = clock.now();
  const title = composeTitle(structure, values);
  const state = lifecycle?.firstState ?? null;
  const inserted = await repos.elements.insert({
    revision: 0,
    structure: structure.name,
    name: identity.name,
    title,
    owner: identity.owner,
    status: "alive",
    fixed: false,
    state,
    values,
    createdAt: now.toISOString(),
    modifiedAt: now.toISOString(),
    importKey: identity.importKey,
    ownProfile: identity.ownProfile,
    // A new element takes its first state's profile, as an element entering a state does.
    profile: revisionProfile(tx.definitions, { structure: structure.name, state, ownProfile: identity.ownProfile }),
  });
  // The original's "untitled" title names the initid, which the store gives only on insert.
  const created = title === "" ? { ...inserted, title: newElementTitle(structure, values, inserted.initid, tx.locale) } : inserted;
  if (created !== inserted) await repos.elements.save(created);
  await repos.elements.appendHistory(historyEntry(tx, created, now, line));
  if (withEvent) await recordEvent(tx, "element.created", created, { time: now });
  return created;
}

/** The spec's answer to a field an API write may not set: 500 ROUTES0107 naming it, with the original's data. */
function refuseField(document: string | number, field: ResolvedField, why: string): never {
  throw new LineageError("ROUTES0107", [document, field.id, why], { userMessage: "Document update failed", data: { id: field.id, index: -1, err: why } });
}

/**
 * What PUT and POST refuse before writing anything: an array field named itself, a read-only
 * field, a new number of rows for an array with columns the caller may not write.
 */
function apiRefusals(document: string | number): Pick<ApplyOptions, "onArrayField" | "onReadOnly" | "onArrayRows"> {
  return {
    onArrayField: (field) => refuseField(document, field, new LineageError("ROUTES0127", [field.id]).message),
    onReadOnly: (field) => refuseField(document, field, `Smart field "${field.id}" is read-only`),
    onArrayRows: (array) => refuseField(
      document, array, `array "${array.id}" has columns you may not change: its rows can only be changed by someone who may write them all`,
    ),
  };
}

export interface UpdateElementInput extends WriteOptions {
  readonly values: Readonly<Record<string, unknown>>;
  readonly caseInsensitive?: boolean;
  readonly family?: string | undefined;
  readonly comment?: string;
  /** Bundle imports may write read-only fields. */
  readonly writeReadOnly?: boolean;
  /** Bundle imports set the element's own profile (null: none); unchanged when absent. */
  readonly ownProfile?: string | null;
  /** True: no event is appended, the caller appends its own (a bundle import, once every value of the element is set). */
  readonly withoutEvent?: boolean;
}

/** Changes the latest revision of an element in place (PUT), in one transaction. */
export function updateElement(scope: RequestScope, clock: Clock, ref: string, input: UpdateElementInput): Promise<ElementRevision> {
  return scope.transaction((tx) => changeElement(tx, clock, ref, input), { deadline: input.deadline });
}

/** Changes the latest revision of an element in place, inside the caller's transaction. */
export async function changeElement(tx: RequestScope, clock: Clock, ref: string, input: UpdateElementInput): Promise<ElementRevision> {
  const repos = tx.repos;
  if (!(await tx.find(ref)) && tx.structure(ref)) throw new LineageError("CRUD0213", [ref]);
  const current = await locateElement(tx, ref, CONSULT_RULES, input.family);
  if (!tx.permissions(current).has("edit")) {
    throw new LineageError("CRUD0201", [ref, "Access not granted"], { userMessage: "Update forbidden" });
  }
  await refuseIfLockedByOther(tx, current, (reason) => new LineageError("CRUD0201", [ref, reason], { userMessage: "Update forbidden" }));
  await checkIfMatch(tx, current, input.ifMatch, ref);
  const structure = tx.structure(current.structure);
  if (!structure) throw new LineageError("ROUTES0109", [ref, `structure "${current.structure}" is missing`]);
  const values = await applyValues(structure, current.values, input.values, tx, {
    caseInsensitive: input.caseInsensitive === true,
    writeReadOnly: input.writeReadOnly === true,
    ...apiRefusals(ref),
  });
  checkNeeded(structure, values);
  const now = modificationDate(clock, current);
  const updated: ElementRevision = withRevisionProfile(tx.definitions, {
    ...current,
    values,
    title: changedElementTitle(structure, values, current.title),
    modifiedAt: now.toISOString(),
    ownProfile: input.ownProfile === undefined ? current.ownProfile : input.ownProfile,
  });
  await repos.elements.save(updated);
  await repos.elements.appendHistory(historyEntry(tx, updated, now, { level: "notice", code: "MODIFY", comment: input.comment ?? apiHistoryComment("updated", tx.locale) }));
  if (input.withoutEvent !== true) await recordEvent(tx, "element.updated", updated, { time: now, before: current.values });
  return updated;
}

/** Moves a whole lineage to the trash (DELETE). */
export function deleteElement(scope: RequestScope, clock: Clock, ref: string, family?: string, options: WriteOptions = {}): Promise<ElementRevision> {
  return scope.transaction(async (tx) => {
    const repos = tx.repos;
    const current = await locateElement(tx, ref, CONSULT_RULES, family);
    if (!tx.permissions(current).has("delete")) throw new LineageError("ROUTES0110", [ref, "Access not granted"]);
    await refuseIfLockedByOther(tx, current, (reason) => new LineageError("ROUTES0111", [current.title, `locked: ${reason}`]));
    await checkIfMatch(tx, current, options.ifMatch, ref);
    const now = modificationDate(clock, current);
    await repos.elements.setLineageStatus(current.initid, "deleted", now.toISOString());
    const deleted = (await repos.elements.latest(current.initid)) ?? { ...current, status: "deleted" as const };
    await repos.elements.appendHistory(historyEntry(tx, deleted, now, { level: "notice", code: "DELETE", comment: apiHistoryComment("deleted", tx.locale) }));
    await recordEvent(tx, "element.deleted", deleted, { time: now });
    return deleted;
  }, options);
}

/** True when a body is exactly the restoration request `{"document":{"properties":{"status":"alive"}}}`. */
function isRestoreRequest(body: unknown): boolean {
  return v.is(RestoreBodySchema, body);
}

/** Brings a lineage back from the trash (PUT on the trash resource). */
export function restoreElement(scope: RequestScope, clock: Clock, ref: string, body: unknown, options: WriteOptions = {}): Promise<ElementRevision> {
  if (!isRestoreRequest(body)) return Promise.reject(new LineageError("CRUD0236"));
  return scope.transaction(async (tx) => {
    const repos = tx.repos;
    const existing = await tx.find(ref);
    if (existing && existing.status !== "deleted") throw new LineageError("CRUD0237", [ref]);
    const current = await locateDeleted(tx, ref, "delete");
    await checkIfMatch(tx, current, options.ifMatch, ref);
    const now = modificationDate(clock, current);
    await repos.elements.setLineageStatus(current.initid, "alive", now.toISOString());
    const restored = (await repos.elements.latest(current.initid)) ?? { ...current, status: "alive" as const };
    await repos.elements.appendHistory(historyEntry(tx, restored, now, { level: "notice", code: "RESTORE", comment: "Restored from the trash" }));
    await recordEvent(tx, "element.restored", restored, { time: now });
    return restored;
  }, options);
}

export interface ReviseInput {
  /** The state of the new revision; the current one by default. */
  readonly state?: string | null;
  readonly comment?: string;
  /** The transition that makes this revision (lifecycles): its event is then `element.state` rather than `element.revised`. */
  readonly transition?: EventTransition;
}

/**
 * Starts a new revision of a lineage inside the caller's transaction: the
 * current one becomes fixed, a copy becomes the latest with the revision number plus one.
 */
export async function reviseElement(tx: RequestScope, clock: Clock, current: ElementRevision, input: ReviseInput = {}): Promise<ElementRevision> {
  const repos = tx.repos;
  const latest = await repos.elements.latest(current.initid);
  if (!latest || latest.id !== current.id) {
    throw new LineageError("ROUTES0109", [current.initid, "the element changed meanwhile, try again"]);
  }
  const now = clock.now();
  await repos.elements.save({ ...latest, fixed: true });
  const { id: _previousId, ...copy } = latest;
  // The new revision takes the profile of the state it enters (revisionProfile).
  const next = await repos.elements.insert(withRevisionProfile(tx.definitions, {
    ...copy,
    revision: latest.revision + 1,
    fixed: false,
    state: input.state === undefined ? latest.state : input.state,
    modifiedAt: now.toISOString(),
    importKey: null,
  }));
  await repos.elements.appendHistory(historyEntry(tx, next, now, { level: "notice", code: "REVISION", comment: input.comment ?? "New revision" }));
  // Against the revision the caller checked: what a hook changed in place since shows too.
  const facts = { time: now, before: current.values, transition: input.transition };
  await recordEvent(tx, input.transition ? "element.state" : "element.revised", next, facts);
  return next;
}

/** The answer of PUT, DELETE and restore: the element as GET shows it by default. */
export async function writeResult(scope: RequestScope, revision: ElementRevision, startedAt: number, fields?: string) {
  const duration = ((performance.now() - startedAt) / 1000).toFixed(4);
  // A write may leave the element under a profile its author may not view (a state's profile):
  // the answer then names the element and shows nothing of it, its title included.
  if (!scope.canView(revision)) {
    return { document: { properties: { id: revision.id, initid: revision.initid }, uri: elementUri(revision) }, duration };
  }
  const selection = parseFieldsSelection(fields, "one");
  await scope.prepare([revision], selection);
  return { document: renderDocument(revision, selection, scope, "one"), duration };
}

/** What PUT, DELETE and restore answer: the element as GET shows it by default, and the time spent. */
export type WriteResult = Awaited<ReturnType<typeof writeResult>>;
