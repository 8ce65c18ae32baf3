import { and, asc, eq, isNotNull, lte, sql } from "drizzle-orm";
import type { BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import type { AccessToken, TokenRepository } from "@lineage/core";
import { accessTokens } from "./schema-auth.ts";

type Row = typeof accessTokens.$inferSelect;

/** Access tokens in SQLite; a token created by the CLI is seen at once by a running server. */
export function createTokenRepository(db: BetterSQLite3Database): TokenRepository {
  const byHash = db.select().from(accessTokens).where(eq(accessTokens.hash, sql.placeholder("hash"))).prepare();
  const byId = db.select().from(accessTokens).where(eq(accessTokens.id, sql.placeholder("id"))).prepare();
  const all = db.select().from(accessTokens).orderBy(asc(accessTokens.seq)).prepare();
  // One DELETE: of two consumers (connections or processes), only the one whose statement deleted the row sees a change.
  const consume = db.delete(accessTokens).where(eq(accessTokens.hash, sql.placeholder("hash"))).prepare();
  return {
    async create(token) {
      db.insert(accessTokens).values({
        id: token.id, hash: token.hash, accountId: token.accountId, routes: token.routes, expiresAt: token.expiresAt,
        oneshot: token.oneshot, description: token.description, createdAt: token.createdAt,
      }).run();
    },
    async byHash(hash) {
      return toToken(byHash.get({ hash }));
    },
    async byId(id) {
      return toToken(byId.get({ id }));
    },
    async list() {
      return all.all().map((row) => toToken(row)!);
    },
    async delete(id) {
      return db.delete(accessTokens).where(eq(accessTokens.id, id)).run().changes > 0;
    },
    async consume(hash) {
      return consume.run({ hash }).changes > 0;
    },
    async deleteExpired(now) {
      return db.delete(accessTokens).where(and(isNotNull(accessTokens.expiresAt), lte(accessTokens.expiresAt, now))).run().changes;
    },
  };
}

function toToken(row: Row | undefined): AccessToken | undefined {
  if (!row) return undefined;
  const { seq: _seq, ...token } = row;
  return token;
}
