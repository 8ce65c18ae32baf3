import { titleAsSeen } from "./element-title.ts";
import type { Account } from "../accounts/account.ts";
import type { Permission } from "../access/profile.ts";
import type { Lifecycle } from "../lifecycle/lifecycle.ts";
import { findState } from "../lifecycle/lifecycle.ts";
import { LineageError } from "../errors/lineage-error.ts";
import { translate } from "../i18n/label.ts";
import { visibilityOf, type ResolvedField } from "../structures/smart-field.ts";
import { fieldIndex, flattenFields, type SmartStructure } from "../structures/smart-structure.ts";
import { renderFieldValue, type ReadContext, type RenderedValue } from "../values/display-value.ts";
import { iconUri } from "./element-icon.ts";
import { accountReference, lifecycleReference, noReference, securityProperty, structureReference } from "./property-references.ts";
import { elementUri } from "./element-uri.ts";
import type { FieldsSelection, SelectionScope } from "./fields-selection.ts";
import { statusProperty, type ElementRevision } from "./smart-element.ts";
import { lockedByOther, lockedProperty, type ElementLock } from "./element-lock.ts";

/** Lookups a rendering needs on top of the read context. */
export interface ViewContext extends ReadContext {
  structure(name: string): SmartStructure | undefined;
  lifecycle(name: string): Lifecycle | undefined;
  /** An account by id: only those loaded beforehand (`prepare` with a selection naming `ACCOUNT_PROPERTIES`). */
  account(id: number): Account | undefined;
  /** What the reader may do with an element (the `security` property tells whether they may change it). */
  permissions(element: ElementRevision): ReadonlySet<Permission>;
  /** The lock on a lineage: only those loaded beforehand (`prepare` with a selection naming `LOCK_PROPERTIES`). */
  lock(initid: number): ElementLock | undefined;
  /** The reader's account id: a lock they hold leaves the element theirs to change. */
  readonly readerAccountId: number;
}

/** The `state` property of an element in a lifecycle. */
export interface StateProperty {
  reference: string;
  stateLabel: string;
  activity?: string;
  displayValue: string;
  color: string;
}

/** A rendered element: its URI, and the parts the selection asked for. */
export interface DocumentView {
  uri: string;
  properties?: Record<string, unknown>;
  attributes?: Record<string, RenderedValue>;
}

/** The `state` property, or undefined when the element has no lifecycle state. */
export function stateProperty(revision: ElementRevision, lifecycle: Lifecycle | undefined, locale: string): StateProperty | undefined {
  if (!lifecycle || !revision.state) return undefined;
  const state = findState(lifecycle, revision.state);
  const stateLabel = translate(state?.label ?? revision.state, locale);
  const activity = state?.activity ? translate(state.activity, locale) : "";
  const property: StateProperty = {
    reference: revision.state,
    stateLabel,
    displayValue: activity || stateLabel,
    color: state?.color ?? "",
  };
  if (!revision.fixed) property.activity = activity;
  return property;
}

export { DEFAULT_ICON, iconUri } from "./element-icon.ts";

/** A date property as the original's API gives it (ISO, `2026-03-04T05:06:07`). */
const isoDate = (iso: string) => iso.slice(0, 19);

/**
 * `Y` once the element has been changed after it was made, as the original marks a revision
 * changed since it was made; `N` for a fixed revision or an element never changed. Lineage keeps
 * no mark of a change since the last revision: a revision made later than the creation (revise)
 * counts as a change.
 */
const lmodify = (revision: ElementRevision) => (!revision.fixed && revision.modifiedAt !== revision.createdAt ? "Y" : "N");

function propertyValue(name: string, revision: ElementRevision, context: ViewContext): unknown {
  const structure = context.structure(revision.structure);
  switch (name) {
    case "id": return revision.id;
    case "title": return titleAsSeen(structure, revision, context.locale);
    case "icon": return iconUri(structure);
    case "initid": return revision.initid;
    case "name": return revision.name;
    case "revision": return revision.revision;
    case "status": return statusProperty(revision);
    case "state": {
      const lifecycle = structure?.lifecycle ? context.lifecycle(structure.lifecycle) : undefined;
      return stateProperty(revision, lifecycle, context.locale);
    }
    case "fromid": return structure?.id ?? null;
    case "fromname": return revision.structure;
    case "fromtitle": return translate(structure?.title ?? revision.structure, context.locale);
    // The account's id, as the original's column gives it: a string.
    case "owner": return String(revision.owner);
    case "locked": return lockedProperty(revision, revision.fixed ? undefined : context.lock(revision.initid));
    case "wid": return structure?.lifecycle ?? null;
    // The profile the element is under: its own or its state's, else its structure's (element-profile.ts).
    case "profid": return profileOf(revision, structure);
    case "domainid": return "";
    case "cdate": return isoDate(revision.createdAt);
    case "mdate": return isoDate(revision.modifiedAt);
    case "creationDate": return isoDate(revision.createdAt);
    case "lastModificationDate": return isoDate(revision.modifiedAt);
    case "revdate": return Math.floor(Date.parse(revision.modifiedAt) / 1000);
    case "doctype": return revision.status === "deleted" ? "Z" : "F";
    case "family": return structureReference(structure, context.locale);
    // Lineage keeps the owner of the whole lineage, who made its first revision.
    case "createdBy": return accountReference(context.account(revision.owner));
    case "revisionData": {
      // Who made this revision: Lineage keeps the lineage's owner on every revision.
      const createdBy = accountReference(context.account(revision.owner));
      return { isModified: lmodify(revision) === "Y", id: revision.id, number: revision.revision, createdBy };
    }
    case "lmodify": return lmodify(revision);
    case "workflow": return lifecycleReference(structure?.lifecycle ? context.lifecycle(structure.lifecycle) : undefined, context.locale);
    case "security": {
      const lock = revision.fixed ? undefined : context.lock(revision.initid);
      return securityProperty({
        fixed: revision.fixed,
        lock,
        // As the original's canEdit: a fixed revision, an element in the trash or locked by someone else cannot be changed either.
        readOnly: revision.fixed || revision.status === "deleted" || !context.permissions(revision).has("edit") || lockedByOther(lock, context.readerAccountId),
        profile: profileOf(revision, structure),
        fieldAccess: structure?.fieldAccess,
      });
    }
    case "type": return "document";
    case "usage": return "normal";
    case "usefor": return "N";
    case "dprofid": return 0;
    // What this platform has none of (notes, allocations, view controllers, tags, primary folders,
    // versions, confidentiality): the original's answer for an element that has none.
    case "affected": case "note": case "viewController": return noReference();
    case "allocated": case "confidential": case "cvid": case "postitid": case "prelid": case "tags": case "version": return null;
    default: return undefined;
  }
}

