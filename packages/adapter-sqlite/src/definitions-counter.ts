import type { Database } from "better-sqlite3";

/** The definitions counter (schema-changes.ts) as one connection reads and raises it. */
export interface DefinitionsCounter {
  /** Call on every write of a definition: raises the counter, once per transaction. */
  raise(): void;
  /** True once the running transaction raised the counter. */
  raised(): boolean;
  /** The counter as the connection sees it (0 before any definition was written). */
  value(): number;
  /** Call as a transaction begins. */
  reset(): void;
}

export function createDefinitionsCounter(client: Database): DefinitionsCounter {
  const raise = client.prepare(
    "insert into definitions_version (id, version) values (1, 1) on conflict(id) do update set version = version + 1",
  );
  const read = client.prepare("select coalesce((select version from definitions_version where id = 1), 0)").pluck();
  let raised = false;
  return {
    raise() {
      if (raised) return;
      raise.run();
      raised = true;
    },
    raised: () => raised,
    value: () => read.get() as number,
    reset() {
      raised = false;
    },
  };
}
