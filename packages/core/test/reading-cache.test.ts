import { describe, expect, it } from "vitest";
import { createVersionedCache } from "../src/elements/reading-cache.ts";
import { requestVersion } from "../src/elements/request-version.ts";
import { seededPlatform } from "./fixture.ts";

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
    const admin = principal("admin");
    const before = await platform.readElement(admin, "ART_HELLO");
    expect(await platform.readElement(admin, "ART_HELLO")).toBe(before);
    platform.updateElement(admin, "AUTHOR_ADA", { values: { au_name: "Augusta Ada King" } });
    const after = await platform.readElement(admin, "ART_HELLO");
    expect(after.data.document.attributes?.ar_author).toMatchObject({ displayValue: "Augusta Ada King" });
  });

  it("never gives one reader's answer to another", async () => {
    const { platform, principal } = await seededPlatform();
    const asAdmin = await platform.readElement(principal("admin"), "ART_HELLO");
    const asAlice = await platform.readElement(principal("alice"), "ART_HELLO");
    expect(asAlice).not.toBe(asAdmin);
    expect(asAlice.etag).not.toBe(asAdmin.etag);
    await expect(platform.readElement(principal("carol"), "ART_HELLO")).rejects.toMatchObject({ code: expect.any(String) });
  });

  it("sees a role taken away at once", async () => {
    const { platform, store, principal } = await seededPlatform();
    await platform.readElement(principal("bob"), "ART_HELLO");
    store.transaction(() => store.catalog.saveProfile({ name: "PRF_ARTICLE", grants: { view: ["role:editor"], edit: [], delete: [] } }));
    await expect(platform.readElement(principal("bob"), "ART_HELLO")).rejects.toMatchObject({ status: 403 });
  });
});

describe("the store's version as one request sees it", () => {
  it("is read once, at first use, whatever the number of checks", () => {
    let reads = 0;
    const version = requestVersion({ version: () => String(++reads) });
    expect(reads).toBe(0);
    expect(version()).toBe("1");
    expect(version()).toBe("1");
    expect(reads).toBe(1);
  });

  it("shares one read between the principal and the reading cache, and a later request sees what changed in between", async () => {
    const { platform, store, principal } = await seededPlatform();
    let reads = 0;
    const counted = { version: () => (reads++, store.version()) };
    const first = requestVersion(counted);
    const bob = await platform.authenticate("bob", "bob-pw", first);
    expect(bob).toBeDefined();
    const before = await platform.readElement(bob!, "ART_HELLO", { version: first });
    expect(platform.principal("bob", first)).toBe(bob);
    expect(reads).toBe(1);

    platform.updateElement(principal("admin"), "ART_HELLO", { values: { ar_title: "Hello again" } });
    // The request checks the version it read: a write after that belongs to the next request.
    expect(await platform.readElement(bob!, "ART_HELLO", { version: first })).toBe(before);
    const second = requestVersion(store);
    const after = await platform.readElement(platform.principal("bob", second)!, "ART_HELLO", { version: second });
    expect(after.data.document.properties?.title).toBe("Hello again");
    expect(after.etag).not.toBe(before.etag);
  });

  it("sees rights and roles changed since the last request", async () => {
    const { platform, store } = await seededPlatform();
    const first = requestVersion(store);
    const bob = await platform.authenticate("bob", "bob-pw", first);
    await platform.readElement(bob!, "ART_HELLO", { version: first });

    store.transaction(() => store.catalog.saveProfile({ name: "PRF_ARTICLE", grants: { view: ["role:editor"], edit: [], delete: [] } }));
    const second = requestVersion(store);
    await expect(platform.readElement(platform.principal("bob", second)!, "ART_HELLO", { version: second })).rejects.toMatchObject({ status: 403 });

    const account = store.accounts.byLogin("bob")!;
    store.transaction(() => store.accounts.saveAccount({ ...account, roles: ["editor"] }));
    const third = requestVersion(store);
    const promoted = await platform.authenticate("bob", "bob-pw", third);
    expect([...promoted!.roles]).toEqual(["editor"]);
    expect((await platform.readElement(promoted!, "ART_HELLO", { version: third })).data.document.properties?.title).toBe("Hello");
  });
});
