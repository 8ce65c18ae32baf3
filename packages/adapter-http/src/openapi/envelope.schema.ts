import * as v from "valibot";

/** A message of the envelope (api-v2.md, Response envelope). */
export const EnvelopeMessageSchema = v.pipe(
  v.object({
    type: v.pipe(v.picklist(["error", "userMessage", "warning", "notice", "notification", "message"]), v.description("Kind of message")),
    contentText: v.optional(v.pipe(v.string(), v.description("Message text"))),
    contentHtml: v.optional(v.pipe(v.string(), v.description("Message as HTML"))),
    code: v.optional(v.pipe(v.string(), v.description("Code of the message category, e.g. ROUTES0100"))),
    uri: v.optional(v.pipe(v.string(), v.description("URL of a page about the error"))),
    data: v.optional(v.pipe(v.unknown(), v.description("Additional data"))),
  }),
  v.description("A message of the envelope; empty parts are left out."),
);

/** The envelope of a successful JSON answer, around the operation's data. */
export const successEnvelopeSchema = (data: v.GenericSchema<unknown, unknown>) =>
  v.object({
    success: v.pipe(v.literal(true), v.description("The action was executed")),
    messages: v.pipe(v.array(EnvelopeMessageSchema), v.description("Messages; empty when none")),
    data,
  });

/** The envelope of an error whose `data` is `data` (null but for the few refusals that tell how to go on). */
export const errorEnvelopeSchema = (data: v.GenericSchema<unknown, unknown>) =>
  v.object({
    success: v.literal(false),
    messages: v.array(EnvelopeMessageSchema),
    data,
    exceptionMessage: v.optional(v.pipe(v.string(), v.description("The error text with its arguments"))),
  });

/** The envelope of every error: success false, the error in messages, data null. */
export const ErrorEnvelopeSchema = v.pipe(
  errorEnvelopeSchema(v.null()),
  v.description("Every error answer: the first message has type error, the code and the text."),
);
