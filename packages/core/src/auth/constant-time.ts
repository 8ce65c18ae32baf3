import { createHash, timingSafeEqual } from "node:crypto";

/** Compares two secrets in time independent of where they differ (and of their lengths: both are digested first). */
export function constantTimeEqual(a: string, b: string): boolean {
  const digest = (text: string) => createHash("sha256").update(text, "utf8").digest();
  return timingSafeEqual(digest(a), digest(b));
}
