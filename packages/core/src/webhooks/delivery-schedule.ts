import type { ClaimedDelivery, DeliverySettlement } from "./webhook.ts";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * The wait after each failed attempt (the first immediately after the event), the last one repeated
 * until the window closes: the schedule Standard Webhooks senders use.
 */
export const RETRY_DELAYS_MS = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR] as const;

/** How long a delivery is retried at least before it is `failed`. */
export const RETRY_WINDOW_MS = 24 * HOUR;

/** How far each wait may stray from its schedule, either way, so that the receivers of many deliveries are not hit all at once. */
export const JITTER = 0.2;

/** The wait after failed attempt number `attempt` (from 1), with jitter from `random` (in [0, 1)). */
export function retryDelay(attempt: number, random: () => number): number {
  const base = RETRY_DELAYS_MS[Math.min(Math.max(attempt, 1), RETRY_DELAYS_MS.length) - 1]!;
  return Math.round(base * (1 - JITTER + 2 * JITTER * random()));
}

/** What an attempt got: an HTTP status, or an error before one came (timeout, refused connection, refused address). */
export type AttemptOutcome = { readonly statusCode: number } | { readonly error: string };

/**
 * The delivery after an attempt ended at `at`: any 2xx is `delivered`; anything else is tried again
 * after a growing wait with jitter, until the retry window (24 hours from `since`) has passed:
 * then `failed`. A 3xx is a failure (redirects are not followed).
 * @example
 * settleAttempt(claimed, { statusCode: 503 }, Date.now(), Math.random); // { status: "pending", nextAttemptAt: ..., error: "answered 503" }
 */
export function settleAttempt(claimed: Pick<ClaimedDelivery, "attempt" | "since">, outcome: AttemptOutcome, at: number, random: () => number): DeliverySettlement {
  if ("statusCode" in outcome && outcome.statusCode >= 200 && outcome.statusCode < 300) {
    return { status: "delivered", nextAttemptAt: at, statusCode: outcome.statusCode, error: null, at };
  }
  const statusCode = "statusCode" in outcome ? outcome.statusCode : null;
  const error = "error" in outcome ? outcome.error : answeredError(outcome.statusCode);
  if (at - claimed.since >= RETRY_WINDOW_MS) return { status: "failed", nextAttemptAt: at, statusCode, error, at };
  return { status: "pending", nextAttemptAt: at + retryDelay(claimed.attempt, random), statusCode, error, at };
}

function answeredError(statusCode: number): string {
  return statusCode >= 300 && statusCode < 400 ? `answered ${statusCode} (redirects are not followed)` : `answered ${statusCode}`;
}