/** The profile an element is under: its own or its state's, else its structure's. */
const profileOf = (revision: ElementRevision, structure: SmartStructure | undefined) => revision.profile ?? structure?.profile ?? null;

const orders = new WeakMap<readonly string[], readonly string[]>();

/** The original's order of properties: id and title first, then by name (kept per selection: a list renders many rows). */
export function propertyOrder(names: readonly string[]): readonly string[] {
  let ordered = orders.get(names);
  if (!ordered) {
    const rest = [...new Set(names)].filter((name) => name !== "id" && name !== "title").sort();
    ordered = [...(names.includes("id") ? ["id"] : []), ...(names.includes("title") ? ["title"] : []), ...rest];
    orders.set(names, ordered);
  }
  return ordered;
}

/** Properties in the original's order: id and title first, then by name; `state` only when there is one. */
export function renderProperties(revision: ElementRevision, names: readonly string[], context: ViewContext): Record<string, unknown> {
  const ordered = propertyOrder(names);
  const result: Record<string, unknown> = {};
  for (const name of ordered) {
    const value = propertyValue(name, revision, context);
    if (value !== undefined) result[name] = value;
  }
  return result;
}

const readableCache = new WeakMap<SmartStructure, ResolvedField[]>();

/** Fields that a consultation may show: no arrays themselves, no visibility I (memoised per structure object). */
function readableFields(structure: SmartStructure): ResolvedField[] {
  let fields = readableCache.get(structure);
  if (!fields) {
    fields = flattenFields(structure).filter((field) => field.type !== "array" && visibilityOf(field) !== "I");
    readableCache.set(structure, fields);
  }
  return fields;
}

/**
 * Checks `document.attributes.<id>` entries for one element: each must be a
 * readable field (CRUD0502; visibility I is reported as unknown) and no array (CRUD0507).
 */
export function checkAttributeSelection(structure: SmartStructure, ids: readonly string[]): void {
  for (const id of ids) {
    const field = fieldIndex(structure).get(id);
    if (!field || visibilityOf(field) === "I") throw new LineageError("CRUD0502", [id]);
    if (field.type === "array") throw new LineageError("CRUD0507", [id, translate(field.label ?? id, "en"), field.type]);
  }
}

/** The `attributes` object: in lists an unknown or hidden id renders empty, never disclosed. */
export function renderAttributes(
  revision: ElementRevision,
  structure: SmartStructure | undefined,
  selection: "all" | readonly string[],
  context: ViewContext,
): Record<string, RenderedValue> {
  const result: Record<string, RenderedValue> = {};
  if (selection === "all") {
    for (const field of structure ? readableFields(structure) : []) {
      result[field.id] = renderFieldValue(field, revision.values[field.id], context, revision);
    }
    return result;
  }
  for (const id of selection) {
    const field = structure ? fieldIndex(structure).get(id) : undefined;
    result[id] = field && field.type !== "array" && visibilityOf(field) !== "I"
      ? renderFieldValue(field, revision.values[id], context, revision)
      : { value: null, displayValue: "" };
  }
  return result;
}

/** Renders an element per a fields selection. */
export function renderDocument(
  revision: ElementRevision,
  selection: FieldsSelection,
  context: ViewContext,
  scope: SelectionScope,
  uri: string = elementUri(revision),
): DocumentView {
  const view: DocumentView = { uri };
  const structure = context.structure(revision.structure);
  if (selection.properties) view.properties = renderProperties(revision, selection.properties, context);
  if (selection.attributes) {
    if (scope === "one" && structure && selection.attributes !== "all") checkAttributeSelection(structure, selection.attributes);
    view.attributes = renderAttributes(revision, structure, selection.attributes, context);
  }
  return view;
}
