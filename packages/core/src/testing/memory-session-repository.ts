import type { Session } from "../auth/session.ts";
import type { SessionRepository } from "../ports/session-repository.port.ts";

/** Records how to undo a write, so the fake joins the memory store's transactions. */
export type UndoRecorder = (undo: () => void) => void;

/** The in-memory SessionRepository of the memory store. */
export function createMemorySessionRepository(record: UndoRecorder = () => {}): SessionRepository {
  const sessions = new Map<string, Session>();
  const remove = (id: string) => {
    const previous = sessions.get(id);
    if (!previous) return false;
    sessions.delete(id);
    record(() => sessions.set(id, previous));
    return true;
  };
  return {
    create(session) {
      if (sessions.has(session.id)) throw new Error(`Session ${session.id} exists`);
      sessions.set(session.id, { ...session });
      record(() => sessions.delete(session.id));
    },
    byId: (id) => {
      const session = sessions.get(id);
      return session && { ...session };
    },
    extend(id, expiresAt) {
      const previous = sessions.get(id);
      if (!previous) return;
      sessions.set(id, { ...previous, expiresAt });
      record(() => sessions.set(id, previous));
    },
    delete: remove,
    deleteForAccount: (accountId) =>
      [...sessions.values()].filter((s) => s.accountId === accountId).filter((s) => remove(s.id)).length,
    deleteExpired: (now) => {
      const t = Date.parse(now);
      return [...sessions.values()]
        .filter((s) => Date.parse(s.expiresAt) <= t || Date.parse(s.absoluteExpiresAt) <= t)
        .filter((s) => remove(s.id)).length;
    },
  };
}
