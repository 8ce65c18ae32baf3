import { recordEvent } from "../events/record-event.ts";
import { LineageError } from "../errors/lineage-error.ts";
import type { HistoryEntry } from "../elements/history-entry.ts";
import { elementUri, trashUri } from "../elements/element-uri.ts";
import { renderDocument, type DocumentView } from "../elements/element-view.ts";
import { parseFieldsSelection } from "../elements/fields-selection.ts";
import { listAliveElementsAt, type ElementList, type ListOptions } from "../elements/read-elements.ts";
import type { ElementRevision } from "../elements/smart-element.ts";
import type { Clock } from "../ports/clock.port.ts";
import type { Deadline } from "../ports/store.port.ts";
import type { Stamped } from "../scope/definitions.ts";
import type { RequestScope } from "../scope/request-scope.ts";
import { translate } from "../i18n/label.ts";
import type { ElementFilter } from "./element-filter.ts";
import { FOLDER_STRUCTURE } from "./system-structures.ts";

/*
 * Folders (queries-and-events.md, section 2): elements of DIR or a structure extending it, each
 * holding elements chosen by hand (FolderRepository). A folder is read and changed under its own
 * rights (view to list its content, edit to add and remove); each element listed through it is
 * still filtered by the caller's rights on it, and alive elements only are listed.
 */

/** The folders: DIR and the structures that extend it. */
export function folderStructures(scope: RequestScope): readonly string[] {
  return scope.definitions.withDescendants(FOLDER_STRUCTURE);
}

/**
 * A folder by reference (initid, revision id or logical name), checked: 404 ROUTES0100 when there
 * is none (or it is in the trash), 404 ROUTES0125 when the element is no folder, 403 CRUD0201
 * without the view right, or without the edit right when `edit` (to change its content).
 */
export async function locateFolder(scope: RequestScope, ref: string, edit = false): Promise<ElementRevision> {
  const folder = await scope.find(ref);
  if (!folder) throw new LineageError("ROUTES0100", [ref]);
  if (folder.status === "deleted") throw new LineageError("ROUTES0100", [ref], { userMessage: `Document "${ref}" is deleted`, uri: trashUri(folder.initid) });
  if (!folderStructures(scope).includes(folder.structure)) throw new LineageError("ROUTES0125", [ref]);
  const permissions = scope.permissions(folder);
  if (!permissions.has("view")) throw new LineageError("CRUD0201", [ref, "Access not granted"], { userMessage: "Document access not granted" });
  if (edit && !permissions.has("edit")) throw new LineageError("CRUD0201", [ref, "Access not granted"], { userMessage: "Update forbidden" });
  return folder;
}

/** The structures a folder may hold (its `fld_famids`), each with its descendants; undefined: any. */
export function allowedStructures(scope: RequestScope, folder: ElementRevision): ReadonlySet<string> | undefined {
  const raw = folder.values.fld_famids;
  const names = (Array.isArray(raw) ? raw : raw === undefined || raw === null ? [] : [raw]).filter((name): name is string => typeof name === "string" && name !== "");
  if (names.length === 0) return undefined;
  return new Set(names.flatMap((name) => scope.definitions.withDescendants(name)));
}

/** The condition of a folder's content: the lineages it holds; "none" when it holds none. */
function membersCondition(members: readonly number[]): ElementFilter | "none" {
  if (members.length === 0) return "none";
  return { kind: "property", property: "initid", comparison: "number", operator: "in", values: members };
}

/** GET /folders/: the folders (DIR and the structures extending it) the principal may view. */
export function listFolders(scope: RequestScope, options: ListOptions = {}): Promise<ElementList> {
  return listAliveElementsAt(scope, { ...options, family: FOLDER_STRUCTURE }, { uri: "/api/v2/folders/" });
}

/**
 * The folders holding an element that the principal may view, as a list (404 ROUTES0100 for an
 * element they may not view: it tells nothing of it).
 */
