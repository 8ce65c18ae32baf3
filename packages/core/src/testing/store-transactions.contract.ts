import { beforeEach, describe, expect, it } from "vitest";
import type { ChangeStamp } from "../ports/change-clock.port.ts";
import type { Repositories, Store } from "../ports/store.port.ts";
import type { ElementRevision } from "../elements/smart-element.ts";
import type { NewEvent } from "../events/element-event.ts";
import { account, bytes, date, deferred, draft, entry, lifecycle, MISSING_ID, richStructure } from "./store-fixtures.ts";

const SESSION = {
  id: "s1", accountId: 7, csrfToken: "c1", createdAt: date(1), expiresAt: date(2), absoluteExpiresAt: date(3),
};
const TOKEN = {
  id: "t1", hash: "h1", accountId: 7, routes: [{ pattern: "/api/v2/*", methods: ["GET"] }], expiresAt: null, oneshot: false,
  description: "ci", createdAt: date(1),
};
const DOMAIN = { name: "articles", lang: "en", stem: "english", configs: [] };
const event = (initid: number): NewEvent => ({
  type: "element.updated", time: date(1), initid, id: initid, name: null, structure: "article", revision: 0, state: null, actor: "test",
});

/**
 * The transactions and the change clock of a Store, part of storeContract: atomicity, isolation
 * from reads outside, concurrent transactions, the deadline, and when the clock moves.
 * Concurrent transactions are only asked what any database gives: a store may run them one at a
 * time or side by side.
 */
