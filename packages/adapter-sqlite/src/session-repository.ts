import { eq, lte, or, sql } from "drizzle-orm";
import type { BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import type { Session, SessionRepository } from "@lineage/core";
import { sessions } from "./schema-auth.ts";

/** Sessions in SQLite: every process on the data directory sees the same logins. */
export function createSessionRepository(db: BetterSQLite3Database): SessionRepository {
  const byId = db.select().from(sessions).where(eq(sessions.id, sql.placeholder("id"))).prepare();
  return {
    async create(session) {
      db.insert(sessions).values(columns(session)).run();
    },
    async byId(id) {
      return byId.get({ id });
    },
    async extend(id, expiresAt) {
      db.update(sessions).set({ expiresAt }).where(eq(sessions.id, id)).run();
    },
    async delete(id) {
      return db.delete(sessions).where(eq(sessions.id, id)).run().changes > 0;
    },
    async deleteForAccount(accountId) {
      return db.delete(sessions).where(eq(sessions.accountId, accountId)).run().changes;
    },
    // ISO dates of one format sort as text.
    async deleteExpired(now) {
      return db.delete(sessions).where(or(lte(sessions.expiresAt, now), lte(sessions.absoluteExpiresAt, now))).run().changes;
    },
  };
}

function columns(s: Session): Session {
  return {
    id: s.id, accountId: s.accountId, csrfToken: s.csrfToken, createdAt: s.createdAt, expiresAt: s.expiresAt,
    absoluteExpiresAt: s.absoluteExpiresAt,
  };
}
