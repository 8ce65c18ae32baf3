import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ElementQuery, OrderTerm } from "../ports/element-repository.port.ts";
import type { Store } from "../ports/store.port.ts";
import type { ElementRevision, NewRevision } from "../elements/smart-element.ts";
import type { Lifecycle } from "../lifecycle/lifecycle.ts";
import type { StructureDefinition } from "../structures/smart-structure.ts";
import { account, byId, byName, bytes, date, draft, entry, lifecycle, MISSING_ID, richStructure } from "./store-fixtures.ts";
import { storeTransactionsContract } from "./store-transactions.contract.ts";
import { isSystemName, SYSTEM_DEFINITIONS } from "../queries/system-structures.ts";

/** Definitions of a kind but the system's, which every store holds from its first opening. */
const notSystem = <T extends { readonly name: string }>(kind: "structure" | "profile" | "enumerate", items: readonly T[]): T[] =>
  items.filter((item) => !isSystemName(kind, item.name));

/**
 * The behaviour every Store adapter shares, as one vitest suite; `open` must
 * give a new store (empty but for the system's definitions), and is called once per test. It asks only what any
 * database can give: ids ascend and differ, but may skip values; results
 * "in no particular order" are compared sorted.
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
    function createLineage(count: number, overrides: Partial<NewRevision> = {}): Promise<ElementRevision[]> {
      return store.transaction(async (tx) => {
        const first = await tx.elements.insert(draft({ ...overrides, revision: 0 }));
        let last = first;
        const revisions = [first];
        for (let revision = 1; revision < count; revision++) {
          await tx.elements.save({ ...last, fixed: true });
          last = await tx.elements.insert(draft({ ...overrides, revision, initid: first.initid }));
          revisions.push(last);
        }
        return Promise.all(revisions.map(async (r) => (await tx.elements.byId(r.id))!));
      });
    }

    describe("elements", () => {
      it("gives ascending, distinct ids, the first revision's id being the initid", async () => {
        const a = await store.elements.insert(draft());
        const b = await store.elements.insert(draft());
        const a1 = await store.elements.insert(draft({ initid: a.initid, revision: 1 }));
        expect([a.initid, b.initid, a1.initid]).toEqual([a.id, b.id, a.id]);
        expect(a.id).toBeLessThan(b.id);
        expect(b.id).toBeLessThan(a1.id);
      });

      it("keeps every property of an inserted revision", async () => {
        const full = draft({
          structure: "article", name: "ART_ONE", title: "Été ☃ 𝄞 \"quoted\"", owner: 7, state: "draft",
          values: { n: 42, x: 1.5, s: "text", m: ["a", "b"], rows: [["r1", "r2"], []], empty: null },
          createdAt: date(1), modifiedAt: date(2), importKey: "bundle:article-1",
        });
        const inserted = await store.elements.insert(full);
        expect(inserted).toEqual({ ...full, id: inserted.id, initid: inserted.id });
        expect(await store.elements.byId(inserted.id)).toEqual(inserted);
        expect(await store.elements.byId(MISSING_ID)).toBeUndefined();
      });

      it("save replaces the revision of the same id and only it", async () => {
        const a = await store.elements.insert(draft({ title: "A" }));
        const b = await store.elements.insert(draft({ title: "B" }));
        const changed: ElementRevision = {
          ...a, title: "A2", name: "A_NAME", owner: 9, status: "deleted", fixed: true, state: "done",
          values: { v: [1, 2] }, modifiedAt: date(5), importKey: "k",
        };
        await store.elements.save(changed);
        expect(await store.elements.byId(a.id)).toEqual(changed);
        expect(await store.elements.byId(b.id)).toEqual(b);
      });

      it("save refuses an id it does not hold", async () => {
        const a = await store.elements.insert(draft());
        await expect(store.elements.save({ ...a, id: MISSING_ID })).rejects.toThrow();
        expect(await store.elements.byId(MISSING_ID)).toBeUndefined();
      });

      it("latest gives the live revision of a lineage", async () => {
        const revisions = await createLineage(3);
        const other = await createLineage(1);
        expect(await store.elements.latest(revisions[0]!.initid)).toEqual(revisions[2]);
        expect(await store.elements.latest(revisions[0]!.initid)).toMatchObject({ revision: 2, fixed: false });
        expect(await store.elements.latest(other[0]!.initid)).toEqual(other[0]);
        expect(await store.elements.latest(revisions[1]!.id)).toBeUndefined();
        expect(await store.elements.latest(MISSING_ID)).toBeUndefined();
      });

      it("latestByName gives the live revision, never a fixed one", async () => {
        const named = await createLineage(3, { name: "ART" });
        const renamed = await createLineage(2, { name: "OLD" });
        await store.elements.save({ ...renamed[1]!, name: "NEW" });
        expect(await store.elements.latestByName("ART")).toEqual(named[2]);
        expect(await store.elements.latestByName("OLD")).toBeUndefined();
        expect((await store.elements.latestByName("NEW"))?.id).toBe(renamed[1]!.id);
        expect(await store.elements.latestByName("NONE")).toBeUndefined();
      });

      it("latestByName and latestByNames find nothing for a name holding U+0000 (no store keeps it), and do not fail", async () => {
        await createLineage(1, { name: "ART" });
        expect(await store.elements.latestByName("\u2603\u0000")).toBeUndefined();
        expect(await store.elements.latestByName("ART\u0000")).toBeUndefined();
        expect((await store.elements.latestByNames(["\u0000", "ART", "A\u0000RT"])).map((r) => r.name)).toEqual(["ART"]);
        expect(await store.elements.latestByNames(["\u0000"])).toEqual([]);
      });

      it("latestByName finds a lineage in the trash, preferring a live one of the same name", async () => {
        const trashed = await createLineage(2, { name: "DUP" });
        await store.elements.setLineageStatus(trashed[0]!.initid, "deleted", date(3));
        expect(await store.elements.latestByName("DUP")).toMatchObject({ id: trashed[1]!.id, status: "deleted" });
        const alive = await createLineage(1, { name: "DUP" });
        expect((await store.elements.latestByName("DUP"))?.id).toBe(alive[0]!.id);
      });

      it("revisions lists a lineage newest first", async () => {
        await createLineage(1);
        const revisions = await createLineage(3);
        expect(await store.elements.revisions(revisions[0]!.initid)).toEqual([...revisions].reverse());
        expect(await store.elements.revisions(MISSING_ID)).toEqual([]);
      });

      it("countOwnedBy counts the lineages with a revision the account owns, trash included", async () => {
        await createLineage(3, { owner: 7 });
        const other = await createLineage(2, { owner: 8 });
        const trashed = await store.elements.insert(draft({ owner: 7 }));
        await store.elements.setLineageStatus(trashed.initid, "deleted", date(3));
        await store.elements.save({ ...other[1]!, owner: 7 });
        expect(await store.elements.countOwnedBy(7)).toBe(3);
        expect(await store.elements.countOwnedBy(8)).toBe(1);
        expect(await store.elements.countOwnedBy(MISSING_ID)).toBe(0);
      });

      it("countByStructure counts the lineages of each structure with a status, each once whatever its revisions", async () => {
        await createLineage(3);
        await createLineage(1);
        await createLineage(2, { structure: "note" });
        const trashed = await createLineage(2, { structure: "note" });
        await store.elements.setLineageStatus(trashed[0]!.initid, "deleted", date(3));
        expect(await store.elements.countByStructure("alive")).toEqual({ article: 2, note: 1 });
        expect(await store.elements.countByStructure("deleted")).toEqual({ note: 1 });
      });

      it("keeps a revision's own profile and its profile, as inserted and as saved", async () => {
        const inserted = await store.elements.insert(draft({ ownProfile: "PRF_OWN", profile: "PRF_OWN" }));
        expect(await store.elements.byId(inserted.id)).toMatchObject({ ownProfile: "PRF_OWN", profile: "PRF_OWN" });
        await store.transaction((tx) => tx.elements.save({ ...inserted, ownProfile: null, profile: "PRF_STATE" }));
        expect(await store.elements.byId(inserted.id)).toMatchObject({ ownProfile: null, profile: "PRF_STATE" });
        expect((await store.elements.latestMany([inserted.initid]))[0]).toMatchObject({ ownProfile: null, profile: "PRF_STATE" });
      });

      it("countByStructure counts only what a readable filter lets through", async () => {
        await createLineage(2);
        await createLineage(1, { profile: "PRF_A" });
        await createLineage(1, { structure: "note", profile: "PRF_B" });
        await createLineage(1, { structure: "note" });
        expect(await store.elements.countByStructure("alive", { structures: ["article"], profiles: [] })).toEqual({ article: 1 });
        expect(await store.elements.countByStructure("alive", { structures: [], profiles: ["PRF_A", "PRF_B"] })).toEqual({ article: 1, note: 1 });
        expect(await store.elements.countByStructure("alive", { structures: ["note"], profiles: ["PRF_A"] })).toEqual({ article: 1, note: 1 });
        expect(await store.elements.countByStructure("alive", { structures: [], profiles: [] })).toEqual({});
      });

      it("profilesInUse tells which profiles a live revision is under, in the trash too, but not a fixed one", async () => {
        await createLineage(2, { profile: "PRF_A" });
        const [old] = await createLineage(2, { profile: "PRF_B" });
        await store.transaction((tx) => tx.elements.save({ ...old!, profile: "PRF_OLD" }));
        const trashed = await createLineage(1, { profile: "PRF_C" });
        await store.elements.setLineageStatus(trashed[0]!.initid, "deleted", date(3));
        expect((await store.elements.profilesInUse(["PRF_A", "PRF_B", "PRF_C", "PRF_OLD", "PRF_NONE"])).sort()).toEqual(["PRF_A", "PRF_B", "PRF_C"]);
        expect(await store.elements.profilesInUse([])).toEqual([]);
        expect(await store.elements.profilesInUse(["PRF_NONE"])).toEqual([]);
      });

      it("structuresOwned tells of which structures an account owns a live revision, in the trash too, but not a fixed one", async () => {
        await createLineage(2, { structure: "article", owner: 7 });
        const [old] = await createLineage(2, { structure: "note", owner: 8 });
        await store.transaction((tx) => tx.elements.save({ ...old!, owner: 7 }));
        const trashed = await createLineage(1, { structure: "memo", owner: 7 });
        await store.elements.setLineageStatus(trashed[0]!.initid, "deleted", date(3));
        await createLineage(1, { structure: "folder", owner: 9 });
        expect((await store.elements.structuresOwned(7, ["article", "note", "memo", "folder", "none"])).sort()).toEqual(["article", "memo"]);
        expect(await store.elements.structuresOwned(9, ["folder"])).toEqual(["folder"]);
        expect(await store.elements.structuresOwned(7, [])).toEqual([]);
        expect(await store.elements.structuresOwned(1, ["article"])).toEqual([]);
      });

      it("byImportKey gives the latest revision carrying the key", async () => {
        await createLineage(1, { importKey: "other" });
        const keyed = await createLineage(2, { importKey: "bundle:k1" });
        expect(await store.elements.byImportKey("bundle:k1")).toEqual(keyed[1]);
        expect(await store.elements.byImportKey("missing")).toBeUndefined();
      });

      it("setLineageStatus moves every revision, stamping the live one", async () => {
        const revisions = await createLineage(3, { modifiedAt: date(1) });
        const other = await createLineage(1);
        const initid = revisions[0]!.initid;
        await store.elements.setLineageStatus(initid, "deleted", date(7));
        expect((await store.elements.revisions(initid)).map((r) => [r.status, r.modifiedAt, r.fixed])).toEqual([
          ["deleted", date(7), false], ["deleted", date(1), true], ["deleted", date(1), true],
        ]);
        expect(await store.elements.byId(other[0]!.id)).toEqual(other[0]);
        await store.elements.setLineageStatus(initid, "alive", date(8));
        expect((await store.elements.revisions(initid)).map((r) => r.status)).toEqual(["alive", "alive", "alive"]);
        expect((await store.elements.latest(initid))?.modifiedAt).toBe(date(8));
      });

      describe("list", () => {
        // Four live lineages a, b, c, d (d has a fixed first revision) and a deleted e, each
        // property ordering them differently so a wrong column cannot pass. Ids ascend in
        // insertion order, which the orders on id and initid rely on.
        const letters = new Map<number, string>();
        const page = async (query: Partial<ElementQuery>) =>
          (await store.elements.list({ status: "alive", orderBy: [], limit: null, offset: 0, ...query })).map((r) => letters.get(r.id) ?? `?${r.id}`);
        const by = (key: string, direction: "asc" | "desc" = "asc", kind: OrderTerm["kind"] = "property"): OrderTerm[] => [{ kind, key, direction }];

        beforeEach(async () => {
          letters.clear();
          await store.transaction(async (tx) => {
            await tx.catalog.saveStructure({ name: "zeta", fields: [] });
            await tx.catalog.saveStructure({ name: "alpha", fields: [] });
            const add = async (letter: string, revision: Partial<NewRevision>) => {
              const inserted = await tx.elements.insert(draft(revision));
              letters.set(inserted.id, letter);
              return inserted;
            };
            await add("a", { structure: "zeta", title: "Banana", name: "N_C", owner: 3, state: "s1", createdAt: date(2), modifiedAt: date(4),
              values: { n: 10, s: "b", mix: 5, multi: ["b", "a"] } });
            await add("b", { structure: "alpha", title: "apple", name: null, owner: 2, state: null, createdAt: date(3), modifiedAt: date(1),
              values: { n: 9, s: "a", mix: "5", multi: ["a", "z"] } });
            await add("c", { structure: "alpha", title: "Banana", name: "N_A", owner: 4, state: "s3", createdAt: date(1), modifiedAt: date(3),
              values: { n: 2.5, mix: 40, multi: [] } });
            const oldD = await add("old-d", { structure: "zeta", title: "Aardvark", name: "N_B", owner: 1, fixed: true, createdAt: date(9),
              modifiedAt: date(9), values: { n: -1 } });
            await add("d", { structure: "zeta", title: "Cherry", name: "N_B", owner: 1, state: "s2", revision: 1, initid: oldD.id,
              createdAt: date(4), modifiedAt: date(2), values: { n: null, mix: "abc" } });
            await add("e", { structure: "alpha", title: "Deleted", status: "deleted" });
          });
        });

        it("gives only the live revision of each lineage of the status asked", async () => {
          expect(await page({ orderBy: by("id") })).toEqual(["a", "b", "c", "d"]);
          expect(await page({ status: "deleted" })).toEqual(["e"]);
          const [first] = await store.elements.list({ status: "alive", orderBy: by("id", "desc"), limit: 1, offset: 0 });
          expect(first).toEqual(await store.elements.latest(first!.initid));
          expect(letters.get(first!.id)).toBe("d");
        });

        it("filters by structures: undefined means all, [] means none", async () => {
          expect(await page({ structures: undefined })).toHaveLength(4);
          expect(await page({ structures: [] })).toEqual([]);
          expect(await page({ structures: ["alpha"], orderBy: by("id") })).toEqual(["b", "c"]);
          expect(await page({ structures: ["alpha", "zeta"] })).toHaveLength(4);
          expect(await page({ structures: ["unknown"] })).toEqual([]);
        });

        it("filters by a readable filter: structures under their structure's profile, elements under a profile of their own", async () => {
          const [c] = await store.elements.list({ status: "alive", orderBy: by("id"), limit: 1, offset: 2 });
          const [d] = await store.elements.list({ status: "alive", orderBy: by("id"), limit: 1, offset: 3 });
          await store.transaction(async (tx) => {
            await tx.elements.save({ ...c!, profile: "P_X" });
            await tx.elements.save({ ...d!, profile: "zeta" });
          });
          const readable = (structures: string[], profiles: string[]) => ({ structures, profiles });
          expect(await page({ orderBy: by("id"), readable: readable(["alpha"], []) })).toEqual(["b"]);
          expect(await page({ orderBy: by("id"), readable: readable([], ["P_X"]) })).toEqual(["c"]);
          // A profile and a structure of the same name are told apart.
          expect(await page({ orderBy: by("id"), readable: readable(["zeta"], ["P_X"]) })).toEqual(["a", "c"]);
          expect(await page({ orderBy: by("id"), readable: readable([], ["zeta"]) })).toEqual(["d"]);
          expect(await page({ orderBy: by("id"), readable: readable([], []) })).toEqual([]);
          expect(await page({ structures: ["alpha"], orderBy: by("id"), readable: readable(["zeta"], ["P_X"]) })).toEqual(["c"]);
          expect(await page({ structures: ["alpha", "zeta"], orderBy: by("title"), readable: readable(["zeta"], ["P_X"]) })).toEqual(["c", "a"]);
          // Orders read group by group, and field orders, keep to it too.
          expect(await page({ orderBy: [...by("owner", "desc"), ...by("title")], readable: readable(["zeta", "alpha"], []) })).toEqual(["a", "b"]);
          expect(await page({ structures: ["alpha"], orderBy: by("n", "desc", "field"), readable: readable([], ["P_X"]) })).toEqual(["c"]);
          expect(await page({ orderBy: by("title"), readable: readable(["zeta", "alpha"], ["P_X", "zeta"]), limit: 2, offset: 1 })).toEqual(["a", "d"]);
        });

        it("lets through the elements a caller may view as their owner only (owned): their own under those structures and profiles", async () => {
          const [c] = await store.elements.list({ status: "alive", orderBy: by("id"), limit: 1, offset: 2 });
          await store.transaction((tx) => tx.elements.save({ ...c!, profile: "P_X" }));
          // a: zeta, owner 3; b: alpha, owner 2; c: under P_X, owner 4; d: zeta, owner 1.
          const owned = (owner: number, structures: string[], profiles: string[], plain: string[] = []) =>
            ({ structures: plain, profiles: [], owned: { owner, structures, profiles } });
          expect(await page({ orderBy: by("id"), readable: owned(3, ["zeta"], []) })).toEqual(["a"]);
          expect(await page({ orderBy: by("id"), readable: owned(1, ["zeta"], []) })).toEqual(["d"]);
          expect(await page({ orderBy: by("id"), readable: owned(4, [], ["P_X"]) })).toEqual(["c"]);
          expect(await page({ orderBy: by("id"), readable: owned(2, [], ["P_X"]) })).toEqual([]);
          // Under its profile, an element is not its structure's: owning one of alpha gives nothing of c.
          expect(await page({ orderBy: by("id"), readable: owned(4, ["alpha"], []) })).toEqual([]);
          // With what the caller may view whoever owns it; a key viewable both ways lets every owner's through.
          expect(await page({ orderBy: by("id"), readable: owned(1, ["zeta"], [], ["alpha"]) })).toEqual(["b", "d"]);
          expect(await page({ orderBy: by("id"), readable: owned(9, ["zeta"], [], ["zeta"]) })).toEqual(["a", "d"]);
          // Orders read group by group, merged structures and field orders keep to it too.
          expect(await page({ orderBy: [...by("owner", "desc"), ...by("title")], readable: owned(3, ["zeta"], [], ["alpha"]) })).toEqual(["a", "b"]);
          expect(await page({ structures: ["alpha", "zeta"], orderBy: by("title"), readable: owned(1, ["zeta"], ["P_X"]) })).toEqual(["d"]);
          expect(await page({ structures: ["zeta"], orderBy: by("n", "desc", "field"), readable: owned(3, ["zeta"], []) })).toEqual(["a"]);
          expect(await page({ orderBy: by("title"), readable: owned(4, ["zeta"], ["P_X"], ["alpha"]), limit: 1, offset: 1 })).toEqual(["b"]);
          expect(await store.elements.countByStructure("alive", owned(3, ["zeta"], [], ["alpha"]))).toEqual({ alpha: 1, zeta: 1 });
        });

        it("sorts on title ascending with id descending to break ties", async () => {
          const titleThenId: OrderTerm[] = [...by("title"), ...by("id", "desc")];
          expect(await page({ orderBy: titleThenId })).toEqual(["c", "a", "d", "b"]);
          expect(await page({ orderBy: [...by("title"), ...by("id")] })).toEqual(["a", "c", "d", "b"]);
          expect(await page({ orderBy: by("title", "desc") })).toEqual(["b", "d", "c", "a"]);
        });

        it("closes any order with id descending", async () => {
          expect(await page({ orderBy: [] })).toEqual(["d", "c", "b", "a"]);
          expect(await page({ orderBy: by("status") })).toEqual(["d", "c", "b", "a"]);
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
        ])("sorts on the property %s", async (key, ascending) => {
          expect(await page({ orderBy: by(key) })).toEqual(ascending);
        });

        it.each(["id", "initid", "name", "owner", "state", "cdate", "mdate"])("sorts on %s descending", async (key) => {
          expect(await page({ orderBy: by(key, "desc") })).toEqual((await page({ orderBy: by(key) })).reverse());
        });

        it("sorts text by code point, upper case first, as the API does", async () => {
          const titles = ["𝄞", "\uFFFD", "é", "a", "Z"];
          for (const title of titles) await store.elements.insert(draft({ structure: "glyphs", title }));
          const sorted = await store.elements.list({ status: "alive", structures: ["glyphs"], orderBy: by("title"), limit: null, offset: 0 });
          expect(sorted.map((r) => r.title)).toEqual(["Z", "a", "é", "\uFFFD", "𝄞"]);
        });

        it("sorts on several terms in turn", async () => {
          expect(await page({ orderBy: [...by("fromname", "desc"), ...by("owner")] })).toEqual(["d", "a", "b", "c"]);
        });

        it("refuses an unknown property", async () => {
          await expect(page({ orderBy: by("nope") })).rejects.toThrow();
        });

        it("sorts on field values, missing and null values first when ascending", async () => {
          expect(await page({ orderBy: by("n", "asc", "field") })).toEqual(["d", "c", "b", "a"]);
          expect(await page({ orderBy: by("n", "desc", "field") })).toEqual(["a", "b", "c", "d"]);
          expect(await page({ orderBy: by("s", "asc", "field") })).toEqual(["d", "c", "b", "a"]);
          expect(await page({ orderBy: by("s", "desc", "field") })).toEqual(["a", "b", "d", "c"]);
          expect(await page({ orderBy: by("absent", "asc", "field") })).toEqual(["d", "c", "b", "a"]);
        });

        it("sorts numbers by value and before text, as the API orders JSON values", async () => {
          expect(await page({ orderBy: by("mix", "asc", "field") })).toEqual(["a", "c", "b", "d"]);
        });

        it("sorts several structures together on a field, whether each keeps an index of it or not (a parent's collection)", async () => {
          // A structure that extends another is stored as given; a store indexes its fields as resolved, inherited ones too.
          await store.transaction(async (tx) => {
            await tx.catalog.saveStructure({ name: "zeta", fields: [{ id: "n", type: "double" }, { id: "s", type: "text" }] });
            await tx.catalog.saveStructure({ name: "alpha", extends: "zeta", fields: [] });
          });
          const both = ["alpha", "zeta"];
          expect(await page({ structures: both, orderBy: by("n", "asc", "field") })).toEqual(["d", "c", "b", "a"]);
          expect(await page({ structures: both, orderBy: by("n", "desc", "field") })).toEqual(["a", "b", "c", "d"]);
          expect(await page({ structures: both, orderBy: [...by("s", "desc", "field"), ...by("id")], limit: 2, offset: 1 })).toEqual(["b", "c"]);
          expect(await page({ structures: ["zeta"], orderBy: by("n", "asc", "field") })).toEqual(["d", "a"]);
          expect(await page({ structures: ["alpha"], orderBy: by("n", "desc", "field") })).toEqual(["b", "c"]);
        });

        it("sorts a family on fields its structures inherit, by pages, and after a parent gains a field its descendants' elements have", async () => {
          // A grandchild saved before its parent, elements written before the parent declares the field they sort on.
          const family = await store.transaction(async (tx) => {
            await tx.catalog.saveStructure({ name: "leaf", extends: "mid", fields: [] });
            await tx.catalog.saveStructure({ name: "root", fields: [{ id: "k", type: "int" }] });
            await tx.catalog.saveStructure({ name: "mid", extends: "root", fields: [{ id: "m", type: "text" }] });
            const written = new Map<string, number>();
            for (const [i, structure] of ["root", "mid", "leaf", "mid", "root", "leaf", "leaf"].entries()) {
              const inserted = await tx.elements.insert(draft({ structure, values: { k: (i * 5) % 7, m: `m${i % 3}`, late: `${9 - i}` } }));
              written.set(`${structure}${i}`, inserted.id);
            }
            return written;
          });
          const named = new Map([...family].map(([key, id]) => [id, key]));
          const list = async (query: Partial<ElementQuery>) =>
            (await store.elements.list({ status: "alive", orderBy: [], limit: null, offset: 0, ...query })).map((r) => named.get(r.id));
          const all = ["root", "mid", "leaf"];
          // k: root0 0, mid1 5, leaf2 3, mid3 1, root4 6, leaf5 4, leaf6 2.
          expect(await list({ structures: all, orderBy: by("k", "asc", "field") })).toEqual(["root0", "mid3", "leaf6", "leaf2", "leaf5", "mid1", "root4"]);
          expect(await list({ structures: all, orderBy: by("k", "desc", "field"), limit: 3, offset: 2 })).toEqual(["leaf5", "leaf2", "leaf6"]);
          expect(await list({ structures: ["mid", "leaf"], orderBy: by("k", "asc", "field"), limit: 2, offset: 1 })).toEqual(["leaf6", "leaf2"]);
          expect(await list({ structures: ["leaf"], orderBy: by("k", "desc", "field"), limit: 2, offset: 1 })).toEqual(["leaf2", "leaf6"]);
          expect(await list({ structures: ["mid", "leaf"], orderBy: [...by("m", "desc", "field"), ...by("id")] }))
            .toEqual(["leaf2", "leaf5", "mid1", "mid3", "leaf6"]);
          // Narrowed to the structures a caller may view, and filtered by rights.
          expect(await list({ structures: ["root", "leaf"], orderBy: by("k", "asc", "field"), readable: { structures: ["leaf", "root"], profiles: [] } }))
            .toEqual(["root0", "leaf6", "leaf2", "leaf5", "root4"]);
          // The root gains a field: every descendant's elements sort on it, the grandchild's alone too.
          await store.transaction((tx) => tx.catalog.saveStructure({ name: "root", fields: [{ id: "k", type: "int" }, { id: "late", type: "text" }] }));
          expect(await list({ structures: ["leaf"], orderBy: by("late", "asc", "field") })).toEqual(["leaf6", "leaf5", "leaf2"]);
          expect(await list({ structures: all, orderBy: by("late", "desc", "field"), limit: 4, offset: 1 })).toEqual(["mid1", "leaf2", "mid3", "root4"]);
          // And loses one: the order stays right, with or without an index.
          await store.transaction((tx) => tx.catalog.saveStructure({ name: "root", fields: [{ id: "late", type: "text" }] }));
          expect(await list({ structures: all, orderBy: by("k", "asc", "field"), limit: 2 })).toEqual(["root0", "mid3"]);
        });

        it("sorts multiple values by their JSON text, as the API does", async () => {
          expect(await page({ orderBy: by("multi", "asc", "field") })).toEqual(["d", "b", "a", "c"]);
        });

        it("pages with limit and offset, a null limit meaning all", async () => {
          const ids = by("id");
          expect(await page({ orderBy: ids, limit: null })).toEqual(["a", "b", "c", "d"]);
          expect(await page({ orderBy: ids, limit: 2 })).toEqual(["a", "b"]);
          expect(await page({ orderBy: ids, limit: 2, offset: 1 })).toEqual(["b", "c"]);
          expect(await page({ orderBy: ids, limit: null, offset: 2 })).toEqual(["c", "d"]);
          expect(await page({ orderBy: ids, limit: 10, offset: 3 })).toEqual(["d"]);
          expect(await page({ orderBy: ids, limit: 10, offset: 4 })).toEqual([]);
          expect(await page({ orderBy: ids, limit: 0 })).toEqual([]);
        });
      });

      describe("batch reads", () => {
        it("byIds gives the revisions of the ids that exist, fixed ones included", async () => {
          const [old, live] = await createLineage(2);
          const other = await store.elements.insert(draft());
          expect(byId(await store.elements.byIds([other.id, old!.id, MISSING_ID, live!.id, other.id]))).toEqual([old, live, other]);
          expect(await store.elements.byIds([])).toEqual([]);
          expect(await store.elements.byIds([MISSING_ID])).toEqual([]);
        });

        it("latestByNames gives what latestByName gives, for each name found", async () => {
          await createLineage(3, { name: "ART" });
          const trashed = await createLineage(2, { name: "DUP" });
          await store.elements.setLineageStatus(trashed[0]!.initid, "deleted", date(3));
          await createLineage(1, { name: "DUP" });
          const gone = await createLineage(1, { name: "GONE" });
          await store.elements.setLineageStatus(gone[0]!.initid, "deleted", date(4));
          const expected = await Promise.all(["ART", "DUP", "GONE"].map(async (n) => (await store.elements.latestByName(n))!));
          expect(byId(await store.elements.latestByNames(["GONE", "ART", "NONE", "DUP"]))).toEqual(byId(expected));
          expect(await store.elements.latestByNames([])).toEqual([]);
        });

        it("latestMany gives the live revision of each lineage found", async () => {
          const a = await createLineage(3);
          const b = await createLineage(1);
          const found = await store.elements.latestMany([b[0]!.initid, MISSING_ID, a[0]!.initid, a[1]!.id]);
          expect(byId(found)).toEqual(byId([a[2]!, b[0]!]));
          expect(await store.elements.latestMany([])).toEqual([]);
        });

        it("answers a long list of keys in one call", async () => {
          const [a, b] = [await store.elements.insert(draft({ name: "A" })), await store.elements.insert(draft({ name: "B" }))];
          const many = Array.from({ length: 40_000 }, (_, i) => MISSING_ID + i);
          expect(byId(await store.elements.byIds([...many, a.id, b.id]))).toEqual([a, b]);
          expect(byId(await store.elements.latestMany([a.initid, ...many, b.initid]))).toEqual([a, b]);
          expect(byId(await store.elements.latestByNames([...many.map(String), "A", "B"]))).toEqual([a, b]);
        });

        it("accounts.byIds gives the accounts that exist", async () => {
          const alice = await store.accounts.saveAccount(account("alice"));
          const bob = await store.accounts.saveAccount(account("bob"));
          await store.accounts.saveAccount(account("carol"));
          expect(byId(await store.accounts.byIds([bob.id, MISSING_ID, alice.id]))).toEqual([alice, bob]);
          expect(await store.accounts.byIds([])).toEqual([]);
        });

        it("vault.files gives the files that exist", async () => {
          const a = await store.vault.store(bytes("a"), { name: "a.txt", mime: "text/plain" });
          const b = await store.vault.store(bytes("b"), { name: "b.txt", mime: "text/plain" });
          await store.vault.store(bytes("c"), { name: "c.txt", mime: "text/plain" });
          expect(byId(await store.vault.files([b.id, MISSING_ID, a.id]))).toEqual([a, b]);
          expect(await store.vault.files([])).toEqual([]);
        });

        it("the catalog lists every enumerate, lifecycle and profile", async () => {
          expect([notSystem("enumerate", await store.catalog.enumerates()), await store.catalog.lifecycles(), notSystem("profile", await store.catalog.profiles())])
            .toEqual([[], [], []]);
          const enumerates = [{ name: "b", items: [{ key: "x", label: "X" }] }, { name: "a", items: [] }];
          for (const e of enumerates) await store.catalog.saveEnumerate(e);
          await store.catalog.saveEnumerate({ name: "b", items: [] });
          await store.catalog.saveLifecycle(lifecycle("flow"));
          await store.catalog.saveLifecycle(lifecycle("other"));
          await store.catalog.saveProfile({ name: "private", grants: { view: ["role:reader"] } });
          expect(byName(notSystem("enumerate", await store.catalog.enumerates()))).toEqual([{ name: "a", items: [] }, { name: "b", items: [] }]);
          expect(byName(await store.catalog.lifecycles())).toEqual([lifecycle("flow"), lifecycle("other")]);
          expect(notSystem("profile", await store.catalog.profiles())).toEqual([{ name: "private", grants: { view: ["role:reader"] } }]);
        });
      });
    });

    describe("history", () => {
      it("keeps every field of an entry", async () => {
        const full = entry({ initid: 3, revisionId: 5, revision: 1, accountId: 2, accountName: "Zoé", level: "warning", code: null, comment: "Été" });
        await store.elements.appendHistory(full);
        expect(await store.elements.history(3)).toEqual([full]);
        expect(await store.elements.history(MISSING_ID)).toEqual([]);
      });

      it("lists a lineage's entries by revision, then date, newest first", async () => {
        const add = (revision: number, day: number, comment: string, initid = 1) =>
          store.elements.appendHistory(entry({ initid, revision, date: date(day), comment }));
        await add(0, 1, "r0-d1");
        await add(1, 2, "r1-d2");
        await add(0, 3, "r0-d3");
        await add(1, 4, "r1-d4 first");
        await add(1, 4, "r1-d4 second");
        await add(2, 1, "other lineage", 2);
        expect((await store.elements.history(1)).map((e) => e.comment)).toEqual(["r1-d4 second", "r1-d4 first", "r1-d2", "r0-d3", "r0-d1"]);
      });
    });

    describe("catalog", () => {
      it("holds the system's structures, profile and enumerate from its first opening, as the core defines them", async () => {
        const structures = await store.catalog.structures();
        const system = structures.filter((structure) => isSystemName("structure", structure.name));
        expect(system.map(({ id: _id, ...definition }) => definition)).toEqual(SYSTEM_DEFINITIONS.structures);
        // Before any other structure: they come with the store.
        expect(structures.slice(0, system.length)).toEqual(system);
        for (const structure of system) expect(await store.catalog.structureById(structure.id)).toEqual(structure);
        for (const profile of SYSTEM_DEFINITIONS.profiles) expect(await store.catalog.profile(profile.name)).toEqual(profile);
        for (const enumerate of SYSTEM_DEFINITIONS.enumerates) expect(await store.catalog.enumerate(enumerate.name)).toEqual(enumerate);
      });

      it("gives structures ascending ids and finds them by name and id", async () => {
        const zeta = await store.catalog.saveStructure({ name: "zeta", fields: [] });
        const alpha = await store.catalog.saveStructure(richStructure("alpha"));
        expect(alpha).toEqual({ ...richStructure("alpha"), id: alpha.id });
        expect(zeta.id).toBeLessThan(alpha.id);
        expect(await store.catalog.structure("alpha")).toEqual(alpha);
        expect(await store.catalog.structureById(zeta.id)).toEqual(zeta);
        expect(notSystem("structure", await store.catalog.structures())).toEqual([zeta, alpha]);
        expect(await store.catalog.structure("nope")).toBeUndefined();
        expect(await store.catalog.structureById(MISSING_ID)).toBeUndefined();
      });

      it("replaces a structure by name, keeping its id", async () => {
        const a = await store.catalog.saveStructure({ name: "a", fields: [] });
        const b = await store.catalog.saveStructure({ name: "b", fields: [] });
        const replaced = await store.catalog.saveStructure(richStructure("a"));
        expect(replaced.id).toBe(a.id);
        expect(await store.catalog.structure("a")).toEqual({ ...richStructure("a"), id: a.id });
        expect(notSystem("structure", await store.catalog.structures())).toEqual([replaced, b]);
        expect((await store.catalog.saveStructure({ name: "c", fields: [] })).id).toBeGreaterThan(b.id);
      });

      it("ignores an id carried by the definition", async () => {
        await store.catalog.saveStructure({ name: "a", fields: [] });
        const saved = await store.catalog.saveStructure({ ...richStructure("b"), id: 42 } as StructureDefinition);
        expect(saved).toEqual({ ...richStructure("b"), id: saved.id });
        expect(saved.id).not.toBe(42);
        expect((await store.catalog.structureById(saved.id))?.name).toBe("b");
      });

      it("saves, finds and replaces enumerates", async () => {
        const colors = { name: "colors", items: [{ key: "red", label: { en: "Red", fr: "Rouge" } }, { key: "dark-red", label: "Dark", parentKey: "red" }] };
        await store.catalog.saveEnumerate(colors);
        expect(await store.catalog.enumerate("colors")).toEqual(colors);
        await store.catalog.saveEnumerate({ name: "colors", items: [] });
        expect(await store.catalog.enumerate("colors")).toEqual({ name: "colors", items: [] });
        expect(await store.catalog.enumerate("nope")).toBeUndefined();
      });

      it("saves, finds and replaces lifecycles", async () => {
        await store.catalog.saveLifecycle(lifecycle("flow"));
        expect(await store.catalog.lifecycle("flow")).toEqual(lifecycle("flow"));
        const simpler: Lifecycle = { name: "flow", firstState: "only", states: [{ id: "only" }], transitions: [] };
        await store.catalog.saveLifecycle(simpler);
        expect(await store.catalog.lifecycle("flow")).toEqual(simpler);
        expect(await store.catalog.lifecycle("nope")).toBeUndefined();
      });

      it("saves, finds and replaces profiles", async () => {
        const profile = { name: "private", grants: { view: ["role:reader", "user:ann"], edit: ["group:staff"] } };
        await store.catalog.saveProfile(profile);
        expect(await store.catalog.profile("private")).toEqual(profile);
        await store.catalog.saveProfile({ name: "private", grants: {} });
        expect(await store.catalog.profile("private")).toEqual({ name: "private", grants: {} });
        expect(await store.catalog.profile("nope")).toBeUndefined();
      });

      it("saves, finds, lists and replaces field accesses", async () => {
        const access = { name: "FAL_B", layers: [{ grant: "role:auditor", fields: { secret: "R" as const, notes: "W" as const } }] };
        expect(await store.catalog.fieldAccesses()).toEqual([]);
        await store.catalog.saveFieldAccess(access);
        await store.catalog.saveFieldAccess({ name: "FAL_A", layers: [] });
        expect(await store.catalog.fieldAccess("FAL_B")).toEqual(access);
        expect(await store.catalog.fieldAccesses()).toEqual([{ name: "FAL_A", layers: [] }, access]);
        await store.catalog.saveFieldAccess({ name: "FAL_B", layers: [{ grant: "user:ann", fields: {} }] });
        expect(await store.catalog.fieldAccess("FAL_B")).toEqual({ name: "FAL_B", layers: [{ grant: "user:ann", fields: {} }] });
        expect(await store.catalog.fieldAccess("nope")).toBeUndefined();
      });
    });

    describe("accounts", () => {
      it("creates accounts with ascending ids, found by login and id", async () => {
        const alice = await store.accounts.saveAccount(account("alice"));
        const bob = await store.accounts.saveAccount(account("bob", { passwordHash: null, rights: [] }));
        expect(alice).toEqual({ ...account("alice"), id: alice.id });
        expect(bob).toEqual({ ...account("bob", { passwordHash: null, rights: [] }), id: bob.id });
        expect(alice.id).toBeLessThan(bob.id);
        expect(await store.accounts.byLogin("bob")).toEqual(bob);
        expect(await store.accounts.byId(alice.id)).toEqual(alice);
        expect(await store.accounts.byLogin("carol")).toBeUndefined();
        expect(await store.accounts.byLogin("bob\u0000")).toBeUndefined();
        expect(await store.accounts.byId(MISSING_ID)).toBeUndefined();
      });

      it("replaces the account of the same login, keeping its id", async () => {
        const alice = await store.accounts.saveAccount(account("alice"));
        const bob = await store.accounts.saveAccount(account("bob"));
        const changed = account("alice", { displayName: "Alice B.", roles: [], groups: ["staff"], locale: "en-US", rights: ["GET"] });
        expect(await store.accounts.saveAccount(changed)).toEqual({ ...changed, id: alice.id });
        expect(await store.accounts.byId(alice.id)).toEqual({ ...changed, id: alice.id });
        expect(await store.accounts.byLogin("bob")).toEqual(bob);
        expect((await store.accounts.saveAccount(account("carol"))).id).toBeGreaterThan(bob.id);
      });

      it("keeps the disabled flag, and lists every account by id", async () => {
        expect(await store.accounts.list()).toEqual([]);
        const bob = await store.accounts.saveAccount(account("bob", { disabled: true }));
        const alice = await store.accounts.saveAccount(account("alice"));
        expect(await store.accounts.byLogin("bob")).toEqual({ ...account("bob", { disabled: true }), id: bob.id });
        expect(await store.accounts.list()).toEqual([bob, alice]);
        const enabled = await store.accounts.saveAccount({ ...bob, disabled: false });
        expect(enabled).toEqual({ ...bob, disabled: false });
        expect(await store.accounts.byId(bob.id)).toEqual(enabled);
      });

      it("removes an account by id, and a removed login may be added again with a new id", async () => {
        const alice = await store.accounts.saveAccount(account("alice"));
        const bob = await store.accounts.saveAccount(account("bob"));
        const before = await store.changes.read();
        expect(await store.accounts.removeAccount(alice.id)).toBe(true);
        expect((await store.changes.read()).definitions).not.toBe(before.definitions);
        expect(await store.accounts.removeAccount(alice.id)).toBe(false);
        expect(await store.accounts.byLogin("alice")).toBeUndefined();
        expect(await store.accounts.byId(alice.id)).toBeUndefined();
        expect(await store.accounts.list()).toEqual([bob]);
        expect((await store.accounts.saveAccount(account("alice"))).id).toBeGreaterThan(bob.id);
      });

      it("saves roles and replaces them by id, in the order first saved", async () => {
        expect(await store.accounts.roles()).toEqual([]);
        await store.accounts.saveRole({ id: "writer", label: "Writer" });
        await store.accounts.saveRole({ id: "admin" });
        await store.accounts.saveRole({ id: "writer", label: { en: "Writer", fr: "Rédacteur" } });
        expect(await store.accounts.roles()).toEqual([{ id: "writer", label: { en: "Writer", fr: "Rédacteur" } }, { id: "admin" }]);
      });

      it("saves groups and replaces them by id, in the order first saved", async () => {
        expect(await store.accounts.groups()).toEqual([]);
        await store.accounts.saveGroup({ id: "staff", roles: ["writer"] });
        await store.accounts.saveGroup({ id: "guests", label: "Guests", roles: [] });
        await store.accounts.saveGroup({ id: "staff", label: "Staff", roles: ["writer", "admin"] });
        expect(await store.accounts.groups()).toEqual([
          { id: "staff", label: "Staff", roles: ["writer", "admin"] }, { id: "guests", label: "Guests", roles: [] },
        ]);
      });
    });

    describe("vault", () => {
      const HELLO_SHA256 = "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824";

      it("stores a file and gives back its metadata and content", async () => {
        const file = await store.vault.store(bytes("hello"), { name: "hello.txt", mime: "text/plain" });
        expect(file).toMatchObject({ sha256: HELLO_SHA256, name: "hello.txt", mime: "text/plain", size: 5 });
        expect(new Date(file.createdAt).toISOString()).toBe(file.createdAt);
        expect(await store.vault.file(file.id)).toEqual(file);
        expect(await store.vault.read(file.id)).toEqual(bytes("hello"));
        expect(await store.vault.file(MISSING_ID)).toBeUndefined();
        expect(await store.vault.read(MISSING_ID)).toBeUndefined();
      });

      it("keeps binary content and empty files intact", async () => {
        const binary = Uint8Array.from({ length: 256 }, (_, i) => i);
        const a = await store.vault.store(binary, { name: "all.bin", mime: "application/octet-stream" });
        const empty = await store.vault.store(new Uint8Array(0), { name: "empty", mime: "application/octet-stream" });
        expect(await store.vault.read(a.id)).toEqual(binary);
        expect(empty.size).toBe(0);
        expect(await store.vault.read(empty.id)).toEqual(new Uint8Array(0));
      });

      it("gives the same file back for the same content and name", async () => {
        const first = await store.vault.store(bytes("hello"), { name: "hello.txt", mime: "text/plain" });
        expect(await store.vault.store(bytes("hello"), { name: "hello.txt", mime: "text/plain" })).toEqual(first);
        const renamed = await store.vault.store(bytes("hello"), { name: "copy.txt", mime: "text/plain" });
        const changed = await store.vault.store(bytes("hello!"), { name: "hello.txt", mime: "text/plain" });
        expect(renamed.sha256).toBe(HELLO_SHA256);
        expect(new Set([first.id, renamed.id, changed.id]).size).toBe(3);
        expect(await store.vault.read(renamed.id)).toEqual(bytes("hello"));
        expect(await store.vault.read(changed.id)).toEqual(bytes("hello!"));
      });

      it("is not affected by later changes to the caller's buffer", async () => {
        const content = bytes("hello");
        const file = await store.vault.store(content, { name: "hello.txt", mime: "text/plain" });
        content.fill(0);
        expect(await store.vault.read(file.id)).toEqual(bytes("hello"));
      });
    });

    storeTransactionsContract(() => store);
  });
}
