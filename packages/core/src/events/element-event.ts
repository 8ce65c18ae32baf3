/** The kinds of event the log holds, in the order docs/events.md lists them. */
export const EVENT_TYPES = [
  "element.created", "element.updated", "element.revised", "element.state", "element.deleted", "element.restored",
  "folder.added", "folder.removed",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** The value of a field in `changes`: the `value` the API answers for it (a list for multiple fields, rows for array columns). */
export type ChangeValue = string | number | null | readonly ChangeValue[];

/** One changed field: its value before the change and after it. */
export interface FieldChange {
  readonly before: ChangeValue;
  readonly after: ChangeValue;
}

/** Changed fields by field id. */
export type FieldChanges = Readonly<Record<string, FieldChange>>;

/** The transition of an `element.state` event; `id` is null when an admin forced a state that no valid transition leads to. */
export interface EventTransition {
  readonly id: string | null;
  readonly from: string;
  readonly to: string;
}

/**
 * One committed change, as the log keeps it and readers receive it. `seq` increases strictly in
 * commit order and is never given twice. What the element was after the change: `id` (its latest
 * revision), `revision`, `state`; `actor` is the login of who made it.
 */
export interface ElementEvent {
  readonly seq: number;
  readonly type: EventType;
  /** ISO 8601 date-time with milliseconds. */
  readonly time: string;
  readonly initid: number;
  readonly id: number;
  readonly name: string | null;
  readonly structure: string;
  readonly revision: number;
  readonly state: string | null;
  readonly actor: string;
  /** `element.state` only. */
  readonly transition?: EventTransition;
  /** created, updated, revised and state: the fields whose values changed (passwords never). */
  readonly changes?: FieldChanges;
  /** `folder.added` and `folder.removed`: the initid added to or removed from the folder (the event's element). */
  readonly element?: number;
}

/** An event as it is appended: the log gives its `seq`. */
export type NewEvent = Omit<ElementEvent, "seq">;

/** True for the types whose events carry `changes`. */
export function carriesChanges(type: EventType): boolean {
  return type === "element.created" || type === "element.updated" || type === "element.revised" || type === "element.state";
}
