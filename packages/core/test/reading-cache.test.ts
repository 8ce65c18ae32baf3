import { describe, expect, it } from "vitest";
import { createVersionedCache } from "../src/scope/reading-cache.ts";
import { createPlatform, createScryptPasswordHasher } from "./internals.ts";
import { countingStore } from "../src/testing/counting-store.ts";
import { principalsOf, seededPlatform } from "../src/testing/seeded-platform.ts";

describe("a versioned cache", () => {
  it("serves the kept answer while the version stays, and loads again when it changes", async () => {
    const cache = createVersionedCache<number>(10);
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.get("k", "v1", load)).toBe(1);
    expect(await cache.get("k", "v1", load)).toBe(1);
    expect(await cache.get("k", "v2", load)).toBe(2);
    expect(await cache.get("other", "v2", load)).toBe(3);
  });

  it("keeps nothing without a version, nor failures", async () => {
    const cache = createVersionedCache<number>(10);
    let loads = 0;
    expect(await cache.get("k", undefined, async () => ++loads)).toBe(1);
    expect(await cache.get("k", undefined, async () => ++loads)).toBe(2);
    await expect(cache.get("bad", "v", async () => { throw new Error("no"); })).rejects.toThrow("no");
    expect(await cache.get("bad", "v", async () => 7)).toBe(7);
  });

  it("loads once for requests asking at the same time, and forgets a failure for the next ones", async () => {
    const cache = createVersionedCache<number>(10);
    let loads = 0;
    let release!: (value: number) => void;
    const slow = () => { loads++; return new Promise<number>((resolve) => { release = resolve; }); };
    const first = cache.get("k", "v", slow);
    const second = cache.get("k", "v", slow);
    release(42);
    expect([await first, await second, loads]).toEqual([42, 42, 1]);

    const failing = cache.get("f", "v", async () => { throw new Error("once"); });
    await expect(cache.get("f", "v", async () => 1)).rejects.toThrow("once");
    await expect(failing).rejects.toThrow("once");
    expect(await cache.get("f", "v", async () => 2)).toBe(2);
  });

  it("forgets the least recently used answer beyond its capacity", async () => {
    const cache = createVersionedCache<string>(2);
    await cache.get("a", "v", async () => "a1");
    await cache.get("b", "v", async () => "b1");
    await cache.get("a", "v", async () => "a2");
    await cache.get("c", "v", async () => "c1");
    expect(await cache.get("a", "v", async () => "a3")).toBe("a1");
    expect(await cache.get("b", "v", async () => "b2")).toBe("b2");
  });
});

describe("GET one element through the platform's cache", () => {
  it("shows a change at once, and the title of a referenced element that changed", async () => {
    const { platform, principal } = await seededPlatform();
    const admin = await principal("admin");
    const before = await platform.elements.read(admin, "ART_HELLO");
    expect(await platform.elements.read(admin, "ART_HELLO")).toBe(before);
    await platform.elements.update(admin, "AUTHOR_ADA", { values: { au_name: "Augusta Ada King" } });
    const after = await platform.elements.read(admin, "ART_HELLO");
    expect(after.data.document.attributes?.ar_author).toMatchObject({ displayValue: "Augusta Ada King" });
  });

  it("never gives one reader's answer to another", async () => {
    const { platform, principal } = await seededPlatform();
    const asAdmin = await platform.elements.read(await principal("admin"), "ART_HELLO");
    const asAlice = await platform.elements.read(await principal("alice"), "ART_HELLO");
    expect(asAlice).not.toBe(asAdmin);
    expect(asAlice.etag).not.toBe(asAdmin.etag);
    await expect(platform.elements.read(await principal("carol"), "ART_HELLO")).rejects.toMatchObject({ code: expect.any(String) });
  });

  it("sees a role taken away at once", async () => {
    const { platform, store, principal } = await seededPlatform();
    await platform.elements.read(await principal("bob"), "ART_HELLO");
    await store.transaction((tx) => tx.catalog.saveProfile({ name: "PRF_ARTICLE", grants: { view: ["role:editor"], edit: [], delete: [] } }));
    await expect(platform.elements.read(await principal("bob"), "ART_HELLO")).rejects.toMatchObject({ status: 403 });
  });

  it("is keyed by the data stamp: any commit, of data or of definitions, reads again", async () => {
    const { platform, store, principal } = await seededPlatform();
    const bob = await principal("bob");
    const first = await store.changes.read();
    const before = await platform.elements.read(bob, "ART_HELLO", { stamp: first });
    expect(await platform.elements.read(bob, "ART_HELLO", { stamp: first })).toBe(before);
    expect(await platform.elements.read(bob, "ART_HELLO", { stamp: { ...first, definitions: "elsewhere" } })).toBe(before);

    // A write to another element moves the data stamp only: the answer is read again, and is the same.
    await platform.elements.update(await principal("admin"), "ART_ZEBRA", { values: { ar_words: 3 } });
    const second = await store.changes.read();
    expect([second.data === first.data, second.definitions === first.definitions]).toEqual([false, true]);
    const again = await platform.elements.read(bob, "ART_HELLO", { stamp: second });
    expect(again).not.toBe(before);
    expect(again.etag).toBe(before.etag);
    expect(await platform.elements.read(bob, "ART_HELLO", { stamp: second })).toBe(again);
  });
});

