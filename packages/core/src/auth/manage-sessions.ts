import type { Store } from "../ports/store.port.ts";
import type { Clock } from "../ports/clock.port.ts";
import { secretHash } from "./access-token.ts";
import { isSessionExpired, newSessionSecret, renewedExpiry, type Session, type SessionPolicy } from "./session.ts";

/** Opens a session for an account; returns the cookie value (shown once, stored hashed) and the session. */
export async function openSession(store: Store, clock: Clock, policy: SessionPolicy, accountId: number): Promise<{ secret: string; session: Session }> {
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
  await store.sessions.deleteExpired(now.toISOString());
  await store.sessions.create(session);
  return { secret, session };
}

/** The live session a cookie value designates, renewed when due; undefined (and forgotten) once expired. */
export async function resumeSession(store: Store, clock: Clock, policy: SessionPolicy, secret: string): Promise<Session | undefined> {
  if (secret.length > 200) return undefined;
  const session = await store.sessions.byId(secretHash(secret));
  if (!session) return undefined;
  const now = clock.now();
  if (isSessionExpired(session, now)) {
    await store.sessions.delete(session.id);
    return undefined;
  }
  const expiresAt = renewedExpiry(session, policy, now);
  if (!expiresAt) return session;
  await store.sessions.extend(session.id, expiresAt);
  return { ...session, expiresAt };
}

/** Ends the session a cookie value designates (logout). */
export async function closeSession(store: Store, secret: string): Promise<void> {
  await store.sessions.delete(secretHash(secret));
}
