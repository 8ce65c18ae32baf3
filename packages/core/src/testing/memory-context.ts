import type { Clock } from "../ports/clock.port.ts";
import type { CounterName, MemoryTables } from "./memory-tables.ts";

/** What the memory repositories work through: the tables of the store or of one transaction. */
export interface MemoryContext {
  readonly tables: MemoryTables;
  /** Dates the vault stamps on new files. */
  readonly clock: Clock;
  /** The next id of a sequence (rolled back with the transaction, as SQLite's AUTOINCREMENT is). */
  nextId(name: CounterName): number;
  /** Call on every write of a definition: raises the definitions counter, once per transaction. */
  definitionsWritten(): void;
  /** True once this transaction raised the definitions counter. */
  wroteDefinitions(): boolean;
}

export function createMemoryContext(tables: MemoryTables, clock: Clock): MemoryContext {
  let wrote = false;
  const nextId = (name: CounterName) => {
    const id = (tables.counters.get(name) ?? 0) + 1;
    tables.counters.set(name, id);
    return id;
  };
  return {
    tables,
    clock,
    nextId,
    definitionsWritten() {
      if (wrote) return;
      nextId("definitions");
      wrote = true;
    },
    wroteDefinitions: () => wrote,
  };
}