export async function foldersHolding(scope: RequestScope, ref: string, options: ListOptions = {}): Promise<ElementList> {
  const element = await scope.find(ref);
  if (!element || !scope.permissions(element).has("view")) throw new LineageError("ROUTES0100", [ref]);
  const folders = await scope.repos.folders.foldersOf(element.initid);
  return listAliveElementsAt(scope, { ...options, family: FOLDER_STRUCTURE }, { uri: "/api/v2/folders/", where: membersCondition(folders) });
}

/** A folder's content as a list, with the folder's `initid` and `title`. */
export type FolderContent = ElementList & { readonly properties: { readonly initid: number; readonly title: string } };

/**
 * GET /folders/<folder>/smart-elements/: the alive elements a folder holds that the principal may
 * view, as a list (order, slice, offset, fields, filter and count as /smart-elements/ takes them),
 * with the folder's properties.
 */
export async function readFolderContent(scope: RequestScope, ref: string, options: ListOptions = {}): Promise<FolderContent> {
  const folder = await locateFolder(scope, ref);
  const members = await scope.repos.folders.members(folder.initid);
  const uri = `/api/v2/folders/${encodeURIComponent(folder.name ?? String(folder.initid))}/smart-elements/`;
  const list = await listAliveElementsAt(scope, { ...options, family: undefined }, { uri, where: membersCondition(members) });
  return { ...list, properties: { initid: folder.initid, title: folder.title } };
}

/** What a change of a folder's content is told besides its folder and element. */
export interface MembershipOptions extends Stamped {
  /** The answer's `fields`, as a list's item takes them. */
  readonly fields?: string | undefined;
  readonly deadline?: Deadline | undefined;
}

/** What a change of a folder's content answers: the element as an item of the folder's content; `changed` false when there was nothing to do. */
export interface FolderMembership {
  readonly changed: boolean;
  readonly folder: ElementRevision;
  readonly element: ElementRevision;
  readonly data: { readonly document: DocumentView };
}

/**
 * PUT /folders/<folder>/smart-elements/<element>: the folder holds the element (edit right on the
 * folder, view right on the element; a structure its `fld_famids` does not name, nor extends one
 * it names, is refused with 403 CRUD0213). Adding it again changes nothing. In one transaction with
 * the history lines it writes on both.
 */
export async function addToFolder(
  scope: RequestScope, clock: Clock, folderRef: string, elementRef: string, options: MembershipOptions = {},
): Promise<FolderMembership> {
  parseFieldsSelection(options.fields, "list");
  const { folder, element, changed } = await scope.transaction(async (tx) => {
    const folder = await locateFolder(tx, folderRef, true);
    const element = await tx.find(elementRef);
    if (!element || element.status === "deleted") throw new LineageError("ROUTES0100", [elementRef]);
    if (!tx.permissions(element).has("view")) throw new LineageError("CRUD0201", [elementRef, "Access not granted"], { userMessage: "Document access not granted" });
    const allowed = allowedStructures(tx, folder);
    if (allowed && !allowed.has(element.structure)) {
      throw new LineageError("CRUD0213", [element.structure], {
        userMessage: `Cannot add "${element.title}" in "${folder.title}" folder, restriction set to add this kind of document`,
      });
    }
    const changed = await tx.repos.folders.add(folder.initid, element.initid);
    if (changed) await recordMembership(tx, clock, folder, element, "added");
    return { folder, element, changed };
  }, { deadline: options.deadline });
  return { changed, folder, element, data: await membershipAnswer(scope, element, options.fields) };
}

/**
 * DELETE /folders/<folder>/smart-elements/<element>: the folder no longer holds the element (edit
 * right on the folder); 404 ROUTES0100 when it does not hold it. An element the principal may no
 * longer view, or in the trash, may be taken out too.
 */
export async function removeFromFolder(
  scope: RequestScope, clock: Clock, folderRef: string, elementRef: string, options: MembershipOptions = {},
): Promise<FolderMembership> {
  parseFieldsSelection(options.fields, "list");
  const { folder, element } = await scope.transaction(async (tx) => {
    const folder = await locateFolder(tx, folderRef, true);
    const element = await tx.find(elementRef);
    if (!element) throw new LineageError("ROUTES0100", [elementRef]);
    if (!(await tx.repos.folders.remove(folder.initid, element.initid))) {
      throw new LineageError("ROUTES0100", [elementRef], { userMessage: `Document "${elementRef}" is not in folder "${folderRef}"` });
    }
    await recordMembership(tx, clock, folder, element, "removed");
    return { folder, element };
  }, { deadline: options.deadline });
  return { changed: true, folder, element, data: await membershipAnswer(scope, element, options.fields) };
}