describe("the change stamp as one request sees it", () => {
  it("is read once per request and shared by the principal and the reading cache; a later request sees what changed in between", async () => {
    const seed = await seededPlatform();
    const counted = countingStore(seed.store);
    const platform = createPlatform({ store: counted.store, clock: seed.clock, hasher: createScryptPasswordHasher({ N: 1024 }) });
    const first = await counted.store.changes.read();
    const bob = await platform.accounts.authenticate("bob", "bob-pw", first);
    expect(bob).toBeDefined();
    const before = await platform.elements.read(bob!, "ART_HELLO", { stamp: first });
    expect(await platform.accounts.principal("bob", first)).toBe(bob);
    expect(counted.calls.filter((call) => call === "changes.read")).toHaveLength(1);
    expect(counted.calls.filter((call) => call === "accounts.byLogin")).toHaveLength(1);

    await platform.elements.update((await principalsOf(platform)("admin")), "ART_HELLO", { values: { ar_title: "Hello again" } });
    // The request checks the stamp it read: a write after that belongs to the next request.
    expect(await platform.elements.read(bob!, "ART_HELLO", { stamp: first })).toBe(before);
    const second = await counted.store.changes.read();
    const after = await platform.elements.read((await platform.accounts.principal("bob", second))!, "ART_HELLO", { stamp: second });
    expect(after.data.document.properties?.title).toBe("Hello again");
    expect(after.etag).not.toBe(before.etag);
  });

  it("sees rights and roles changed since the last request", async () => {
    const { platform, store } = await seededPlatform();
    const first = await store.changes.read();
    const bob = await platform.accounts.authenticate("bob", "bob-pw", first);
    await platform.elements.read(bob!, "ART_HELLO", { stamp: first });

    await store.transaction((tx) => tx.catalog.saveProfile({ name: "PRF_ARTICLE", grants: { view: ["role:editor"], edit: [], delete: [] } }));
    const second = await store.changes.read();
    await expect(platform.elements.read((await platform.accounts.principal("bob", second))!, "ART_HELLO", { stamp: second })).rejects.toMatchObject({ status: 403 });

    const account = (await store.accounts.byLogin("bob"))!;
    await store.transaction((tx) => tx.accounts.saveAccount({ ...account, roles: ["editor"] }));
    const third = await store.changes.read();
    const promoted = await platform.accounts.authenticate("bob", "bob-pw", third);
    expect([...promoted!.roles]).toEqual(["editor"]);
    expect((await platform.elements.read(promoted!, "ART_HELLO", { stamp: third })).data.document.properties?.title).toBe("Hello");
  });
});

describe("principals kept by the definitions stamp", () => {
  it("are read once while only data changes", async () => {
    const seed = await seededPlatform();
    const counted = countingStore(seed.store);
    const platform = createPlatform({ store: counted.store, clock: seed.clock });
    const first = await counted.store.changes.read();
    const bob = await platform.accounts.principal("bob", first);
    await seed.platform.elements.update(await seed.principal("admin"), "ART_HELLO", { values: { ar_words: 1 } });
    const second = await counted.store.changes.read();
    expect(second.definitions).toBe(first.definitions);
    counted.reset();
    expect(await platform.accounts.principal("bob", second)).toBe(bob);
    expect(counted.reads()).toEqual([]);
  });

  it("are read again once an account, a role or a group changed: they count as definitions", async () => {
    const { platform, store } = await seededPlatform();
    const stampAfter = async (write: () => Promise<unknown>) => {
      const before = await store.changes.read();
      await write();
      const after = await store.changes.read();
      expect(after.definitions).not.toBe(before.definitions);
      return after;
    };
    const bob = await platform.accounts.principal("bob", await store.changes.read());
    expect([...bob!.roles]).toEqual(["reader"]);

    const account = (await store.accounts.byLogin("bob"))!;
    const promoted = await platform.accounts.principal("bob", await stampAfter(() => store.accounts.saveAccount({ ...account, groups: ["newsroom"] })));
    expect([...promoted!.roles].sort()).toEqual(["editor", "reader"]);

    const regrouped = await platform.accounts.principal("bob", await stampAfter(() => store.accounts.saveGroup({ id: "newsroom", roles: ["reader"] })));
    expect([...regrouped!.roles]).toEqual(["reader"]);
    expect(regrouped).not.toBe(promoted);

    const stamp = await stampAfter(() => store.accounts.saveRole({ id: "auditor" }));
    const reread = await platform.accounts.principal("bob", stamp);
    expect(reread).not.toBe(regrouped);
    expect(reread).toEqual(regrouped);
  });
});
