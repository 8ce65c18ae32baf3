import type { ElementEvent } from "../events/element-event.ts";
import type { EventLogFilter } from "../ports/event-log.port.ts";
import type { Webhook } from "./webhook.ts";

/** The log filter of the events a webhook wants: its types and structures, each empty meaning any. */
export function webhookFilter(webhook: Pick<Webhook, "types" | "structures">): EventLogFilter {
  return {
    types: webhook.types.length > 0 ? webhook.types : undefined,
    structures: webhook.structures.length > 0 ? webhook.structures : undefined,
  };
}

/** True when a webhook wants an event: of one of its types and structures (empty lists: any). */
export function webhookMatches(webhook: Pick<Webhook, "types" | "structures">, event: Pick<ElementEvent, "type" | "structure">): boolean {
  return (webhook.types.length === 0 || webhook.types.includes(event.type))
    && (webhook.structures.length === 0 || webhook.structures.includes(event.structure));
}
