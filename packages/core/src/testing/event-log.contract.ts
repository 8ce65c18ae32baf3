import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ElementEvent, NewEvent } from "../events/element-event.ts";
import type { Store } from "../ports/store.port.ts";
import { date, deferred } from "./store-fixtures.ts";

/** A small valid event, each property overridable. */
function event(overrides: Partial<NewEvent> = {}): NewEvent {
  return {
    type: "element.updated", time: date(1), initid: 5, id: 16, name: "ART_HELLO", structure: "ARTICLE", revision: 1, state: "review",
    actor: "alice", ...overrides,
  };
}

const seqs = (events: readonly ElementEvent[]) => events.map((e) => e.seq);
const initids = (events: readonly ElementEvent[]) => events.map((e) => e.initid);

/**
 * The behaviour every store's event log shares (the EventLog port), as one vitest suite; `open`
 * must give an empty store, and is called once per test. Seqs are only asked to increase in
 * commit order and never to come back: a store may skip numbers.
 *
 * @example
 * eventLogContract("memory", () => createMemoryStore());
 */
export function eventLogContract(name: string, open: () => Store | Promise<Store>): void {
  describe(`EventLog contract: ${name}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await open();
    });
    afterEach(() => store.close());

    /** Appends events one transaction each, answering them as stored. */
    const appendAll = async (events: readonly NewEvent[]) => {
      const appended: ElementEvent[] = [];
      for (const e of events) appended.push(await store.transaction((tx) => tx.events.append(e)));
      return appended;
    };

    it("starts empty: no event, last seq 0, oldest seq 1", async () => {
      expect(await store.events.after(0, 10)).toEqual([]);
      expect(await store.events.lastSeq()).toBe(0);
      expect(await store.events.oldestSeq()).toBe(1);
    });

    it("keeps every property of an appended event, and answers it with its seq", async () => {
      const full = event({
        type: "element.state", name: "Été ☃ 𝄞 \"quoted\"", transition: { id: "submit", from: "draft", to: "review" },
        changes: {
          ar_title: { before: "Old", after: "New \u0000 ☃" }, ar_n: { before: null, after: 1.5 },
          ar_tags: { before: [], after: ["a", "b"] }, ar_rows: { before: [["x"], []], after: [[], ["y", "z"]] },
        },
      });
      const appended = await store.transaction((tx) => tx.events.append(full));
      expect(appended).toEqual({ ...full, seq: appended.seq });
      expect(appended.seq).toBeGreaterThan(0);
      expect(await store.events.after(0, 10)).toEqual([appended]);
      // Key order is kept, as the API answers it.
      expect(Object.keys((await store.events.after(0, 10))[0]!.changes!)).toEqual(["ar_title", "ar_n", "ar_tags", "ar_rows"]);
      const folder = await store.transaction((tx) => tx.events.append(event({ type: "folder.added", element: 9, name: null, state: null })));
      expect((await store.events.after(appended.seq, 10))[0]).toEqual(folder);
      expect(await store.events.lastSeq()).toBe(folder.seq);
    });

    it("gives increasing seqs in commit order, several in one transaction included", async () => {
      const [a, b] = await store.transaction(async (tx) => [await tx.events.append(event({ initid: 1 })), await tx.events.append(event({ initid: 2 }))]);
      const [c] = await appendAll([event({ initid: 3 })]);
      expect(a!.seq).toBeLessThan(b!.seq);
      expect(b!.seq).toBeLessThan(c!.seq);
      expect(initids(await store.events.after(0, 10))).toEqual([1, 2, 3]);
    });

    it("appends nothing for a rolled-back transaction, and never gives its seqs to a committed event before the ones committed", async () => {
      const [first] = await appendAll([event({ initid: 1 })]);
      await expect(store.transaction(async (tx) => {
        await tx.events.append(event({ initid: 2 }));
        expect(initids(await tx.events.after(0, 10))).toEqual([1, 2]);
        throw new Error("rolled back");
      })).rejects.toThrow("rolled back");
      expect(initids(await store.events.after(0, 10))).toEqual([1]);
      expect(await store.events.lastSeq()).toBe(first!.seq);
      const [third] = await appendAll([event({ initid: 3 })]);
      expect(third!.seq).toBeGreaterThan(first!.seq);
      expect(initids(await store.events.after(0, 10))).toEqual([1, 3]);
    });

    it("numbers concurrent transactions in the order they commit", async () => {
      const entered = deferred();
      const release = deferred();
      const slow = store.transaction(async (tx) => {
        entered.resolve();
        await release.promise;
        return tx.events.append(event({ initid: 1 }));
      });
      await entered.promise;
      const fast = store.transaction((tx) => tx.events.append(event({ initid: 2 })));
      release.resolve();
      const [one, two] = await Promise.all([slow, fast]);
      const order = await store.events.after(0, 10);
      // Whichever committed first has the lower seq, and reads in that order.
      expect(seqs(order)).toEqual([one!.seq, two!.seq].sort((x, y) => x - y));
      expect(seqs(order)[0]).toBeLessThan(seqs(order)[1]!);
    });

    it("reads after a seq, in seq order, at most `limit`: pages", async () => {
      const appended = await appendAll(Array.from({ length: 7 }, (_, i) => event({ initid: i + 1 })));
      const pages: number[][] = [];
      for (let after = 0; ;) {
        const page = await store.events.after(after, 3);
        if (page.length === 0) break;
        pages.push(initids(page));
        after = page.at(-1)!.seq;
      }
      expect(pages).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
      expect(await store.events.after(appended[6]!.seq, 3)).toEqual([]);
      expect(initids(await store.events.after(appended[4]!.seq, 100))).toEqual([6, 7]);
    });

    it("filters by types and structures, the limit counting only what passes", async () => {
      await appendAll([
        event({ initid: 1, type: "element.created", structure: "ARTICLE" }),
        event({ initid: 2, type: "element.created", structure: "NOTE" }),
        event({ initid: 3, type: "element.updated", structure: "ARTICLE" }),
        event({ initid: 4, type: "element.deleted", structure: "NOTE" }),
        event({ initid: 5, type: "element.created", structure: "ARTICLE" }),
      ]);
      expect(initids(await store.events.after(0, 10, { types: ["element.created"] }))).toEqual([1, 2, 5]);
      expect(initids(await store.events.after(0, 10, { structures: ["NOTE"] }))).toEqual([2, 4]);
      expect(initids(await store.events.after(0, 10, { types: ["element.created", "element.deleted"], structures: ["NOTE", "OTHER"] }))).toEqual([2, 4]);
      expect(initids(await store.events.after(0, 2, { structures: ["ARTICLE"] }))).toEqual([1, 3]);
      expect(initids(await store.events.after(0, 10, { types: [], structures: ["ARTICLE"] }))).toEqual([]);
      expect(initids(await store.events.after(0, 10, {}))).toEqual([1, 2, 3, 4, 5]);
    });

    it("filters by elements: one element's events in seq order, with the other filters", async () => {
      const appended = await appendAll([
        event({ initid: 1, type: "element.created", structure: "ARTICLE" }),
        event({ initid: 2, type: "element.created", structure: "NOTE" }),
        event({ initid: 1, type: "element.updated", structure: "ARTICLE" }),
        event({ initid: 3, type: "element.created", structure: "ARTICLE" }),
        event({ initid: 1, type: "element.deleted", structure: "ARTICLE" }),
      ]);
      expect(seqs(await store.events.after(0, 10, { initids: [1] }))).toEqual([appended[0]!.seq, appended[2]!.seq, appended[4]!.seq]);
      expect(seqs(await store.events.after(appended[0]!.seq, 1, { initids: [1] }))).toEqual([appended[2]!.seq]);
      expect(initids(await store.events.after(0, 10, { initids: [1, 3], types: ["element.created"] }))).toEqual([1, 3]);
      expect(await store.events.after(0, 10, { initids: [] })).toEqual([]);
    });

    it("prunes the oldest events, up to the first not older than the time: a prefix of the log", async () => {
      const appended = await appendAll([
        event({ initid: 1, time: date(1) }),
        event({ initid: 2, time: date(2) }),
        event({ initid: 3, time: date(5) }),
        // Older than the one before it (another node's clock): kept, since an event before it is.
        event({ initid: 4, time: date(3) }),
        event({ initid: 5, time: date(6) }),
      ]);
      expect(await store.events.prune(date(1))).toBe(0);
      expect(await store.events.oldestSeq()).toBe(1);
      expect(await store.events.prune(date(4))).toBe(2);
      expect(initids(await store.events.after(0, 10))).toEqual([3, 4, 5]);
      expect(await store.events.oldestSeq()).toBe(appended[1]!.seq + 1);
      expect(await store.events.lastSeq()).toBe(appended[4]!.seq);
      expect(await store.events.prune(date(4))).toBe(0);
    });

    it("keeps counting after everything was pruned: the oldest seq is then the next to come", async () => {
      const appended = await appendAll([event({ initid: 1, time: date(1) }), event({ initid: 2, time: date(2) })]);
      expect(await store.events.prune(date(10))).toBe(2);
      expect(await store.events.after(0, 10)).toEqual([]);
      expect(await store.events.lastSeq()).toBe(appended[1]!.seq);
      expect(await store.events.oldestSeq()).toBe(appended[1]!.seq + 1);
      const [next] = await appendAll([event({ initid: 3, time: date(11) })]);
      expect(next!.seq).toBeGreaterThanOrEqual(appended[1]!.seq + 1);
      expect(await store.events.after(appended[1]!.seq, 10)).toEqual([next]);
    });

    it("rolls a prune back with its transaction", async () => {
      await appendAll([event({ initid: 1, time: date(1) })]);
      await expect(store.transaction(async (tx) => {
        expect(await tx.events.prune(date(10))).toBe(1);
        throw new Error("rolled back");
      })).rejects.toThrow("rolled back");
      expect(initids(await store.events.after(0, 10))).toEqual([1]);
      expect(await store.events.oldestSeq()).toBe(1);
    });

    it("tells its watchers (when it has them) of commits that appended events, until they stop watching", async () => {
      if (!store.watchEvents) return;
      let calls = 0;
      const stop = store.watchEvents(() => calls++);
      // A call is a hint that may come for other commits too: only its coming after an append is asked.
      await appendAll([event()]);
      await waitFor(() => calls > 0);
      const seen = calls;
      await appendAll([event()]);
      await waitFor(() => calls > seen);
      stop();
      await new Promise((resolve) => setTimeout(resolve, 50));
      const stopped = calls;
      await appendAll([event()]);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(calls).toBe(stopped);
    });
  });
}

/** Waits (at most 2 s) for a condition a notification makes true. */
async function waitFor(condition: () => boolean): Promise<void> {
  for (const giveUp = Date.now() + 2000; !condition(); await new Promise((resolve) => setTimeout(resolve, 5))) {
    if (Date.now() > giveUp) throw new Error("not notified within 2 s");
  }
}
