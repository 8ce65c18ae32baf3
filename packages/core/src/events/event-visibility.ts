import type { ElementRevision } from "../elements/smart-element.ts";
import { visibilityOf, type ResolvedField } from "../structures/smart-field.ts";
import { fieldIndex, type SmartStructure } from "../structures/smart-structure.ts";
import type { ElementEvent, FieldChange } from "./element-event.ts";

/** What an event's reader is asked: their view right on an element, and a structure as they see it (a request scope fits). */
export interface EventReader {
  canView(revision: ElementRevision): boolean;
  structure(name: string): SmartStructure | undefined;
}

/** A field whose values the reader may see: not invisible to them (nor its array), not a password. */
function visibleField(structure: SmartStructure, field: ResolvedField | undefined): boolean {
  if (!field || field.type === "array" || field.type === "password" || visibilityOf(field) === "I") return false;
  const array = field.arrayId === undefined ? undefined : fieldIndex(structure).get(field.arrayId);
  return !array || visibilityOf(array) !== "I";
}

/**
 * An event as a reader sees it now, or undefined when they may not: they see it only while they may
 * view its element (`latest`, its current latest revision; undefined when it is gone), and only the
 * changes of the fields they may see (a field unknown to the structure as they see it is hidden).
 * @example
 * eventSeenBy(scope, event, scope.element(event.initid));
 */
export function eventSeenBy(reader: EventReader, event: ElementEvent, latest: ElementRevision | undefined): ElementEvent | undefined {
  if (!latest || !reader.canView(latest)) return undefined;
  return withVisibleChanges(reader, event);
}

/** An event with only the changes of the fields a reader may see (those of a structure unknown to them hidden), whatever their right on its element. */
export function withVisibleChanges(reader: Pick<EventReader, "structure">, event: ElementEvent): ElementEvent {
  if (!event.changes) return event;
  const structure = reader.structure(event.structure);
  const changes: Record<string, FieldChange> = {};
  let hidden = false;
  for (const [id, change] of Object.entries(event.changes)) {
    if (structure && visibleField(structure, fieldIndex(structure).get(id))) changes[id] = change;
    else hidden = true;
  }
  return hidden ? { ...event, changes } : event;
}
