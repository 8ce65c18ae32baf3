import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { NewAccount } from "../ports/account-repository.port.ts";
import type { ElementQuery, OrderTerm } from "../ports/element-repository.port.ts";
import type { Store } from "../ports/store.port.ts";
import type { HistoryEntry } from "../element/history-entry.ts";
import type { ElementRevision, NewRevision } from "../element/smart-element.ts";
import type { Lifecycle } from "../catalog/lifecycle.ts";
import type { StructureDefinition } from "../structure/smart-structure.ts";

/**
 * The behaviour every Store adapter shares, as one vitest suite; `open` must
 * give an empty store, and is called once per test.
 *
 * @example
 * storeContract("memory", () => createMemoryStore());
 */
export function storeContract(name: string, open: () => Store | Promise<Store>): void {
  describe(`Store contract: ${name}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await open();
    });
    afterEach(() => store.close());

    /** A lineage of `count` revisions, the older ones fixed as a new revision would leave them. */
    function createLineage(count: number, overrides: Partial<NewRevision> = {}): ElementRevision[] {
      return store.transaction(() => {
        const first = store.elements.insert(draft({ ...overrides, revision: 0 }));
        const ids = [first.id];
        for (let revision = 1; revision < count; revision++) {
          store.elements.save({ ...store.elements.byId(ids[ids.length - 1] ?? 0)!, fixed: true });
          ids.push(store.elements.insert(draft({ ...overrides, revision, initid: first.initid })).id);
        }
        return ids.map((id) => store.elements.byId(id)!);
      });
    }

    describe("elements", () => {
      it("gives ascending ids from 1, the first revision's id being the initid", () => {
        const a = store.elements.insert(draft());
        const b = store.elements.insert(draft());
        const a1 = store.elements.insert(draft({ initid: a.initid, revision: 1 }));
        expect([a.id, a.initid, b.id, b.initid, a1.id, a1.initid]).toEqual([1, 1, 2, 2, 3, 1]);
      });

      it("keeps every property of an inserted revision", () => {
        const full = draft({
          structure: "article", name: "ART_ONE", title: "Été ☃ 𝄞 \"quoted\"", owner: 7, state: "draft",
          values: { n: 42, x: 1.5, s: "text", m: ["a", "b"], rows: [["r1", "r2"], []], empty: null },
          createdAt: date(1), modifiedAt: date(2), importKey: "bundle:article-1",
        });
        const inserted = store.elements.insert(full);
        expect(inserted).toEqual({ ...full, id: 1, initid: 1 });
        expect(store.elements.byId(1)).toEqual(inserted);
        expect(store.elements.byId(2)).toBeUndefined();
      });

      it("save replaces the revision of the same id and only it", () => {
        const [a, b] = [store.elements.insert(draft({ title: "A" })), store.elements.insert(draft({ title: "B" }))];
        const changed: ElementRevision = {
          ...a, title: "A2", name: "A_NAME", owner: 9, status: "deleted", fixed: true, state: "done",
          values: { v: [1, 2] }, modifiedAt: date(5), importKey: "k",
        };
        store.elements.save(changed);
        expect(store.elements.byId(a.id)).toEqual(changed);
        expect(store.elements.byId(b.id)).toEqual(b);
      });

      it("save refuses an id it does not hold", () => {
        const a = store.elements.insert(draft());
        expect(() => store.elements.save({ ...a, id: 42 })).toThrow();
        expect(store.elements.byId(42)).toBeUndefined();
      });

      it("latest gives the live revision of a lineage", () => {
        const revisions = createLineage(3);
        const other = createLineage(1);
        expect(store.elements.latest(1)).toEqual(revisions[2]);
        expect(store.elements.latest(1)).toMatchObject({ revision: 2, fixed: false });
        expect(store.elements.latest(other[0]!.initid)).toEqual(other[0]);
        expect(store.elements.latest(revisions[1]!.id)).toBeUndefined();
        expect(store.elements.latest(99)).toBeUndefined();
      });

      it("latestByName gives the live revision, never a fixed one", () => {
        const named = createLineage(3, { name: "ART" });
        const renamed = createLineage(2, { name: "OLD" });
        store.elements.save({ ...renamed[1]!, name: "NEW" });
        expect(store.elements.latestByName("ART")).toEqual(named[2]);
        expect(store.elements.latestByName("OLD")).toBeUndefined();
        expect(store.elements.latestByName("NEW")?.id).toBe(renamed[1]!.id);
        expect(store.elements.latestByName("NONE")).toBeUndefined();
      });

      it("latestByName finds a lineage in the trash, preferring a live one of the same name", () => {
        const trashed = createLineage(2, { name: "DUP" });
        store.elements.setLineageStatus(trashed[0]!.initid, "deleted", date(3));
        expect(store.elements.latestByName("DUP")).toMatchObject({ id: trashed[1]!.id, status: "deleted" });
        const alive = createLineage(1, { name: "DUP" });
        expect(store.elements.latestByName("DUP")?.id).toBe(alive[0]!.id);
      });

      it("revisions lists a lineage newest first", () => {
        createLineage(1);
        const revisions = createLineage(3);
        expect(store.elements.revisions(revisions[0]!.initid)).toEqual([...revisions].reverse());
        expect(store.elements.revisions(99)).toEqual([]);
      });

      it("byImportKey gives the latest revision carrying the key", () => {
        createLineage(1, { importKey: "other" });
        const keyed = createLineage(2, { importKey: "bundle:k1" });
        expect(store.elements.byImportKey("bundle:k1")).toEqual(keyed[1]);
        expect(store.elements.byImportKey("missing")).toBeUndefined();
      });

      it("setLineageStatus moves every revision, stamping the live one", () => {
        const revisions = createLineage(3, { modifiedAt: date(1) });
        const other = createLineage(1);
        const initid = revisions[0]!.initid;
        store.elements.setLineageStatus(initid, "deleted", date(7));
        expect(store.elements.revisions(initid).map((r) => [r.status, r.modifiedAt, r.fixed])).toEqual([
          ["deleted", date(7), false], ["deleted", date(1), true], ["deleted", date(1), true],
        ]);
        expect(store.elements.byId(other[0]!.id)).toEqual(other[0]);
        store.elements.setLineageStatus(initid, "alive", date(8));
        expect(store.elements.revisions(initid).map((r) => r.status)).toEqual(["alive", "alive", "alive"]);
        expect(store.elements.latest(initid)?.modifiedAt).toBe(date(8));
      });

      describe("list", () => {
        // Four live lineages a, b, c, d (d has a fixed first revision) and a deleted e, each
        // property ordering them differently so a wrong column cannot pass.
        const letters = new Map<number, string>();
        const page = (query: Partial<ElementQuery>) =>
          store.elements.list({ status: "alive", orderBy: [], limit: null, offset: 0, ...query }).map((r) => letters.get(r.id) ?? `?${r.id}`);
        const by = (key: string, direction: "asc" | "desc" = "asc", kind: OrderTerm["kind"] = "property"): OrderTerm[] => [{ kind, key, direction }];

        beforeEach(() => {
          letters.clear();
          store.transaction(() => {
            store.catalog.saveStructure({ name: "zeta", fields: [] });
            store.catalog.saveStructure({ name: "alpha", fields: [] });
            const add = (letter: string, revision: Partial<NewRevision>) => letters.set(store.elements.insert(draft(revision)).id, letter);
            add("a", { structure: "zeta", title: "Banana", name: "N_C", owner: 3, state: "s1", createdAt: date(2), modifiedAt: date(4),
              values: { n: 10, s: "b", mix: 5, multi: ["b", "a"] } });
            add("b", { structure: "alpha", title: "apple", name: null, owner: 2, state: null, createdAt: date(3), modifiedAt: date(1),
              values: { n: 9, s: "a", mix: "5", multi: ["a", "z"] } });
            add("c", { structure: "alpha", title: "Banana", name: "N_A", owner: 4, state: "s3", createdAt: date(1), modifiedAt: date(3),
              values: { n: 2.5, mix: 40, multi: [] } });
            add("old-d", { structure: "zeta", title: "Aardvark", name: "N_B", owner: 1, fixed: true, createdAt: date(9), modifiedAt: date(9),
              values: { n: -1 } });
            add("d", { structure: "zeta", title: "Cherry", name: "N_B", owner: 1, state: "s2", revision: 1, initid: 4, createdAt: date(4),
              modifiedAt: date(2), values: { n: null, mix: "abc" } });
            add("e", { structure: "alpha", title: "Deleted", status: "deleted" });
          });
        });

        it("gives only the live revision of each lineage of the status asked", () => {
          expect(page({ orderBy: by("id") })).toEqual(["a", "b", "c", "d"]);
          expect(page({ status: "deleted" })).toEqual(["e"]);
          const [first] = store.elements.list({ status: "alive", orderBy: by("id", "desc"), limit: 1, offset: 0 });
          expect(first).toEqual(store.elements.latest(4));
        });

        it("filters by structures: undefined means all, [] means none", () => {
          expect(page({ structures: undefined })).toHaveLength(4);
          expect(page({ structures: [] })).toEqual([]);
          expect(page({ structures: ["alpha"], orderBy: by("id") })).toEqual(["b", "c"]);
          expect(page({ structures: ["alpha", "zeta"] })).toHaveLength(4);
          expect(page({ structures: ["unknown"] })).toEqual([]);
        });

        it("sorts on title ascending with id descending to break ties", () => {
          const titleThenId: OrderTerm[] = [...by("title"), ...by("id", "desc")];
          expect(page({ orderBy: titleThenId })).toEqual(["c", "a", "d", "b"]);
          expect(page({ orderBy: [...by("title"), ...by("id")] })).toEqual(["a", "c", "d", "b"]);
          expect(page({ orderBy: by("title", "desc") })).toEqual(["b", "d", "c", "a"]);
        });

        it("closes any order with id descending", () => {
          expect(page({ orderBy: [] })).toEqual(["d", "c", "b", "a"]);
          expect(page({ orderBy: by("status") })).toEqual(["d", "c", "b", "a"]);
        });

        it.each([
          ["id", ["a", "b", "c", "d"]],
          ["initid", ["a", "b", "c", "d"]],
          ["title", ["c", "a", "d", "b"]],
          ["name", ["b", "c", "d", "a"]],
          ["revision", ["c", "b", "a", "d"]],
          ["owner", ["d", "b", "a", "c"]],
          ["state", ["b", "a", "d", "c"]],
          ["fromname", ["c", "b", "d", "a"]],
          ["fromid", ["d", "a", "c", "b"]],
          ["cdate", ["c", "a", "b", "d"]],
          ["mdate", ["b", "d", "c", "a"]],
          ["status", ["d", "c", "b", "a"]],
        ])("sorts on the property %s", (key, ascending) => {
          expect(page({ orderBy: by(key) })).toEqual(ascending);
        });

        it.each(["id", "initid", "name", "owner", "state", "cdate", "mdate"])("sorts on %s descending", (key) => {
          expect(page({ orderBy: by(key, "desc") })).toEqual(page({ orderBy: by(key) }).reverse());
        });

        it("sorts text by code point, case first, as SQLite's BINARY collation does", () => {
          const titles = ["𝄞", "\uFFFD", "é", "a", "Z"];
          for (const title of titles) store.elements.insert(draft({ structure: "glyphs", title }));
          const sorted = store.elements.list({ status: "alive", structures: ["glyphs"], orderBy: by("title"), limit: null, offset: 0 });
          expect(sorted.map((r) => r.title)).toEqual(["Z", "a", "é", "\uFFFD", "𝄞"]);
        });

        it("sorts on several terms in turn", () => {
          expect(page({ orderBy: [...by("fromname", "desc"), ...by("owner")] })).toEqual(["d", "a", "b", "c"]);
        });

        it("refuses an unknown property", () => {
          expect(() => page({ orderBy: by("nope") })).toThrow();
        });

        it("sorts on field values, missing and null values first when ascending", () => {
          expect(page({ orderBy: by("n", "asc", "field") })).toEqual(["d", "c", "b", "a"]);
          expect(page({ orderBy: by("n", "desc", "field") })).toEqual(["a", "b", "c", "d"]);
          expect(page({ orderBy: by("s", "asc", "field") })).toEqual(["d", "c", "b", "a"]);
          expect(page({ orderBy: by("s", "desc", "field") })).toEqual(["a", "b", "d", "c"]);
          expect(page({ orderBy: by("absent", "asc", "field") })).toEqual(["d", "c", "b", "a"]);
        });

        it("sorts numbers by value and before text, as JSON values", () => {
          expect(page({ orderBy: by("mix", "asc", "field") })).toEqual(["a", "c", "b", "d"]);
        });

        it("sorts multiple values by their JSON text", () => {
          expect(page({ orderBy: by("multi", "asc", "field") })).toEqual(["d", "b", "a", "c"]);
        });

        it("pages with limit and offset, a null limit meaning all", () => {
          const ids = by("id");
          expect(page({ orderBy: ids, limit: null })).toEqual(["a", "b", "c", "d"]);
          expect(page({ orderBy: ids, limit: 2 })).toEqual(["a", "b"]);
          expect(page({ orderBy: ids, limit: 2, offset: 1 })).toEqual(["b", "c"]);
          expect(page({ orderBy: ids, limit: null, offset: 2 })).toEqual(["c", "d"]);
          expect(page({ orderBy: ids, limit: 10, offset: 3 })).toEqual(["d"]);
          expect(page({ orderBy: ids, limit: 10, offset: 4 })).toEqual([]);
          expect(page({ orderBy: ids, limit: 0 })).toEqual([]);
        });
      });
    });

    describe("history", () => {
      it("keeps every field of an entry", () => {
        const full = entry({ initid: 3, revisionId: 5, revision: 1, accountId: 2, accountName: "Zoé", level: "warning", code: null, comment: "Été" });
        store.elements.appendHistory(full);
        expect(store.elements.history(3)).toEqual([full]);
        expect(store.elements.history(99)).toEqual([]);
      });

      it("lists a lineage's entries by revision, then date, newest first", () => {
        const add = (revision: number, day: number, comment: string, initid = 1) =>
          store.elements.appendHistory(entry({ initid, revision, date: date(day), comment }));
        add(0, 1, "r0-d1");
        add(1, 2, "r1-d2");
        add(0, 3, "r0-d3");
        add(1, 4, "r1-d4 first");
        add(1, 4, "r1-d4 second");
        add(2, 1, "other lineage", 2);
        expect(store.elements.history(1).map((e) => e.comment)).toEqual(["r1-d4 second", "r1-d4 first", "r1-d2", "r0-d3", "r0-d1"]);
      });
    });

    describe("catalog", () => {
      it("gives structures ascending ids and finds them by name and id", () => {
        const zeta = store.catalog.saveStructure({ name: "zeta", fields: [] });
        const alpha = store.catalog.saveStructure(richStructure("alpha"));
        expect(alpha).toEqual({ ...richStructure("alpha"), id: 2 });
        expect(zeta.id).toBe(1);
        expect(store.catalog.structure("alpha")).toEqual(alpha);
        expect(store.catalog.structureById(1)).toEqual(zeta);
        expect(store.catalog.structures()).toEqual([zeta, alpha]);
        expect(store.catalog.structure("nope")).toBeUndefined();
        expect(store.catalog.structureById(3)).toBeUndefined();
      });

      it("replaces a structure by name, keeping its id", () => {
        store.catalog.saveStructure({ name: "a", fields: [] });
        const b = store.catalog.saveStructure({ name: "b", fields: [] });
        const replaced = store.catalog.saveStructure(richStructure("a"));
        expect(replaced.id).toBe(1);
        expect(store.catalog.structure("a")).toEqual({ ...richStructure("a"), id: 1 });
        expect(store.catalog.structures()).toEqual([replaced, b]);
        expect(store.catalog.saveStructure({ name: "c", fields: [] }).id).toBe(3);
      });

      it("ignores an id carried by the definition", () => {
        store.catalog.saveStructure({ name: "a", fields: [] });
        const saved = store.catalog.saveStructure({ ...richStructure("b"), id: 42 } as StructureDefinition);
        expect(saved.id).toBe(2);
        expect(store.catalog.structureById(2)?.name).toBe("b");
      });

      it("saves, finds and replaces enumerates", () => {
        const colors = { name: "colors", items: [{ key: "red", label: { en: "Red", fr: "Rouge" } }, { key: "dark-red", label: "Dark", parentKey: "red" }] };
        store.catalog.saveEnumerate(colors);
        expect(store.catalog.enumerate("colors")).toEqual(colors);
        store.catalog.saveEnumerate({ name: "colors", items: [] });
        expect(store.catalog.enumerate("colors")).toEqual({ name: "colors", items: [] });
        expect(store.catalog.enumerate("nope")).toBeUndefined();
      });

      it("saves, finds and replaces lifecycles", () => {
        store.catalog.saveLifecycle(lifecycle("flow"));
        expect(store.catalog.lifecycle("flow")).toEqual(lifecycle("flow"));
        const simpler: Lifecycle = { name: "flow", firstState: "only", states: [{ id: "only" }], transitions: [] };
        store.catalog.saveLifecycle(simpler);
        expect(store.catalog.lifecycle("flow")).toEqual(simpler);
        expect(store.catalog.lifecycle("nope")).toBeUndefined();
      });

      it("saves, finds and replaces profiles", () => {
        const profile = { name: "private", grants: { view: ["role:reader", "user:ann"], edit: ["group:staff"] } };
        store.catalog.saveProfile(profile);
        expect(store.catalog.profile("private")).toEqual(profile);
        store.catalog.saveProfile({ name: "private", grants: {} });
        expect(store.catalog.profile("private")).toEqual({ name: "private", grants: {} });
        expect(store.catalog.profile("nope")).toBeUndefined();
      });
    });

    describe("accounts", () => {
      it("creates accounts with ascending ids, found by login and id", () => {
        const alice = store.accounts.saveAccount(account("alice"));
        const bob = store.accounts.saveAccount(account("bob", { passwordHash: null, rights: [] }));
        expect(alice).toEqual({ ...account("alice"), id: 1 });
        expect(bob).toEqual({ ...account("bob", { passwordHash: null, rights: [] }), id: 2 });
        expect(store.accounts.byLogin("bob")).toEqual(bob);
        expect(store.accounts.byId(1)).toEqual(alice);
        expect(store.accounts.byLogin("carol")).toBeUndefined();
        expect(store.accounts.byId(3)).toBeUndefined();
      });

      it("replaces the account of the same login, keeping its id", () => {
        store.accounts.saveAccount(account("alice"));
        const bob = store.accounts.saveAccount(account("bob"));
        const changed = account("alice", { displayName: "Alice B.", roles: [], groups: ["staff"], locale: "en-US", rights: ["GET"] });
        expect(store.accounts.saveAccount(changed)).toEqual({ ...changed, id: 1 });
        expect(store.accounts.byId(1)).toEqual({ ...changed, id: 1 });
        expect(store.accounts.byLogin("bob")).toEqual(bob);
        expect(store.accounts.saveAccount(account("carol")).id).toBe(3);
      });

      it("saves roles and replaces them by id, in the order first saved", () => {
        expect(store.accounts.roles()).toEqual([]);
        store.accounts.saveRole({ id: "writer", label: "Writer" });
        store.accounts.saveRole({ id: "admin" });
        store.accounts.saveRole({ id: "writer", label: { en: "Writer", fr: "Rédacteur" } });
        expect(store.accounts.roles()).toEqual([{ id: "writer", label: { en: "Writer", fr: "Rédacteur" } }, { id: "admin" }]);
      });

      it("saves groups and replaces them by id, in the order first saved", () => {
        expect(store.accounts.groups()).toEqual([]);
        store.accounts.saveGroup({ id: "staff", roles: ["writer"] });
        store.accounts.saveGroup({ id: "guests", label: "Guests", roles: [] });
        store.accounts.saveGroup({ id: "staff", label: "Staff", roles: ["writer", "admin"] });
        expect(store.accounts.groups()).toEqual([
          { id: "staff", label: "Staff", roles: ["writer", "admin"] }, { id: "guests", label: "Guests", roles: [] },
        ]);
      });
    });

    describe("vault", () => {
      const HELLO_SHA256 = "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824";

      it("stores a file and gives back its metadata and content", () => {
        const file = store.vault.store(bytes("hello"), { name: "hello.txt", mime: "text/plain" });
        expect(file).toMatchObject({ id: 1, sha256: HELLO_SHA256, name: "hello.txt", mime: "text/plain", size: 5 });
        expect(new Date(file.createdAt).toISOString()).toBe(file.createdAt);
        expect(store.vault.file(1)).toEqual(file);
        expect(store.vault.read(1)).toEqual(bytes("hello"));
        expect(store.vault.file(2)).toBeUndefined();
        expect(store.vault.read(2)).toBeUndefined();
      });

      it("keeps binary content and empty files intact", () => {
        const binary = Uint8Array.from({ length: 256 }, (_, i) => i);
        const a = store.vault.store(binary, { name: "all.bin", mime: "application/octet-stream" });
        const empty = store.vault.store(new Uint8Array(0), { name: "empty", mime: "application/octet-stream" });
        expect(store.vault.read(a.id)).toEqual(binary);
        expect(empty.size).toBe(0);
        expect(store.vault.read(empty.id)).toEqual(new Uint8Array(0));
      });

      it("gives the same file back for the same content and name", () => {
        const first = store.vault.store(bytes("hello"), { name: "hello.txt", mime: "text/plain" });
        expect(store.vault.store(bytes("hello"), { name: "hello.txt", mime: "text/plain" })).toEqual(first);
        const renamed = store.vault.store(bytes("hello"), { name: "copy.txt", mime: "text/plain" });
        const changed = store.vault.store(bytes("hello!"), { name: "hello.txt", mime: "text/plain" });
        expect([renamed.id, renamed.sha256]).toEqual([2, HELLO_SHA256]);
        expect(changed.id).toBe(3);
        expect(store.vault.read(2)).toEqual(bytes("hello"));
        expect(store.vault.read(3)).toEqual(bytes("hello!"));
      });

      it("is not affected by later changes to the caller's buffer", () => {
        const content = bytes("hello");
        const file = store.vault.store(content, { name: "hello.txt", mime: "text/plain" });
        content.fill(0);
        expect(store.vault.read(file.id)).toEqual(bytes("hello"));
      });
    });

    describe("version", () => {
      it("stays the same while nothing is written", () => {
        createLineage(2);
        const before = store.version();
        store.elements.byId(1);
        store.catalog.structures();
        expect(before).toBeDefined();
        expect(store.version()).toBe(before);
      });

      it("changes with every kind of committed write", () => {
        const seen = new Set([store.version()]);
        const wrote = (write: () => unknown) => {
          store.transaction(write);
          const version = store.version();
          expect(seen.has(version)).toBe(false);
          seen.add(version);
        };
        wrote(() => store.elements.insert(draft()));
        wrote(() => store.elements.save({ ...store.elements.byId(1)!, title: "changed" }));
        wrote(() => store.catalog.saveEnumerate({ name: "E", items: [{ key: "k", label: { en: "K" } }] }));
        wrote(() => store.accounts.saveAccount(account("alice")));
        wrote(() => store.vault.store(bytes("x"), { name: "x.txt", mime: "text/plain" }));
      });

      it("is undefined inside a transaction, whose reads may be rolled back", () => {
        store.transaction(() => {
          store.elements.insert(draft());
          expect(store.version()).toBeUndefined();
        });
        expect(store.version()).toBeDefined();
      });
    });

    describe("transaction", () => {
      it("returns what the function returns and keeps its writes", () => {
        const id = store.transaction(() => store.elements.insert(draft()).id);
        expect(id).toBe(1);
        expect(store.elements.byId(1)).toBeDefined();
      });

      describe("rollback", () => {
        // Committed data first, so rolled-back replacements are checked as well as creations.
        beforeEach(() => {
          createLineage(2, { name: "KEPT", importKey: "k" });
          store.transaction(() => {
            store.elements.appendHistory(entry({ initid: 1, comment: "kept" }));
            store.catalog.saveStructure({ name: "kept", fields: [] });
            store.catalog.saveEnumerate({ name: "kept", items: [] });
            store.catalog.saveLifecycle(lifecycle("kept"));
            store.catalog.saveProfile({ name: "kept", grants: {} });
            store.accounts.saveAccount(account("kept"));
            store.accounts.saveRole({ id: "kept" });
            store.accounts.saveRole({ id: "second" });
            store.accounts.saveGroup({ id: "kept", roles: [] });
            store.vault.store(bytes("kept"), { name: "kept.txt", mime: "text/plain" });
          });
        });

        const snapshot = () => ({
          revisions: [1, 2, 3, 4].map((id) => store.elements.byId(id)),
          byName: store.elements.latestByName("KEPT"),
          byKey: store.elements.byImportKey("k"),
          list: store.elements.list({ status: "alive", orderBy: [], limit: null, offset: 0 }),
          history: store.elements.history(1),
          structures: store.catalog.structures(),
          enumerate: store.catalog.enumerate("kept"),
          lifecycle: store.catalog.lifecycle("kept"),
          profile: store.catalog.profile("kept"),
          accounts: [store.accounts.byId(1), store.accounts.byId(2), store.accounts.byLogin("new")],
          roles: store.accounts.roles(),
          groups: store.accounts.groups(),
          files: [store.vault.file(1), store.vault.file(2), store.vault.read(1), store.vault.read(2)],
        });

        const writes: { readonly name: string; readonly write: (store: Store) => void }[] = [
          { name: "an element insert", write: (s) => s.elements.insert(draft({ name: "KEPT" })) },
          { name: "a new revision", write: (s) => {
            s.elements.save({ ...s.elements.byId(2)!, fixed: true });
            s.elements.insert(draft({ initid: 1, revision: 2, importKey: "k" }));
          } },
          { name: "an element save", write: (s) => s.elements.save({ ...s.elements.byId(2)!, title: "changed", values: { a: 1 } }) },
          { name: "a lineage status", write: (s) => s.elements.setLineageStatus(1, "deleted", date(9)) },
          { name: "a history entry", write: (s) => s.elements.appendHistory(entry({ initid: 1, revision: 5, comment: "lost" })) },
          { name: "a new structure", write: (s) => s.catalog.saveStructure({ name: "new", fields: [] }) },
          { name: "a replaced structure", write: (s) => s.catalog.saveStructure(richStructure("kept")) },
          { name: "an enumerate", write: (s) => s.catalog.saveEnumerate({ name: "kept", items: [{ key: "x", label: "X" }] }) },
          { name: "a lifecycle", write: (s) => s.catalog.saveLifecycle({ ...lifecycle("kept"), firstState: "done" }) },
          { name: "a profile", write: (s) => s.catalog.saveProfile({ name: "kept", grants: { view: ["role:x"] } }) },
          { name: "a new account", write: (s) => s.accounts.saveAccount(account("new")) },
          { name: "a replaced account", write: (s) => s.accounts.saveAccount(account("kept", { displayName: "changed" })) },
          { name: "a role", write: (s) => s.accounts.saveRole({ id: "kept", label: "changed" }) },
          { name: "a group", write: (s) => s.accounts.saveGroup({ id: "kept", roles: ["changed"] }) },
          { name: "a vault file", write: (s) => s.vault.store(bytes("lost"), { name: "lost.txt", mime: "text/plain" }) },
          { name: "a vault file of known content", write: (s) => s.vault.store(bytes("kept"), { name: "other.txt", mime: "text/plain" }) },
        ];

        it.each(writes)("undoes $name when the function throws", ({ write }) => {
          const before = snapshot();
          const failure = new Error("boom");
          expect(() => store.transaction(() => {
            write(store);
            throw failure;
          })).toThrow(failure);
          expect(snapshot()).toEqual(before);
        });

        it("undoes every kind of write at once, ids included", () => {
          const before = snapshot();
          expect(() => store.transaction(() => {
            for (const { write } of writes) write(store);
            throw new Error("boom");
          })).toThrow("boom");
          expect(snapshot()).toEqual(before);
          expect(store.elements.insert(draft()).id).toBe(3);
          expect(store.catalog.saveStructure({ name: "next", fields: [] }).id).toBe(2);
          expect(store.accounts.saveAccount(account("next")).id).toBe(2);
          expect(store.vault.store(bytes("next"), { name: "next", mime: "text/plain" }).id).toBe(2);
        });
      });

      it("joins nested calls to the outer transaction", () => {
        expect(() => store.transaction(() => {
          const inner = store.transaction(() => store.elements.insert(draft()));
          expect(store.elements.byId(inner.id)).toEqual(inner);
          throw new Error("boom");
        })).toThrow("boom");
        expect(store.elements.byId(1)).toBeUndefined();
        const ids = store.transaction(() => [store.elements.insert(draft()).id, store.transaction(() => store.elements.insert(draft()).id)]);
        expect(ids).toEqual([1, 2]);
        expect(store.elements.byId(2)).toBeDefined();
      });

      it("refuses an async function and keeps none of its writes", () => {
        expect(() => store.transaction(async () => {
          store.elements.insert(draft());
        })).toThrow(TypeError);
        expect(() => store.transaction(() => {
          void store.transaction(async () => {
            store.elements.insert(draft());
          });
        })).toThrow(TypeError);
        expect(store.elements.byId(1)).toBeUndefined();
      });
    });
  });
}

/** A distinct ISO date per day number. */
function date(day: number): string {
  return new Date(Date.UTC(2024, 0, day, 12, 30, 15, 250)).toISOString();
}

function bytes(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

function draft(overrides: Partial<NewRevision> = {}): NewRevision {
  return {
    revision: 0, structure: "article", name: null, title: "Untitled", owner: 1, status: "alive", fixed: false,
    state: null, values: {}, createdAt: date(1), modifiedAt: date(1), importKey: null, ...overrides,
  };
}

function entry(overrides: Partial<HistoryEntry> = {}): HistoryEntry {
  return {
    initid: 1, revisionId: 1, revision: 0, accountId: 1, accountName: "admin", date: date(1), level: "info",
    code: "MODIFY", comment: "", ...overrides,
  };
}

function account(login: string, overrides: Partial<NewAccount> = {}): NewAccount {
  return {
    login, displayName: login.toUpperCase(), passwordHash: "$scrypt$hash", roles: ["writer"], groups: [],
    locale: "fr-FR", rights: ["GET", "PUT", "POST", "DELETE"], ...overrides,
  };
}

function richStructure(name: string): StructureDefinition {
  return {
    name, title: { en: "Article", fr: "Article" }, icon: "article.png", lifecycle: "flow", profile: "private", titleField: "ba_title",
    fields: [
      { id: "ba_title", type: "text", label: "Title", needed: true },
      { id: "ba_rows", type: "array", fields: [{ id: "ba_cell", type: "enum", enum: "colors", multiple: true, visibility: "R" }] },
      { id: "ba_link", type: "docid", structure: "other", options: { multiple: "yes" } },
    ],
  };
}

function lifecycle(name: string): Lifecycle {
  return {
    name, label: "Flow", firstState: "draft",
    states: [{ id: "draft", label: "Draft", color: "#ccc" }, { id: "done", activity: { en: "Done" } }],
    transitions: [{
      id: "finish", from: "draft", to: "done", askComment: true, grants: ["role:writer"], hooks: { m1: "notify" },
      askAttributes: [{ id: "why", type: "text", needed: true }],
    }],
  };
}
