import type { ThrottleEvent } from "@lineage/core";
import type { Logger } from "pino";

/**
 * The warning line of a refused or slowed login attempt: reason, login,
 * client address and wait, never the password. To the logger when there is
 * one, else to the console (as unexpected errors are).
 */
export function throttleWarning(logger?: Logger): (event: ThrottleEvent) => void {
  return (event) => {
    const line = { reason: event.reason, login: event.login ?? null, clientAddress: event.clientAddress, waitMs: event.waitMs };
    if (logger) logger.warn(line, "authentication throttled");
    else console.warn(`Lineage: authentication throttled: ${JSON.stringify(line)}`);
  };
}
