import type { ElementLock, LockRepository } from "@lineage/core";
import { statement, type SqlClient } from "./sql-client.ts";

const COLUMNS = "initid, account_id, temporary, locked_at";
const BY_ELEMENT = statement(`select ${COLUMNS} from element_locks where initid = $1`);
const BY_ELEMENTS = statement(`select ${COLUMNS} from element_locks where initid = any($1::int[])`);
const SAVE = statement(
  `insert into element_locks (${COLUMNS}) values ($1, $2, $3, $4) ` +
    "on conflict (initid) do update set account_id = excluded.account_id, temporary = excluded.temporary, locked_at = excluded.locked_at",
);
const REMOVE = statement("delete from element_locks where initid = $1");

const toLock = (row: unknown[]): ElementLock => ({
  initid: row[0] as number, accountId: row[1] as number, temporary: row[2] as boolean, lockedAt: row[3] as string,
});

/** Locks in PostgreSQL (schema.ts): every node reads the same locks; a transaction that changes one has read its element first, which locks its lineage (transaction-locks.ts), so two writers of one lock take turns. */
export function createLockRepository(sql: SqlClient): LockRepository {
  return {
    async byElement(initid) {
      const [row] = await sql.rows(BY_ELEMENT, [initid]);
      return row && toLock(row);
    },
    async byElements(initids) {
      if (initids.length === 0) return [];
      return (await sql.rows(BY_ELEMENTS, [[...new Set(initids)]])).map(toLock);
    },
    async save(lock) {
      await sql.run(SAVE, [lock.initid, lock.accountId, lock.temporary, lock.lockedAt]);
    },
    async remove(initid) {
      return (await sql.run(REMOVE, [initid])) > 0;
    },
  };
}
