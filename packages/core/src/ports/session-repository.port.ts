import type { Session } from "../auth/session.ts";

/** Login sessions of the html authenticator, keyed by the hash of their cookie value. */
export interface SessionRepository {
  create(session: Session): Promise<void>;
  byId(id: string): Promise<Session | undefined>;
  /** Moves the idle expiry (renewal); no-op for an unknown id. */
  extend(id: string, expiresAt: string): Promise<void>;
  /** Ends a session; true when it existed. */
  delete(id: string): Promise<boolean>;
  /** Ends every session of an account (password change, account removal); returns how many. */
  deleteForAccount(accountId: number): Promise<number>;
  /** Forgets the sessions over at `now` (ISO); returns how many. */
  deleteExpired(now: string): Promise<number>;
}
