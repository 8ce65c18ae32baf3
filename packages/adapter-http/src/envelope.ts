import { errorCodeDefinition, isLineageError } from "@lineage/core";

/** A message of the envelope; empty parts are left out, as the original does. */
export interface EnvelopeMessage {
  type: "error" | "userMessage" | "warning" | "notice" | "notification" | "message";
  contentText?: string;
  contentHtml?: string;
  code?: string;
  uri?: string;
  data?: unknown;
}

/** The envelope of every JSON answer (api-v2.md, Response envelope). */
export interface Envelope<T = unknown> {
  success: boolean;
  messages: EnvelopeMessage[];
  data: T;
  exceptionMessage?: string;
}

/**
 * A successful envelope. A promise is refused by the type checker: serialized, it
 * would answer `{}` (a use case whose result was not awaited).
 */
export function successEnvelope<T>(data: T extends PromiseLike<unknown> ? never : T, messages: EnvelopeMessage[] = []): Envelope<T> {
  return { success: true, messages, data };
}

/** The error envelope of an error: the spec's code and text for domain errors, a generic text for the rest. */
export function errorEnvelope(error: unknown): { status: number; body: Envelope<Readonly<Record<string, unknown>> | null> } {
  if (isLineageError(error)) {
    const message: EnvelopeMessage = { type: "error", contentText: error.userMessage ?? error.message, code: error.code };
    if (error.uri) message.uri = error.uri;
    if (error.data !== undefined) message.data = error.data;
    return { status: error.status, body: { success: false, messages: [message], data: error.answer ?? null, exceptionMessage: error.message } };
  }
  const { status, text } = errorCodeDefinition("API0001");
  return { status, body: { success: false, messages: [{ type: "error", contentText: text, code: "API0001" }], data: null } };
}