/**
 * Makes a folder hold exactly these elements (initids), inside the caller's transaction: those
 * missing are added, the others removed, each with its history lines (a bundle's `content`).
 * True when the content changed.
 */
export async function setFolderContent(tx: RequestScope, clock: Clock, folder: ElementRevision, members: readonly number[]): Promise<boolean> {
  const current = new Set(await tx.repos.folders.members(folder.initid));
  const wanted = new Set(members);
  const added = [...wanted].filter((initid) => !current.has(initid));
  const removed = [...current].filter((initid) => !wanted.has(initid));
  if (added.length === 0 && removed.length === 0) return false;
  const elements = new Map((await tx.repos.elements.latestMany([...added, ...removed])).map((element) => [element.initid, element]));
  for (const [initids, change] of [[added, "added"], [removed, "removed"]] as const) {
    for (const initid of initids) {
      const element = elements.get(initid);
      if (change === "added") await tx.repos.folders.add(folder.initid, initid);
      else await tx.repos.folders.remove(folder.initid, initid);
      if (element) await recordMembership(tx, clock, folder, element, change);
    }
  }
  return true;
}

const HISTORY_TEXTS = {
  added: { folder: { en: 'Document "%s" inserted', fr: 'Document "%s" inséré' }, element: { en: 'Document inserted in "%s" folder', fr: 'Document inséré dans le dossier "%s"' } },
  removed: { folder: { en: 'Document "%s" removed', fr: 'Document "%s" retiré' }, element: { en: 'Document removed from "%s" folder', fr: 'Document retiré du dossier "%s"' } },
} as const;

/**
 * The history lines of a change of content, as the original writes them: on the folder (MODCONTAIN)
 * and on the element (MOVEADD, MOVEUNLINK), in the writer's language, each naming the other by its
 * title (by its initid when the writer may not view it). Its event tells the search indexes, whose
 * collections follow folders, that the element changed.
 */
async function recordMembership(tx: RequestScope, clock: Clock, folder: ElementRevision, element: ElementRevision, change: "added" | "removed") {
  const date = clock.now().toISOString();
  const name = (revision: ElementRevision) => (tx.canView(revision) ? revision.title : `#${revision.initid}`);
  const texts = HISTORY_TEXTS[change];
  const line = (on: ElementRevision, code: HistoryEntry["code"], text: string): HistoryEntry => ({
    initid: on.initid, revisionId: on.id, revision: on.revision, accountId: tx.principal.account.id, accountName: tx.principal.account.displayName,
    date, level: "info", code, comment: text,
  });
  await tx.repos.elements.appendHistory(line(folder, "MODCONTAIN", translate(texts.folder, tx.locale).replace("%s", name(element))));
  await tx.repos.elements.appendHistory(line(element, change === "added" ? "MOVEADD" : "MOVEUNLINK", translate(texts.element, tx.locale).replace("%s", name(folder))));
  await recordEvent(tx, change === "added" ? "folder.added" : "folder.removed", folder, { time: new Date(date), element: element.initid });
}

/** The element as an item of a folder's content, rendered after the write; only its identifiers when the principal may not view it. */
async function membershipAnswer(scope: RequestScope, element: ElementRevision, fields: string | undefined): Promise<{ document: DocumentView }> {
  const current = (await scope.repos.elements.latest(element.initid)) ?? element;
  if (current.status === "deleted" || !scope.canView(current)) {
    return { document: { properties: { id: current.id, initid: current.initid }, uri: elementUri(current) } };
  }
  const selection = parseFieldsSelection(fields, "list");
  await scope.prepare([current], selection);
  return { document: renderDocument(current, selection, scope, "list", elementUri(current)) };
}