export function storeTransactionsContract(current: () => Store): void {
  describe("transaction", () => {
    let store: Store;
    beforeEach(() => {
      store = current();
    });

    it("returns what the function returns and keeps its writes, those after an await included", async () => {
      const [first, second] = await store.transaction(async (tx) => {
        const a = await tx.elements.insert(draft({ title: "first" }));
        await Promise.resolve();
        const b = await tx.elements.insert(draft({ title: "second" }));
        expect(await tx.elements.byId(a.id)).toEqual(a);
        return [a, b];
      });
      expect(await store.elements.byId(first!.id)).toEqual(first);
      expect(await store.elements.byId(second!.id)).toEqual(second);
    });

    describe("rollback", () => {
      // Committed data first, so that rolled-back replacements are checked as well as creations.
      let kept: { lineage: ElementRevision[]; structure: number; account: number; files: number[] };
      beforeEach(async () => {
        kept = await store.transaction(async (tx) => {
          const first = await tx.elements.insert(draft({ name: "KEPT", importKey: "k" }));
          await tx.elements.save({ ...first, fixed: true });
          const second = await tx.elements.insert(draft({ name: "KEPT", importKey: "k", revision: 1, initid: first.initid }));
          await tx.elements.appendHistory(entry({ initid: first.initid, comment: "kept" }));
          const structure = await tx.catalog.saveStructure({ name: "kept", fields: [] });
          await tx.catalog.saveEnumerate({ name: "kept", items: [] });
          await tx.catalog.saveLifecycle(lifecycle("kept"));
          await tx.catalog.saveProfile({ name: "kept", grants: {} });
          await tx.catalog.saveFieldAccess({ name: "kept", layers: [] });
          await tx.catalog.saveDashboard({ slug: "kept", uuid: "8f0c2a9e-1111-2222-3333-444455556666", roles: [] });
          const saved = await tx.accounts.saveAccount(account("kept"));
          await tx.accounts.saveRole({ id: "kept" });
          await tx.accounts.saveRole({ id: "second" });
          await tx.accounts.saveGroup({ id: "kept", roles: [] });
          const file = await tx.vault.store(bytes("kept"), { name: "kept.txt", mime: "text/plain" });
          await tx.search.saveDomain(DOMAIN);
          await tx.events.append(event(first.initid));
          await tx.sessions.create(SESSION);
          await tx.tokens.create(TOKEN);
          await tx.folders.add(first.initid, 7);
          return { lineage: [{ ...first, fixed: true }, second], structure: structure.id, account: saved.id, files: [file.id] };
        });
      });

      // Ids the rolled-back writes were given, which no read may find afterwards.
      const lost = { files: [] as number[], elements: [] as number[] };
      beforeEach(() => {
        lost.files = [];
        lost.elements = [];
      });

      const snapshot = async () => {
        const initid = kept.lineage[0]!.initid;
        return {
          revisions: await store.elements.revisions(initid),
          byName: await store.elements.latestByName("KEPT"),
          byKey: await store.elements.byImportKey("k"),
          list: await store.elements.list({ status: "alive", orderBy: [], limit: null, offset: 0 }),
          history: await store.elements.history(initid),
          folders: [await store.folders.members(initid), await store.folders.foldersOf(7), await store.folders.members(MISSING_ID)],
          structures: await store.catalog.structures(),
          enumerates: await store.catalog.enumerates(),
          lifecycles: await store.catalog.lifecycles(),
          profiles: await store.catalog.profiles(),
          fieldAccesses: await store.catalog.fieldAccesses(),
          dashboards: await store.catalog.dashboards(),
          accounts: [await store.accounts.byId(kept.account), await store.accounts.byLogin("new")],
          roles: await store.accounts.roles(),
          groups: await store.accounts.groups(),
          files: [await store.vault.file(kept.files[0]!), await store.vault.read(kept.files[0]!)],
          lost: [await store.vault.files(lost.files), await store.elements.byIds(lost.elements)],
          domains: await store.search.domains(),
          events: await store.events.after(0, 100),
          generation: await store.search.generation(DOMAIN.name),
          sessions: [await store.sessions.byId("s1"), await store.sessions.byId("s2")],
          tokens: await store.tokens.list(),
          clock: await store.changes.read(),
        };
      };

      const writes: { readonly name: string; readonly write: (tx: Repositories) => Promise<unknown> }[] = [
        { name: "an element insert", write: async (tx) => lost.elements.push((await tx.elements.insert(draft({ name: "KEPT" }))).id) },
        { name: "a new revision", write: async (tx) => {
          const live = (await tx.elements.latestByName("KEPT"))!;
          await tx.elements.save({ ...live, fixed: true });
          await tx.elements.insert(draft({ initid: live.initid, revision: 2, importKey: "k" }));
        } },
        { name: "an element save", write: async (tx) => {
          const live = (await tx.elements.latestByName("KEPT"))!;
          await tx.elements.save({ ...live, title: "changed", values: { a: 1 } });
        } },
        { name: "a lineage status", write: (tx) => tx.elements.setLineageStatus(kept.lineage[0]!.initid, "deleted", date(9)) },
        { name: "a history entry", write: (tx) => tx.elements.appendHistory(entry({ initid: kept.lineage[0]!.initid, revision: 5, comment: "lost" })) },
        { name: "a folder's new member", write: (tx) => tx.folders.add(MISSING_ID, 7) },
        { name: "a folder member's removal", write: (tx) => tx.folders.remove(kept.lineage[0]!.initid, 7) },
        { name: "a new structure", write: (tx) => tx.catalog.saveStructure({ name: "new", fields: [] }) },
        { name: "a replaced structure", write: (tx) => tx.catalog.saveStructure(richStructure("kept")) },
        { name: "an enumerate", write: (tx) => tx.catalog.saveEnumerate({ name: "kept", items: [{ key: "x", label: "X" }] }) },
        { name: "a lifecycle", write: (tx) => tx.catalog.saveLifecycle({ ...lifecycle("kept"), firstState: "done" }) },
        { name: "a profile", write: (tx) => tx.catalog.saveProfile({ name: "kept", grants: { view: ["role:x"] } }) },
        { name: "a field access", write: (tx) => tx.catalog.saveFieldAccess({ name: "kept", layers: [{ grant: "role:x", fields: { a: "R" } }] }) },
        { name: "a dashboard", write: (tx) => tx.catalog.saveDashboard({ slug: "new", uuid: "8f0c2a9e-1111-2222-3333-444455556667", roles: [] }) },
        { name: "a new account", write: (tx) => tx.accounts.saveAccount(account("new")) },
        { name: "a replaced account", write: (tx) => tx.accounts.saveAccount(account("kept", { displayName: "changed" })) },
        { name: "a role", write: (tx) => tx.accounts.saveRole({ id: "kept", label: "changed" }) },
        { name: "a group", write: (tx) => tx.accounts.saveGroup({ id: "kept", roles: ["changed"] }) },
        { name: "a vault file", write: async (tx) => lost.files.push((await tx.vault.store(bytes("lost"), { name: "lost.txt", mime: "text/plain" })).id) },
        { name: "a vault file of known content", write: async (tx) =>
          lost.files.push((await tx.vault.store(bytes("kept"), { name: "other.txt", mime: "text/plain" })).id) },
        { name: "a search domain", write: (tx) => tx.search.saveDomain({ ...DOMAIN, stem: "simple" }) },
        { name: "an event", write: (tx) => tx.events.append(event(MISSING_ID)) },
        { name: "a search generation", write: (tx) => tx.search.setGeneration(DOMAIN.name, 3) },
        { name: "a session", write: (tx) => tx.sessions.create({ ...SESSION, id: "s2" }) },
        { name: "a session's end", write: (tx) => tx.sessions.delete("s1") },
        { name: "a token", write: (tx) => tx.tokens.create({ ...TOKEN, id: "t2", hash: "h2" }) },
        { name: "a token's consumption", write: (tx) => tx.tokens.consume("h1") },
      ];

      it.each(writes)("undoes $name when the function rejects", async ({ write }) => {
        const before = await snapshot();
        const failure = new Error("boom");
        await expect(store.transaction(async (tx) => {
          await write(tx);
          throw failure;
        })).rejects.toBe(failure);
        expect(await snapshot()).toEqual(before);
      });

      it.each(writes)("commits $name made on the store's own repositories, outside any transaction", async ({ write }) => {
        const before = await store.changes.read();
        await write(store);
        expect((await store.changes.read()).data).not.toBe(before.data);
      });

      it("undoes every kind of write at once, and writes again afterwards", async () => {
        const before = await snapshot();
        await expect(store.transaction(async (tx) => {
          for (const { write } of writes) await write(tx);
          throw new Error("boom");
        })).rejects.toThrow("boom");
        expect(await snapshot()).toEqual(before);
        const next = await store.elements.insert(draft());
        expect(kept.lineage.map((r) => r.id)).not.toContain(next.id);
        expect(await store.elements.byId(next.id)).toEqual(next);
      });
    });

    describe("concurrency", () => {
      it("keeps a transaction's writes from reads outside it until it commits", async () => {
        const wrote = deferred<ElementRevision>();
        const release = deferred();
        const pending = store.transaction(async (tx) => {
          const element = await tx.elements.insert(draft({ name: "PENDING" }));
          await tx.catalog.saveEnumerate({ name: "PENDING", items: [] });
          wrote.resolve(element);
          await release.promise;
          return element;
        });
        const element = await wrote.promise;
        try {
          expect(await store.elements.byId(element.id)).toBeUndefined();
          expect(await store.elements.latestByName("PENDING")).toBeUndefined();
          expect(await store.catalog.enumerate("PENDING")).toBeUndefined();
        } finally {
          release.resolve();
        }
        expect(await pending).toEqual(element);
        expect(await store.elements.byId(element.id)).toEqual(element);
        expect(await store.catalog.enumerate("PENDING")).toEqual({ name: "PENDING", items: [] });
      });

      it("lets neither of two transactions see the other's writes before they are committed", async () => {
        const aWrote = deferred();
        const releaseA = deferred();
        // What each saw of the other's row inside, then outside (committed) right after.
        const a = store.transaction(async (tx) => {
          await tx.elements.insert(draft({ name: "A" }));
          aWrote.resolve();
          await releaseA.promise;
          return [await tx.elements.latestByName("B"), await store.elements.latestByName("B")];
        });
        await aWrote.promise;
        const b = store.transaction(async (tx) => {
          await tx.elements.insert(draft({ name: "B" }));
          return [await tx.elements.latestByName("A"), await store.elements.latestByName("A")];
        });
        releaseA.resolve();
        for (const [inside, committedAfter] of await Promise.all([a, b])) {
          if (inside) expect(committedAfter).toBeDefined();
        }
        expect(await store.elements.latestByName("A")).toBeDefined();
        expect(await store.elements.latestByName("B")).toBeDefined();
      });

      it("leaves nothing of a failed transaction that ran alongside another", async () => {
        const aWrote = deferred();
        const releaseA = deferred();
        const failed = store.transaction(async (tx) => {
          await tx.elements.insert(draft({ name: "FAILED" }));
          await tx.catalog.saveEnumerate({ name: "FAILED", items: [] });
          aWrote.resolve();
          await releaseA.promise;
          throw new Error("boom");
        });
        await aWrote.promise;
        const succeeded = store.transaction((tx) => tx.elements.insert(draft({ name: "SUCCEEDED" })));
        releaseA.resolve();
        const [a, b] = await Promise.allSettled([failed, succeeded]);
        expect(a.status).toBe("rejected");
        expect(b.status).toBe("fulfilled");
        expect(await store.elements.latestByName("FAILED")).toBeUndefined();
        expect(await store.catalog.enumerate("FAILED")).toBeUndefined();
        expect(await store.elements.latestByName("SUCCEEDED")).toBeDefined();
      });

      it("gives one winner to two transactions that look a name up, then insert it", async () => {
        const claim = (by: string) => store.transaction(async (tx) => {
          const existing = await tx.elements.latestByName("UNIQUE");
          await Promise.resolve();
          if (existing) return "found";
          await tx.elements.insert(draft({ name: "UNIQUE", title: by }));
          return "inserted";
        });
        const results = await Promise.allSettled([claim("one"), claim("two")]);
        const winners = results.filter((r) => r.status === "fulfilled" && r.value === "inserted");
        expect(winners).toHaveLength(1);
        const named = (await store.elements.list({ status: "alive", orderBy: [], limit: null, offset: 0 })).filter((r) => r.name === "UNIQUE");
        expect(named).toHaveLength(1);
      });

      it("runs a write outside transactions on its own, never inside another's transaction", async () => {
        const wrote = deferred();
        const release = deferred();
        const failing = store.transaction(async (tx) => {
          await tx.elements.insert(draft({ name: "ROLLED_BACK" }));
          wrote.resolve();
          await release.promise;
          throw new Error("boom");
        });
        await wrote.promise;
        const outside = store.elements.insert(draft({ name: "OUTSIDE" }));
        const session = store.sessions.create(SESSION);
        release.resolve();
        await expect(failing).rejects.toThrow("boom");
        const element = await outside;
        await session;
        expect(await store.elements.byId(element.id)).toEqual(element);
        expect(await store.sessions.byId(SESSION.id)).toEqual(SESSION);
        expect(await store.elements.latestByName("ROLLED_BACK")).toBeUndefined();
      });

      it("gives a oneshot token to one of two concurrent consumptions", async () => {
        await store.tokens.create({ ...TOKEN, oneshot: true });
        const results = await Promise.all([store.tokens.consume("h1"), store.tokens.consume("h1")]);
        expect(results.filter(Boolean)).toHaveLength(1);
      });

      it("refuses a transaction's repositories once it is over", async () => {
        let leaked: Repositories | undefined;
        await store.transaction(async (tx) => {
          leaked = tx;
        });
        await expect(leaked!.elements.insert(draft({ name: "LATE" }))).rejects.toThrow();
        expect(await store.elements.latestByName("LATE")).toBeUndefined();
      });
    });

    describe("deadline", () => {
      it("commits while the deadline has not passed", async () => {
        const element = await store.transaction((tx) => tx.elements.insert(draft()), { deadline: { aborted: false } });
        expect(await store.elements.byId(element.id)).toEqual(element);
      });

      it("rolls back with API0101 when the deadline passed before the commit", async () => {
        const before = await store.changes.read();
        const deadline = { aborted: false };
        await expect(store.transaction(async (tx) => {
          await tx.elements.insert(draft({ name: "LATE" }));
          await tx.catalog.saveEnumerate({ name: "LATE", items: [] });
          deadline.aborted = true;
        }, { deadline })).rejects.toMatchObject({ name: "LineageError", code: "API0101" });
        expect(await store.elements.latestByName("LATE")).toBeUndefined();
        expect(await store.catalog.enumerate("LATE")).toBeUndefined();
        expect(await store.changes.read()).toEqual(before);
        await expect(store.transaction((tx) => tx.elements.insert(draft()), { deadline: { aborted: true } }))
          .rejects.toMatchObject({ code: "API0101" });
      });
    });
  });

  describe("change clock", () => {
    let store: Store;
    beforeEach(() => {
      store = current();
    });

    it("stays the same while nothing is written", async () => {
      await store.elements.insert(draft());
      const before = await store.changes.read();
      await store.elements.list({ status: "alive", orderBy: [], limit: null, offset: 0 });
      await store.catalog.structures();
      expect(await store.changes.read()).toEqual(before);
    });

    it("moves data with every commit, and definitions with the commits of definitions only", async () => {
      const element = await store.elements.insert(draft());
      const seen: ChangeStamp[] = [await store.changes.read()];
      const committed = async (write: (tx: Repositories) => Promise<unknown>, isDefinition: boolean) => {
        await store.transaction(write);
        const stamp = await store.changes.read();
        const last = seen.at(-1)!;
        expect(seen.map((s) => s.data)).not.toContain(stamp.data);
        if (isDefinition) expect(seen.map((s) => s.definitions)).not.toContain(stamp.definitions);
        else expect(stamp.definitions).toBe(last.definitions);
        seen.push(stamp);
      };
      await committed((tx) => tx.elements.insert(draft()), false);
      await committed((tx) => tx.elements.save({ ...element, title: "changed" }), false);
      await committed((tx) => tx.elements.appendHistory(entry({ initid: element.initid })), false);
      await committed((tx) => tx.elements.setLineageStatus(element.initid, "deleted", date(2)), false);
      await committed((tx) => tx.vault.store(bytes("x"), { name: "x.txt", mime: "text/plain" }), false);
      await committed((tx) => tx.events.append(event(element.initid)), false);
      await committed((tx) => tx.sessions.create(SESSION), false);
      await committed((tx) => tx.tokens.create(TOKEN), false);
      await committed((tx) => tx.catalog.saveStructure({ name: "s", fields: [] }), true);
      await committed((tx) => tx.catalog.saveEnumerate({ name: "E", items: [{ key: "k", label: { en: "K" } }] }), true);
      await committed((tx) => tx.catalog.saveLifecycle(lifecycle("flow")), true);
      await committed((tx) => tx.catalog.saveProfile({ name: "p", grants: {} }), true);
      await committed((tx) => tx.catalog.saveFieldAccess({ name: "F", layers: [] }), true);
      await committed((tx) => tx.catalog.saveDashboard({ slug: "d", uuid: "8f0c2a9e-1111-2222-3333-444455556666", roles: [] }), true);
      await committed((tx) => tx.search.saveDomain(DOMAIN), true);
      await committed((tx) => tx.accounts.saveAccount(account("alice")), true);
      await committed((tx) => tx.accounts.saveRole({ id: "writer" }), true);
      await committed((tx) => tx.accounts.saveGroup({ id: "staff", roles: [] }), true);
    });

    it("moves with the writes on the store's own repositories too", async () => {
      const before = await store.changes.read();
      await store.sessions.create(SESSION);
      const afterSession = await store.changes.read();
      expect(afterSession.data).not.toBe(before.data);
      expect(afterSession.definitions).toBe(before.definitions);
      await store.accounts.saveRole({ id: "writer" });
      expect((await store.changes.read()).definitions).not.toBe(before.definitions);
    });

    it("does not move when a transaction rolls back", async () => {
      await store.elements.insert(draft());
      const before = await store.changes.read();
      await expect(store.transaction(async (tx) => {
        await tx.elements.insert(draft());
        await tx.catalog.saveEnumerate({ name: "GONE", items: [] });
        throw new Error("roll back");
      })).rejects.toThrow("roll back");
      expect(await store.changes.read()).toEqual(before);
    });

    it("reads, in a transaction, no data stamp and the committed definitions until it writes one", async () => {
      await store.catalog.saveEnumerate({ name: "E", items: [] });
      const committed = await store.changes.read();
      await store.transaction(async (tx) => {
        expect(await tx.changes.read()).toEqual({ data: "", definitions: committed.definitions });
        await tx.elements.insert(draft());
        expect(await tx.changes.read()).toEqual({ data: "", definitions: committed.definitions });
        await tx.accounts.saveRole({ id: "writer" });
        expect(await tx.changes.read()).toEqual({ data: "", definitions: "" });
        // The store's own clock tells what is committed, still.
        expect(await store.changes.read()).toEqual(committed);
      });
      const after = await store.changes.read();
      expect(after.definitions).not.toBe(committed.definitions);
      expect(after.definitions).not.toBe("");
    });
  });
}
