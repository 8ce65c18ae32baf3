import type { Session, SessionRepository } from "@lineage/core";
import { statement, type SqlClient } from "./sql-client.ts";

const BY_ID = statement("select id, account_id, csrf_token, created_at, expires_at, absolute_expires_at from sessions where id = $1");
const CREATE = statement(
  "insert into sessions (id, account_id, csrf_token, created_at, expires_at, absolute_expires_at) values ($1, $2, $3, $4, $5, $6)",
);
const EXTEND = statement("update sessions set expires_at = $2 where id = $1");
const DELETE = statement("delete from sessions where id = $1");
const DELETE_FOR_ACCOUNT = statement("delete from sessions where account_id = $1");
// ISO dates of one format sort as text (collate "C": by code point, whatever the database's collation).
const DELETE_EXPIRED = statement(`delete from sessions where expires_at collate "C" <= $1 or absolute_expires_at collate "C" <= $1`);

/** Sessions in PostgreSQL: a session opened on one node works on every node. */
export function createSessionRepository(sql: SqlClient): SessionRepository {
  return {
    async create(s) {
      await sql.run(CREATE, [s.id, s.accountId, s.csrfToken, s.createdAt, s.expiresAt, s.absoluteExpiresAt]);
    },
    async byId(id) {
      const [row] = await sql.rows(BY_ID, [id]);
      return row && toSession(row);
    },
    async extend(id, expiresAt) {
      await sql.run(EXTEND, [id, expiresAt]);
    },
    async delete(id) {
      return (await sql.run(DELETE, [id])) > 0;
    },
    deleteForAccount: (accountId) => sql.run(DELETE_FOR_ACCOUNT, [accountId]),
    deleteExpired: (now) => sql.run(DELETE_EXPIRED, [now]),
  };
}

function toSession(row: unknown[]): Session {
  return {
    id: row[0] as string, accountId: row[1] as number, csrfToken: row[2] as string, createdAt: row[3] as string,
    expiresAt: row[4] as string, absoluteExpiresAt: row[5] as string,
  };
}
