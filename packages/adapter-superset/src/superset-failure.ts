import { LineageError } from "@lineage/core";

/** Where a call to the server went: for messages. */
export interface CallSite {
  readonly address: string;
  /** `GET /api/v1/dashboard/` */
  readonly call: string;
}

/** DASH0101: the server could not be reached (refused, unknown host, reset...). */
export function unreachable(site: CallSite, error: unknown): LineageError {
  return new LineageError("DASH0101", [site.address, networkReason(error)]);
}

/** DASH0103: no complete answer within the time limit. */
export function tooSlow(site: CallSite, timeoutMs: number): LineageError {
  return new LineageError("DASH0103", [site.address, site.call, timeoutMs]);
}

/** DASH0104: an answer the adapter cannot use. */
export function unreadable(site: CallSite, why: string): LineageError {
  return new LineageError("DASH0104", [site.address, site.call, why]);
}

/** DASH0102: the server refused the account. */
export function loginRefused(site: CallSite, username: string, why: string): LineageError {
  return new LineageError("DASH0102", [site.address, username, why]);
}

/** The words of a fetch failure: undici hides the system error in `cause`. */
function networkReason(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  const code = typeof cause?.code === "string" ? cause.code : undefined;
  const known: Record<string, string> = {
    ECONNREFUSED: "connection refused",
    ENOTFOUND: "unknown host",
    EAI_AGAIN: "host name lookup failed",
    ECONNRESET: "connection reset",
    EHOSTUNREACH: "host unreachable",
    ENETUNREACH: "network unreachable",
    UND_ERR_SOCKET: "connection closed by the server",
  };
  if (code) return `${known[code] ?? "network error"} (${code})`;
  const message = typeof cause?.message === "string" ? cause.message : error instanceof Error ? error.message : String(error);
  return message || "network error";
}
