import * as v from "valibot";
import { EVENT_TYPES } from "../events/element-event.ts";

/** The longest URL a webhook may have. */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** The body of POST /api/admin/webhooks/: where to send, and which events (none named: every one). */
export const WebhookInputSchema = v.strictObject({
  url: v.pipe(
    v.string("url must be a string"),
    v.trim(),
    v.maxLength(MAX_WEBHOOK_URL_LENGTH, `url must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`),
    v.url("url must be an absolute http or https URL"),
    v.regex(/^https?:\/\//i, "url must be an absolute http or https URL"),
    v.description("Where each matching event is POSTed: an http or https URL whose host is not on a loopback, private or link-local network (unless the configuration allows it)."),
    v.examples(["https://hooks.example.com/lineage"]),
  ),
  types: v.optional(v.pipe(
    v.array(v.picklist(EVENT_TYPES, `types: each must be one of ${EVENT_TYPES.join(", ")}`), "types must be a list of event types"),
    v.maxLength(EVENT_TYPES.length * 2, "types lists too many types"),
    v.description("Only events of these types; none or empty: every type."),
    v.examples([["element.created", "element.state"]]),
  )),
  structures: v.optional(v.pipe(
    v.array(v.pipe(v.string(), v.trim(), v.minLength(1, "structures: a name cannot be empty")), "structures must be a list of structure names"),
    v.maxLength(100, "structures lists more than 100 structures"),
    v.description("Only events of elements of these Smart Structures (exact names); none or empty: every structure."),
    v.examples([["ARTICLE"]]),
  )),
  description: v.optional(v.pipe(
    v.string("description must be a string"),
    v.maxLength(1000, "description must be at most 1000 characters"),
    v.description("What it is for, for administrators."),
  )),
});

export type WebhookInput = v.InferInput<typeof WebhookInputSchema>;
