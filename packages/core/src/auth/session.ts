import { toBase64Url } from "../crypto/encoding.ts";
import { randomBytes } from "../crypto/random-bytes.ts";

/** A login session of the html authenticator. `id` is the hash of the cookie value, never the value itself. */
export interface Session {
  readonly id: string;
  readonly accountId: number;
  /** The form token that state-changing forms of this session must carry (logout). */
  readonly csrfToken: string;
  readonly createdAt: string;
  /** Idle expiry: pushed forward while the session is used (renewal). */
  readonly expiresAt: string;
  /** Hard limit: no renewal goes past it. */
  readonly absoluteExpiresAt: string;
}

/** How long sessions live. */
export interface SessionPolicy {
  /** Idle lifetime (seconds); 2 hours by default. */
  readonly idleSeconds: number;
  /** Absolute lifetime (seconds), renewals included; 24 hours by default. */
  readonly absoluteSeconds: number;
}

export const DEFAULT_SESSION_POLICY: SessionPolicy = { idleSeconds: 2 * 3600, absoluteSeconds: 24 * 3600 };

/** A fresh unguessable value (32 random bytes, base64url): session cookies and form tokens. */
export function newSessionSecret(): string {
  return toBase64Url(randomBytes(32));
}

/** True when the session is over at `now` (idle or absolute expiry). */
export function isSessionExpired(session: Session, now: Date): boolean {
  const t = now.getTime();
  return Date.parse(session.expiresAt) <= t || Date.parse(session.absoluteExpiresAt) <= t;
}

/**
 * The new idle expiry when the session is used at `now`, or undefined when
 * it need not move yet: renewing only past half of the idle life keeps
 * writes rare under busy traffic.
 */
export function renewedExpiry(session: Session, policy: SessionPolicy, now: Date): string | undefined {
  const remaining = Date.parse(session.expiresAt) - now.getTime();
  if (remaining > (policy.idleSeconds * 1000) / 2) return undefined;
  const next = Math.min(now.getTime() + policy.idleSeconds * 1000, Date.parse(session.absoluteExpiresAt));
  return next > Date.parse(session.expiresAt) ? new Date(next).toISOString() : undefined;
}
