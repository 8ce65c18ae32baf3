/** A message of the API's envelope (docs/api.md, The envelope). */
export interface EnvelopeMessage {
  readonly type: string;
  readonly contentText?: string;
  readonly contentHtml?: string;
  readonly code?: string;
  readonly uri?: string;
  readonly data?: unknown;
}

/**
 * An answer of the API that was not a success: its error code (`CRUD0238`, `ROUTES0100`…, or
 * `HTTP<status>` when the answer carried no envelope), its HTTP status, the envelope's message and
 * the rest of the envelope. Test with `error instanceof LineageApiError` and switch on `code`.
 */
export class LineageApiError extends Error {
  override readonly name = "LineageApiError";
  readonly code: string;
  readonly status: number;
  readonly messages: readonly EnvelopeMessage[];
  /** The envelope's `data`: null but for a few codes (`EVENT0410`: `{ oldest }`). */
  readonly data: unknown;
  /** `messages[0].uri`: where the resource is instead (a deleted element: its trash URL). */
  readonly uri: string | undefined;
  /** Seconds to wait before retrying, from `Retry-After` (429, 503). */
  readonly retryAfter: number | undefined;

  constructor(init: { code: string; status: number; message: string; messages?: readonly EnvelopeMessage[]; data?: unknown; retryAfter?: number | undefined }) {
    super(init.message);
    this.code = init.code;
    this.status = init.status;
    this.messages = init.messages ?? [];
    this.data = init.data ?? null;
    this.uri = this.messages.find((message) => message.uri)?.uri;
    this.retryAfter = init.retryAfter;
  }
}

/** True when `error` is an API error, with this code when one is given. */
export function isLineageApiError(error: unknown, code?: string): error is LineageApiError {
  return error instanceof LineageApiError && (code === undefined || error.code === code);
}
