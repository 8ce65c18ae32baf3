import type { ElementEvent } from "../events/element-event.ts";
import { withVisibleChanges } from "../events/event-visibility.ts";
import type { Definitions } from "../scope/definitions.ts";

/**
 * The body a webhook receives for an event: the event as an administrator sees it (every element;
 * `changes` without the fields invisible to all, never a password), as JSON.
 */
export function webhookPayload(event: ElementEvent, definitions: Pick<Definitions, "structure">): string {
  return JSON.stringify(withVisibleChanges({ structure: (name) => definitions.structure(name) }, event));
}
