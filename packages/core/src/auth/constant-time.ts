import { sha256 } from "../crypto/sha256.ts";
import { timingSafeEqual } from "../crypto/timing-safe-equal.ts";

/** Compares two secrets in time independent of where they differ (and of their lengths: both are digested first). */
export function constantTimeEqual(a: string, b: string): boolean {
  return timingSafeEqual(sha256(a), sha256(b));
}
