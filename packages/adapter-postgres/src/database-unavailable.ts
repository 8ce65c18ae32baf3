import { LineageError } from "@lineage/core";

/** Node's errors of a connection that cannot be made or was cut. */
const NETWORK_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EHOSTUNREACH", "EAI_AGAIN"]);
/**
 * PostgreSQL's: shutting down, starting up or in recovery, too many connections, a lock waited for
 * too long, a transaction stopped as one of two waiting for each other's locks (worth a retry).
 */
const SERVER_CODES = new Set(["57P01", "57P02", "57P03", "53300", "55P03", "40P01"]);

/**
 * The error a request meets while the database cannot be reached, as LineageError API0110 (503):
 * the server restarting is a moment to wait out, not a bug of ours. Other errors are returned as
 * they are.
 */
export function asDatabaseUnavailable(error: unknown): unknown {
  if (!(error instanceof Error) || error instanceof LineageError) return error;
  const code = (error as { code?: unknown }).code;
  const cut = typeof code === "string"
    ? NETWORK_CODES.has(code) || SERVER_CODES.has(code) || code.startsWith("08")
    // node-postgres's own errors of a connection that went away carry no code.
    : /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(error.message);
  return cut ? new LineageError("API0110") : error;
}
