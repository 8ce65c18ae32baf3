import type { ElementRevision, ElementValues } from "../elements/smart-element.ts";
import type { RequestScope } from "../scope/request-scope.ts";
import { carriesChanges, type ElementEvent, type EventTransition, type EventType, type NewEvent } from "./element-event.ts";
import { fieldChanges } from "./field-changes.ts";

/** What a write tells of its change, besides its type and the element it left. */
export interface EventFacts {
  /** When the change was made. */
  readonly time: Date;
  /** The values before the change, for `changes`; none for a new element. */
  readonly before?: ElementValues | undefined;
  /** `element.state`: the transition run. */
  readonly transition?: EventTransition | undefined;
  /** `folder.added` and `folder.removed` (the event is the folder's): the initid of the element added or removed. */
  readonly element?: number | undefined;
}

/**
 * Appends the event of a change to the log, inside the change's transaction (`tx` reads and writes
 * through it): the element as the change left it (`revision`, its latest revision), the principal
 * of the scope as its actor, and, for creations, updates, revisions and state changes, every field
 * whose value changed, whoever may see it (readers see what their rights let them, read-events.ts).
 * @example
 * await recordEvent(tx, "element.updated", updated, { time: now, before: current.values });
 */
export function recordEvent(tx: RequestScope, type: EventType, revision: ElementRevision, facts: EventFacts): Promise<ElementEvent> {
  const structure = tx.definitions.structure(revision.structure);
  const event: NewEvent = {
    type,
    time: facts.time.toISOString(),
    initid: revision.initid,
    id: revision.id,
    name: revision.name,
    structure: revision.structure,
    revision: revision.revision,
    state: revision.state,
    actor: tx.principal.account.login,
    ...(facts.transition ? { transition: facts.transition } : {}),
    ...(facts.element === undefined ? {} : { element: facts.element }),
    ...(carriesChanges(type) ? { changes: structure ? fieldChanges(structure, facts.before, revision.values) : {} } : {}),
  };
  return tx.repos.events.append(event);
}
