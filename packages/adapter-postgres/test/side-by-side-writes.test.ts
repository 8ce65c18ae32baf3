import { afterEach, describe, expect, it } from "vitest";
import type { ElementRevision, NewEvent, Repositories } from "@lineage/core";
import { lifecyclePlatform } from "@lineage/core/testing";
import { openPostgresStore, type PostgresStore } from "../src/index.ts";
import { freshDatabase } from "../src/testing/fresh-database.ts";

/*
 * Writers of two nodes on one database go side by side: no lock every write transaction takes.
 * Those of one lineage take turns, and the logs' readers meet numbers in commit order, never one
 * below a number they already passed.
 */

const opened: PostgresStore[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});

/** Two stores (two nodes) on one fresh database. */
async function twoNodes(): Promise<[PostgresStore, PostgresStore]> {
  const url = await freshDatabase();
  const a = await openPostgresStore({ url });
  const b = await openPostgresStore({ url });
  opened.push(a, b);
  return [a, b];
}

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

/** Runs `fn` in a transaction of `store` that stays open, once `fn` is done, until `release` is called. */
function heldTransaction<T>(store: PostgresStore, fn: (tx: Repositories) => Promise<T>) {
  const reached = gate();
  const release = gate();
  const done = store.transaction(async (tx) => {
    const result = await fn(tx);
    reached.open();
    await release.opened;
    return result;
  });
  return { reached: reached.opened, release: release.open, done };
}

/** True when `promise` has settled within `ms`. */
async function settledWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let settled = false;
  void promise.then(() => (settled = true), () => (settled = true));
  await new Promise((resolve) => setTimeout(resolve, ms));
  return settled;
}

const revision = (name: string): Omit<ElementRevision, "id" | "initid"> => ({
  revision: 0, structure: "ARTICLE", name, title: name, owner: 1, status: "alive", fixed: false, state: null, values: {},
  createdAt: "2026-01-01T00:00:00.000Z", modifiedAt: "2026-01-01T00:00:00.000Z", importKey: null, ownProfile: null, profile: null,
});

const event = (initid: number): NewEvent => ({
  type: "element.updated", time: "2026-01-01T00:00:00.000Z", initid, id: initid, name: null, structure: "ARTICLE", revision: 0, state: null, actor: "test",
});

describe("writes side by side on PostgreSQL", () => {
  it("commits another node's write of another element while a transaction stays open", async () => {
    const [a, b] = await twoNodes();
    const [x, y] = await Promise.all([a.elements.insert(revision("X")), a.elements.insert(revision("Y"))]);
    const held = heldTransaction(a, async (tx) => {
      const current = (await tx.elements.latest(x.initid))!;
      await tx.elements.save({ ...current, title: "held" });
    });
    await held.reached;
    try {
      const other = b.transaction(async (tx) => {
        const current = (await tx.elements.latest(y.initid))!;
        await tx.elements.save({ ...current, title: "changed" });
      });
      // With a lock every writer takes, this one would wait for the held transaction (up to 10 s).
      expect(await settledWithin(other, 3000)).toBe(true);
      await other;
      expect((await a.elements.latest(y.initid))!.title).toBe("changed");
      expect((await b.elements.latest(x.initid))!.title).toBe("X");
    } finally {
      held.release();
    }
    await held.done;
    expect((await b.elements.latest(x.initid))!.title).toBe("held");
  });

  it("makes two writers of one element take turns, the second reading what the first committed", async () => {
    const [a, b] = await twoNodes();
    const x = await a.elements.insert(revision("X"));
    const held = heldTransaction(a, async (tx) => {
      const current = (await tx.elements.latestByName("X"))!;
      await tx.elements.save({ ...current, title: `${current.title}+a` });
    });
    await held.reached;
    const second = b.transaction(async (tx) => {
      const current = (await tx.elements.latest(x.initid))!;
      await tx.elements.save({ ...current, title: `${current.title}+b` });
      return current.title;
    });
    expect(await settledWithin(second, 300)).toBe(false);
    held.release();
    await held.done;
    expect(await second).toBe("X+a");
    expect((await a.elements.latest(x.initid))!.title).toBe("X+a+b");
  });

  it("gives one winner to two nodes that look a name up, then insert it", async () => {
    const [a, b] = await twoNodes();
    const claim = (store: PostgresStore) => store.transaction(async (tx) => {
      if (await tx.elements.latestByName("UNIQUE")) return "found";
      await new Promise((resolve) => setTimeout(resolve, 50));
      await tx.elements.insert(revision("UNIQUE"));
      return "inserted";
    });
    expect((await Promise.all([claim(a), claim(b)])).sort()).toEqual(["found", "inserted"]);
  });

  it("never lets a reader pass a number that a slower transaction still running commits later", async () => {
    const [a, b] = await twoNodes();
    const slow = heldTransaction(a, async (tx) => {
      return (await tx.events.append(event(1))).seq;
    });
    await slow.reached;
    const clockBefore = await b.changes.read();
    const fast = await b.transaction(async (tx) => {
      return (await tx.events.append(event(2))).seq;
    });
    try {
      // The faster one committed first, with a larger number: readers wait for the slower one.
      expect((await b.events.after(0, 10)).map((e) => e.initid)).toEqual([]);
      expect(await b.events.lastSeq()).toBe(0);
      // A search applies the committed change all the same, its position left below the slower one's number.
      expect((await b.events.beyond!(0, 10)).map((e) => e.initid)).toEqual([2]);
      // The change clock moves with the commit all the same: caches drop what it replaced.
      expect((await a.changes.read()).data).not.toBe(clockBefore.data);
    } finally {
      slow.release();
    }
    const slowSeq = await slow.done;
    expect(slowSeq).toBeLessThan(fast);
    const events = await b.events.after(0, 10);
    expect(events.map((e) => [e.initid, e.seq])).toEqual([[1, slowSeq], [2, fast]]);
    expect(await a.events.lastSeq()).toBe(fast);
    expect(await a.events.beyond!(0, 10)).toEqual([]);
  });

  it("lets a PUT of another element through at once, on either node, while a hook waits 2 s in m1", async () => {
    const [a, b] = await twoNodes();
    const inHook = gate();
    const seed = await lifecyclePlatform(a, {
      check: async () => {
        inHook.open();
        await new Promise((resolve) => setTimeout(resolve, 2000));
      },
    });
    const nodes = [seed.platform, seed.twin(b)];
    const alice = await seed.principal("alice");
    await seed.platform.lifecycle.runTransition(alice, "ART_HELLO", "submit");
    let n = 0;
    const put = async (node: number) => {
      const started = performance.now();
      await nodes[node]!.elements.update(alice, "ART_ZEBRA", { values: { ar_title: `Zebra ${n++}` } });
      return performance.now() - started;
    };
    // The usual time of a PUT on each node, its statements prepared on its connections.
    const usual = [Math.min(await put(0), await put(0), await put(0)), Math.min(await put(1), await put(1), await put(1))];
    const publishing = seed.platform.lifecycle.runTransition(alice, "ART_HELLO", "publish", { parameters: { pub_date: "2026-05-01" } });
    await inHook.opened;
    const during = [Math.min(await put(0), await put(0), await put(0)), Math.min(await put(1), await put(1), await put(1))];
    expect(await settledWithin(publishing, 0)).toBe(false);
    await publishing;
    expect(during[0]! - usual[0]!).toBeLessThan(50);
    expect(during[1]! - usual[1]!).toBeLessThan(50);
  });
});
