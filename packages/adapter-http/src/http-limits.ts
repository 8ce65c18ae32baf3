/**
 * The limits the HTTP server holds every request to (docs/limits.md). Each has
 * a default; `lineage serve` takes them as flags.
 */
export interface HttpLimits {
  /** The largest request body, in bytes: beyond it, 413 API0010. */
  readonly maxBodyBytes: number;
  /** The largest file in a multipart body, in bytes: beyond it, 413 API0102. */
  readonly maxUploadBytes: number;
  /** The deepest nesting of a JSON body: deeper, 400 API0009 before parsing pays for it. */
  readonly maxJsonDepth: number;
  /** How long a request may run, body upload included: beyond it, 503 API0101. */
  readonly requestTimeoutMs: number;
  /** The largest request line plus headers, in bytes: beyond it, 431 API0105 (Node's own parser). */
  readonly maxHeaderBytes: number;
}

export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  maxBodyBytes: 20 * 1024 * 1024,
  maxUploadBytes: 16 * 1024 * 1024,
  maxJsonDepth: 64,
  requestTimeoutMs: 30_000,
  maxHeaderBytes: 16 * 1024,
};

/** The defaults with `given` over them; a limit that is not a positive whole number is a programming error. */
export function httpLimits(given: Partial<HttpLimits> = {}): HttpLimits {
  const limits = { ...DEFAULT_HTTP_LIMITS, ...Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)) };
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`HTTP limit ${name} must be a positive whole number, not ${value}`);
  }
  return limits;
}
