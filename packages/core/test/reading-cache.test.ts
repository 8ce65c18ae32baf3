import { describe, expect, it } from "vitest";
import { createVersionedCache } from "../src/elements/reading-cache.ts";
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
