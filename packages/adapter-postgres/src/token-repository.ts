import type { AccessToken, TokenRepository, TokenRoute } from "@lineage/core";
import { statement, type SqlClient } from "./sql-client.ts";

const COLUMNS = "id, hash, account_id, routes, expires_at, oneshot, description, created_at";
const BY_HASH = statement(`select ${COLUMNS} from access_tokens where hash = $1`);
const BY_ID = statement(`select ${COLUMNS} from access_tokens where id = $1`);
const ALL = statement(`select ${COLUMNS} from access_tokens order by seq`);
const CREATE = statement(
  "insert into access_tokens (id, hash, account_id, routes, expires_at, oneshot, description, created_at) values ($1, $2, $3, $4, $5, $6, $7, $8)",
);
const DELETE = statement("delete from access_tokens where id = $1");
// One DELETE: of two consumers (on one node or two), only the one whose statement deleted the row sees a change.
const CONSUME = statement("delete from access_tokens where hash = $1");
const DELETE_EXPIRED = statement(`delete from access_tokens where expires_at is not null and expires_at collate "C" <= $1`);

/** Access tokens in PostgreSQL: a token created by the CLI is seen at once by every node. */
export function createTokenRepository(sql: SqlClient): TokenRepository {
  const one = async (s: typeof BY_ID, key: string) => {
    const [row] = await sql.rows(s, [key]);
    return row && toToken(row);
  };
  return {
    async create(t) {
      await sql.run(CREATE, [t.id, t.hash, t.accountId, JSON.stringify(t.routes), t.expiresAt, t.oneshot, t.description, t.createdAt]);
    },
    byHash: (hash) => one(BY_HASH, hash),
    byId: (id) => one(BY_ID, id),
    async list() {
      return (await sql.rows(ALL)).map(toToken);
    },
    async delete(id) {
      return (await sql.run(DELETE, [id])) > 0;
    },
    async consume(hash) {
      return (await sql.run(CONSUME, [hash])) > 0;
    },
    deleteExpired: (now) => sql.run(DELETE_EXPIRED, [now]),
  };
}

function toToken(row: unknown[]): AccessToken {
  return {
    id: row[0] as string, hash: row[1] as string, accountId: row[2] as number, routes: row[3] as TokenRoute[],
    expiresAt: row[4] as string | null, oneshot: row[5] as boolean, description: row[6] as string, createdAt: row[7] as string,
  };
}
