import * as v from "valibot";
import { LineageError } from "../errors/lineage-error.ts";
import { EVENT_TYPES, type EventType } from "./element-event.ts";
import { AfterParameterSchema, EventSliceParameterSchema } from "./event-query.schema.ts";

/** The most events one answer holds, and how many by default. */
export const MAX_EVENT_SLICE = 1000;
export const DEFAULT_EVENT_SLICE = 100;

/** Which events a reader asks for, parsed. */
export interface EventQuery {
  /** The seq of the last event seen; undefined: none seen, from the oldest kept. */
  readonly after?: number | undefined;
  /** At most this many events (1 to MAX_EVENT_SLICE); DEFAULT_EVENT_SLICE by default. */
  readonly slice?: number | undefined;
  readonly types?: readonly EventType[] | undefined;
  /** The exact name of a structure. */
  readonly structure?: string | undefined;
  /** One element's events only (by initid): its history as the log tells it. */
  readonly initid?: number | undefined;
}

/** The query variables as the client sent them, and a stream's Last-Event-ID header, which wins over `after`. */
export interface EventQueryInput {
  readonly after?: string | undefined;
  readonly slice?: string | undefined;
  readonly types?: string | undefined;
  readonly structure?: string | undefined;
  readonly lastEventId?: string | undefined;
}

const refuse = (why: string): never => {
  throw new LineageError("EVENT0400", [why]);
};

/** A seq as the client gives it: undefined when empty; 400 EVENT0400 when not a whole number. */
function parseSeq(raw: string | undefined, what: string): number | undefined {
  const text = raw?.trim();
  if (!text) return undefined;
  return v.is(AfterParameterSchema, text) ? Number(text) : refuse(`${what} must be the seq of an event, a whole number (not "${raw}")`);
}

/**
 * The query of GET /events/ and /events/stream, checked: 400 EVENT0400 names what is wrong.
 * @example
 * parseEventQuery({ after: "1042", types: "element.state" }); // { after: 1042, slice: 100, types: ["element.state"] }
 */
export function parseEventQuery(input: EventQueryInput): EventQuery {
  const after = parseSeq(input.lastEventId, "Last-Event-ID") ?? parseSeq(input.after, "after");
  let slice = DEFAULT_EVENT_SLICE;
  const sliceText = input.slice?.trim();
  if (sliceText) {
    const n = v.is(EventSliceParameterSchema, sliceText) ? Number(sliceText) : Number.NaN;
    if (!(n >= 1 && n <= MAX_EVENT_SLICE)) refuse(`slice must be a whole number from 1 to ${MAX_EVENT_SLICE} (not "${input.slice}")`);
    slice = n;
  }
  let types: EventType[] | undefined;
  if (input.types?.trim()) {
    types = input.types.split(",").map((type) => type.trim()).map((type) =>
      (EVENT_TYPES as readonly string[]).includes(type) ? (type as EventType) : refuse(`types: "${type}" is no event type (${EVENT_TYPES.join(", ")})`));
  }
  const structure = input.structure?.trim() || undefined;
  return { after, slice, types, structure };
}
