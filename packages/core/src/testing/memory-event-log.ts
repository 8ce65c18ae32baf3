import type { EventLog } from "../ports/event-log.port.ts";
import type { MemoryContext } from "./memory-context.ts";
import { frozenCopy } from "./memory-tables.ts";

/** The memory store's event log: seqs from a counter that rolls back with the transaction (one writer at a time: commit order). */
export function createMemoryEventLog({ tables, nextId }: MemoryContext): EventLog {
  const counter = (name: "event" | "eventsPruned") => tables.counters.get(name) ?? 0;
  return {
    async append(event) {
      const seq = nextId("event");
      const stored = frozenCopy({ seq, ...event });
      tables.events.set(seq, stored);
      return stored;
    },
    async after(seq, limit, filter = {}) {
      const types = filter.types && new Set<string>(filter.types);
      const structures = filter.structures && new Set(filter.structures);
      const initids = filter.initids && new Set(filter.initids);
      const found = [];
      for (const event of tables.events.values()) {
        if (found.length >= limit) break;
        if (event.seq <= seq || (types && !types.has(event.type)) || (structures && !structures.has(event.structure)) || (initids && !initids.has(event.initid))) continue;
        found.push(event);
      }
      return found;
    },
    async lastSeq() {
      return counter("event");
    },
    async oldestSeq() {
      return counter("eventsPruned") + 1;
    },
    async prune(before) {
      let last = 0;
      for (const event of tables.events.values()) {
        if (Date.parse(event.time) >= Date.parse(before)) break;
        last = event.seq;
      }
      if (last === 0) return 0;
      const gone = [...tables.events.values()].filter((event) => event.seq <= last).map((event) => event.seq);
      for (const seq of gone) tables.events.delete(seq);
      tables.counters.set("eventsPruned", last);
      return gone.length;
    },
  };
}
