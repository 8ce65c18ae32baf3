import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { NewRevision, Store } from "@lineage/core";
import { openSqliteStore } from "../src/index.ts";

/*
 * Group commit (write-transactions.ts): transactions that queued while another ran share its
 * successor's commit, each in a savepoint. What each caller sees must not change: all or nothing
 * per transaction, in the order asked, and no answer before its commit.
 */

const opened: { store: Store; dir: string }[] = [];
afterEach(async () => {
  for (const { store, dir } of opened.splice(0)) {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

function openStore(): Store {
  const dir = mkdtempSync(join(tmpdir(), "lineage-group-commit-"));
  const store = openSqliteStore({ dataDir: dir });
  opened.push({ store, dir });
  return store;
}

const revision = (title: string): NewRevision => ({
  revision: 0, structure: "article", name: null, title, owner: 1, status: "alive", fixed: false, state: null, values: {},
  createdAt: "2026-01-01T00:00:00.000Z", modifiedAt: "2026-01-01T00:00:00.000Z", importKey: null, ownProfile: null, profile: null,
});

/** A promise with its resolve function, to hold a transaction open at a chosen await. */
function gate(): { promise: Promise<void>; open(): void } {
  let open!: () => void;
  const promise = new Promise<void>((done) => {
    open = done;
  });
  return { promise, open };
}

describe("SQLite group commit", () => {
  it("runs the transactions queued behind one in the order asked, each seeing those before it", async () => {
    const store = openStore();
    const first = gate();
    const held = store.transaction(async (tx) => {
      await first.promise;
      return (await tx.elements.insert(revision("first"))).id;
    });
    const seen: string[][] = [];
    const queued = ["a", "b", "c"].map((title) => store.transaction(async (tx) => {
      const before = await tx.elements.byIds([1, 2, 3, 4, 5, 6]);
      seen.push(before.sort((x, y) => x.id - y.id).map((r) => r.title));
      return (await tx.elements.insert(revision(title))).id;
    }));
    first.open();
    const ids = await Promise.all([held, ...queued]);
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    expect(seen).toEqual([["first"], ["first", "a"], ["first", "a", "b"]]);
  });

  it("refuses a failing transaction alone: its writes are undone, those grouped with it are committed", async () => {
    const store = openStore();
    const first = gate();
    const held = store.transaction(async (tx) => {
      await first.promise;
      await tx.elements.insert(revision("held"));
    });
    const before = store.transaction(async (tx) => tx.elements.insert(revision("before")));
    const failing = store.transaction(async (tx) => {
      await tx.elements.insert(revision("failing"));
      throw new Error("refused by its own rules");
    });
    const after = store.transaction(async (tx) => tx.elements.insert(revision("after")));
    first.open();
    await expect(failing).rejects.toThrow("refused by its own rules");
    const [, inserted, afterwards] = await Promise.all([held, before, after]);
    // Read through the read connection: what is answered is committed.
    expect((await store.elements.byId(inserted.id))?.title).toBe("before");
    expect((await store.elements.byId(afterwards.id))?.title).toBe("after");
    const titles = (await store.elements.byIds([1, 2, 3, 4, 5, 6])).map((r) => r.title).sort();
    expect(titles).toEqual(["after", "before", "held"]);
  });

  it("answers no transaction before its commit: what it wrote is readable outside it once it resolves", async () => {
    const store = openStore();
    const first = gate();
    const held = store.transaction(async () => {
      await first.promise;
    });
    const writes = Array.from({ length: 20 }, (_, i) => store.transaction(async (tx) => tx.elements.insert(revision(`w${i}`))).then(
      async (inserted) => (await store.elements.byId(inserted.id))?.title,
    ));
    first.open();
    await held;
    expect(await Promise.all(writes)).toEqual(Array.from({ length: 20 }, (_, i) => `w${i}`));
  });

  it("refuses a transaction whose deadline passed while it waited, and commits the others", async () => {
    const store = openStore();
    const first = gate();
    const held = store.transaction(async () => {
      await first.promise;
    });
    const expired = store.transaction(async (tx) => tx.elements.insert(revision("late")), { deadline: { aborted: true } });
    const fine = store.transaction(async (tx) => tx.elements.insert(revision("fine")));
    first.open();
    await held;
    await expect(expired).rejects.toThrow();
    expect((await store.elements.byId((await fine).id))?.title).toBe("fine");
  });
});
