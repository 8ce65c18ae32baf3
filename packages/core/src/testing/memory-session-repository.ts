import type { Session } from "../auth/session.ts";
import type { SessionRepository } from "../ports/session-repository.port.ts";
import type { Table } from "./memory-tables.ts";

/**
 * An in-memory SessionRepository over `sessions` (the memory store passes its table, so that
 * sessions join its transactions); alone, it keeps its own.
 */
export function createMemorySessionRepository(sessions: Table<string, Session> = new Map()): SessionRepository {
  const remove = (id: string) => sessions.delete(id);
  const all = () => [...sessions.values()];
  return {
    async create(session) {
      if (sessions.has(session.id)) throw new Error(`Session ${session.id} exists`);
      sessions.set(session.id, { ...session });
    },
    async byId(id) {
      const session = sessions.get(id);
      return session && { ...session };
    },
    async extend(id, expiresAt) {
      const previous = sessions.get(id);
      if (previous) sessions.set(id, { ...previous, expiresAt });
    },
    async delete(id) {
      return remove(id);
    },
    async deleteForAccount(accountId) {
      return all().filter((s) => s.accountId === accountId).filter((s) => remove(s.id)).length;
    },
    async deleteExpired(now) {
      const t = Date.parse(now);
      return all().filter((s) => Date.parse(s.expiresAt) <= t || Date.parse(s.absoluteExpiresAt) <= t).filter((s) => remove(s.id)).length;
    },
  };
}
