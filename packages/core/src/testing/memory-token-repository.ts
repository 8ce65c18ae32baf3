import type { AccessToken } from "../auth/access-token.ts";
import type { TokenRepository } from "../ports/token-repository.port.ts";
import type { Table } from "./memory-tables.ts";
import { frozenCopy } from "./memory-tables.ts";

/**
 * An in-memory TokenRepository over `tokens`, keyed by id in creation order (the memory store
 * passes its table, so that tokens join its transactions); alone, it keeps its own.
 */
export function createMemoryTokenRepository(tokens: Table<string, AccessToken> = new Map()): TokenRepository {
  const all = () => [...tokens.values()];
  const byHash = (hash: string) => all().find((t) => t.hash === hash);
  const remove = (id: string) => tokens.delete(id);
  return {
    async create(token) {
      if (tokens.has(token.id) || byHash(token.hash)) throw new Error(`Token ${token.id} exists`);
      tokens.set(token.id, frozenCopy(token));
    },
    async byHash(hash) {
      return byHash(hash);
    },
    async byId(id) {
      return tokens.get(id);
    },
    async list() {
      return all();
    },
    async delete(id) {
      return remove(id);
    },
    async consume(hash) {
      const token = byHash(hash);
      return token ? remove(token.id) : false;
    },
    async deleteExpired(now) {
      const t = Date.parse(now);
      return all().filter((x) => x.expiresAt !== null && Date.parse(x.expiresAt) <= t).filter((x) => remove(x.id)).length;
    },
  };
}
