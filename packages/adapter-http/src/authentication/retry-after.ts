import { isLineageError } from "@lineage/core";

/** The Retry-After value (seconds) of a throttled attempt's error (429 AUTH0429); undefined for any other error. */
export function retryAfterOf(error: unknown): string | undefined {
  if (!isLineageError(error) || error.code !== "AUTH0429") return undefined;
  const seconds = (error.data as { retryAfter?: unknown } | undefined)?.retryAfter;
  return typeof seconds === "number" && Number.isFinite(seconds) ? String(Math.max(1, Math.ceil(seconds))) : "1";
}
