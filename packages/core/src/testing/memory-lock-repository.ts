import type { ElementLock } from "../elements/element-lock.ts";
import type { LockRepository } from "../ports/lock-repository.port.ts";
import type { Table } from "./memory-tables.ts";

/** The memory store's locks, one row per lineage. */
export function createMemoryLockRepository(locks: Table<number, ElementLock>): LockRepository {
  return {
    async byElement(initid) {
      return locks.get(initid);
    },
    async byElements(initids) {
      return [...new Set(initids)].map((initid) => locks.get(initid)).filter((lock) => lock !== undefined);
    },
    async save(lock) {
      locks.set(lock.initid, Object.freeze({ ...lock }));
    },
    async remove(initid) {
      return locks.delete(initid);
    },
  };
}
