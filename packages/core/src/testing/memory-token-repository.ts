import type { AccessToken } from "../auth/access-token.ts";
import type { TokenRepository } from "../ports/token-repository.port.ts";
import type { UndoRecorder } from "./memory-session-repository.ts";

/** The in-memory TokenRepository of the memory store. */
export function createMemoryTokenRepository(record: UndoRecorder = () => {}): TokenRepository {
  // Keyed by id; insertion order is creation order.
  const tokens = new Map<string, AccessToken>();
  const copy = (token: AccessToken): AccessToken => structuredClone(token);
  const remove = (id: string) => {
    const previous = tokens.get(id);
    if (!previous) return false;
    tokens.delete(id);
    record(() => tokens.set(id, previous));
    return true;
  };
  const byHash = (hash: string) => [...tokens.values()].find((t) => t.hash === hash);
  return {
    create(token) {
      if (tokens.has(token.id) || byHash(token.hash)) throw new Error(`Token ${token.id} exists`);
      tokens.set(token.id, copy(token));
      record(() => tokens.delete(token.id));
    },
    byHash: (hash) => {
      const token = byHash(hash);
      return token && copy(token);
    },
    byId: (id) => {
      const token = tokens.get(id);
      return token && copy(token);
    },
    list: () => [...tokens.values()].map(copy),
    delete: remove,
    consume: (hash) => {
      const token = byHash(hash);
      return token ? remove(token.id) : false;
    },
    deleteExpired: (now) => {
      const t = Date.parse(now);
      return [...tokens.values()].filter((x) => x.expiresAt !== null && Date.parse(x.expiresAt) <= t).filter((x) => remove(x.id)).length;
    },
  };
}
