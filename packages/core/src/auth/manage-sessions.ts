import type { Store } from "../ports/store.port.ts";
import type { Clock } from "../ports/clock.port.ts";
import { secretHash } from "./access-token.ts";
import { isSessionExpired, newSessionSecret, renewedExpiry, type Session, type SessionPolicy } from "./session.ts";

/** Opens a session for an account; returns the cookie value (shown once, stored hashed) and the session. */
export function openSession(store: Store, clock: Clock, policy: SessionPolicy, accountId: number): { secret: string; session: Session } {
  const now = clock.now();
  const secret = newSessionSecret();
  const session: Session = {
    id: secretHash(secret),
    accountId,
    csrfToken: newSessionSecret(),
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + Math.min(policy.idleSeconds, policy.absoluteSeconds) * 1000).toISOString(),
    absoluteExpiresAt: new Date(now.getTime() + policy.absoluteSeconds * 1000).toISOString(),
  };
  store.sessions.deleteExpired(now.toISOString());
  store.sessions.create(session);
  return { secret, session };
}

/** The live session a cookie value designates, renewed when due; undefined (and forgotten) once expired. */
export function resumeSession(store: Store, clock: Clock, policy: SessionPolicy, secret: string): Session | undefined {
  if (secret.length > 200) return undefined;
  const session = store.sessions.byId(secretHash(secret));
  if (!session) return undefined;
  const now = clock.now();
  if (isSessionExpired(session, now)) {
    store.sessions.delete(session.id);
    return undefined;
  }
  const expiresAt = renewedExpiry(session, policy, now);
  if (!expiresAt) return session;
  store.sessions.extend(session.id, expiresAt);
  return { ...session, expiresAt };
}

/** Ends the session a cookie value designates (logout). */
export function closeSession(store: Store, secret: string): void {
  store.sessions.delete(secretHash(secret));
}
