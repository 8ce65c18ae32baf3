import * as v from "valibot";
import { EVENT_TYPES } from "./element-event.ts";

// The query variables of GET /api/v2/events/ and /events/stream, as the client sends them. event-query.ts
// parses with these and says what is wrong (400 EVENT0400); the OpenAPI document shows them.

/** `after`: the seq of the last event seen. */
export const AfterParameterSchema = v.pipe(
  v.string(),
  v.regex(/^\s*\d{1,15}\s*$/),
  v.description("The seq of the last event seen: the answer starts after it. None: from the oldest kept. Older than the oldest kept: 410 EVENT0410."),
  v.examples(["1042"]),
);

/** `slice`: how many events at most. */
export const EventSliceParameterSchema = v.pipe(
  v.string(),
  v.regex(/^\s*\d{1,4}\s*$/),
  v.description("At most this many events, 1 to 1000; 100 by default."),
  v.examples(["100"]),
);

/** `types`: event types, comma-separated. */
export const EventTypesParameterSchema = v.pipe(
  v.string(),
  v.description(`Only events of these types, comma-separated: ${EVENT_TYPES.join(", ")}. None: every type.`),
  v.examples(["element.created,element.updated"]),
);

/** `structure`: a Smart Structure's name. */
export const EventStructureParameterSchema = v.pipe(
  v.string(),
  v.description("Only events of elements of this Smart Structure (its exact name). An unknown structure: 400 EVENT0400."),
  v.examples(["ARTICLE"]),
);

/** The query of the events' list and stream. */
export const EventQuerySchema = v.object({
  after: v.optional(AfterParameterSchema),
  slice: v.optional(EventSliceParameterSchema),
  types: v.optional(EventTypesParameterSchema),
  structure: v.optional(EventStructureParameterSchema),
});
