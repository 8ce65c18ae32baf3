import type { Database } from "better-sqlite3";
import type { ElementLock, LockRepository } from "@lineage/core";

interface LockRow {
  initid: number;
  account_id: number;
  temporary: number;
  locked_at: string;
}

const toLock = (row: LockRow): ElementLock => ({ initid: row.initid, accountId: row.account_id, temporary: row.temporary === 1, lockedAt: row.locked_at });

/** Locks in SQLite (schema-locks.ts), over prepared statements. */
export function createLockRepository(client: Database): LockRepository {
  const byElement = client.prepare<[number], LockRow>("select initid, account_id, temporary, locked_at from element_locks where initid = ?");
  const byElements = client.prepare<[string], LockRow>(
    "select initid, account_id, temporary, locked_at from element_locks where initid in (select value from json_each(?))",
  );
  const save = client.prepare(
    "insert into element_locks (initid, account_id, temporary, locked_at) values (?, ?, ?, ?) " +
      "on conflict (initid) do update set account_id = excluded.account_id, temporary = excluded.temporary, locked_at = excluded.locked_at",
  );
  const remove = client.prepare("delete from element_locks where initid = ?");
  return {
    async byElement(initid) {
      const row = byElement.get(initid);
      return row && toLock(row);
    },
    async byElements(initids) {
      if (initids.length === 0) return [];
      return byElements.all(JSON.stringify([...new Set(initids)])).map(toLock);
    },
    async save(lock) {
      save.run(lock.initid, lock.accountId, lock.temporary ? 1 : 0, lock.lockedAt);
    },
    async remove(initid) {
      return remove.run(initid).changes > 0;
    },
  };
}
