import { describe, expect, it } from "vitest";
import { createDefinitionsCache } from "../src/scope/definitions.ts";
import { createMemoryStore } from "../src/testing/index.ts";
import { countingStore } from "../src/testing/counting-store.ts";
import { seededPlatform } from "../src/testing/seeded-platform.ts";

/** A seeded store behind a counting wrapper, and a fresh definitions cache. */
async function setUp(onCall?: (call: string) => void) {
  const seed = await seededPlatform();
  const counted = countingStore(seed.store, onCall);
  const cache = createDefinitionsCache();
  /** How many times the definitions were read from the store. */
  const loads = () => counted.calls.filter((call) => call === "catalog.structures").length;
  return { seed, store: counted.store, counted, cache, loads };
}

const categories = (labels: readonly string[]) => ({ name: "CATEGORIES", items: labels.map((label) => ({ key: label.toLowerCase(), label })) });
const labelsOf = (definitions: { enumerate(name: string): { items: readonly { label: unknown }[] } | undefined }) =>
  definitions.enumerate("CATEGORIES")?.items.map((item) => item.label);

describe("the definitions cache", () => {
  it("reads every definition once per definitions stamp, for every request", async () => {
    const { store, cache, loads, counted } = await setUp();
    const first = await cache.get(store);
    expect(await cache.get(store)).toBe(first);
    expect(loads()).toBe(1);
    expect(counted.reads().sort()).toEqual([
      "accounts.groups", "accounts.roles", "catalog.enumerates", "catalog.fieldAccesses", "catalog.lifecycles", "catalog.profiles", "catalog.structures",
    ]);
    expect(first.structure("ARTICLE")?.titleField).toBe("ar_title");
    expect(first.structureById(first.structure("AUTHOR")!.id)?.name).toBe("AUTHOR");
    expect(first.structures().map((s) => s.name).sort()).toEqual(["ARTICLE", "AUTHOR", "DIR", "REPORT", "SEARCH"]);
    expect([first.lifecycle("WFL_ARTICLE")?.firstState, first.profile("PRF_ARTICLE")?.name]).toEqual(["draft", "PRF_ARTICLE"]);
    expect([first.roles().map((r) => r.id), first.groups().map((g) => g.id)]).toEqual([["editor", "reader"], ["newsroom"]]);
  });

  it("shares one load between requests asking at once", async () => {
    const { store, cache, loads } = await setUp();
    const all = await Promise.all([cache.get(store), cache.get(store), cache.get(store)]);
    expect(new Set(all).size).toBe(1);
    expect(loads()).toBe(1);
  });

  it("takes the stamp a request already read, without reading the clock again", async () => {
    const { store, cache, counted } = await setUp();
    const stamp = await store.changes.read();
    const first = await cache.get(store, stamp.definitions);
    counted.reset();
    expect(await cache.get(store, stamp.definitions)).toBe(first);
    expect(counted.calls).toEqual([]);
  });

  it("keeps them over data writes, and reads them again after a definition was written", async () => {
    const { seed, store, cache, loads } = await setUp();
    const first = await cache.get(store);
    await seed.platform.elements.update(await seed.principal("admin"), "ART_HELLO", { values: { ar_words: 7 } });
    expect(await cache.get(store)).toBe(first);
    expect(loads()).toBe(1);

    await store.catalog.saveEnumerate(categories(["Science"]));
    const second = await cache.get(store);
    expect(second).not.toBe(first);
    expect(second.stamp).not.toBe(first.stamp);
    expect(labelsOf(second)).toEqual(["Science"]);
    expect(first.enumerate("CATEGORIES")?.items.map((item) => item.key)).toEqual(["tech", "ai", "food"]);
    expect(loads()).toBe(2);
  });

  it("counts accounts, roles and groups as definitions", async () => {
    const { store, cache } = await setUp();
    let previous = await cache.get(store);
    const writes = [
      () => store.accounts.saveRole({ id: "auditor" }),
      () => store.accounts.saveGroup({ id: "auditors", roles: ["auditor"] }),
      async () => store.accounts.saveAccount({ ...(await store.accounts.byLogin("bob"))!, groups: ["auditors"] }),
    ];
    for (const write of writes) {
      await write();
      const next = await cache.get(store);
      expect(next.stamp).not.toBe(previous.stamp);
      previous = next;
    }
    expect(previous.groups().map((g) => g.id)).toContain("auditors");
  });

  it("never keeps for others what a transaction that wrote definitions reads, nor before it commits", async () => {
    const { store, cache, loads } = await setUp();
    const committed = await cache.get(store);
    await store.transaction(async (tx) => {
      // Nothing written yet: the transaction sees the committed definitions, kept.
      expect(await cache.get(tx)).toBe(committed);
      await tx.catalog.saveEnumerate(categories(["Draft only"]));
      const own = await cache.get(tx);
      expect([own.stamp, labelsOf(own)]).toEqual(["", ["Draft only"]]);
      expect(await cache.get(tx)).not.toBe(own);
      // Others still get the committed definitions while the transaction is open.
      expect(await cache.get(store)).toBe(committed);
    });
    const after = await cache.get(store);
    expect(after).not.toBe(committed);
    expect(labelsOf(after)).toEqual(["Draft only"]);
    expect(loads()).toBe(4);
  });

  it("never keeps what a transaction that rolled back wrote", async () => {
    const { store, cache } = await setUp();
    const committed = await cache.get(store);
    const failed = store.transaction(async (tx) => {
      await tx.catalog.saveEnumerate(categories(["Rolled back"]));
      expect(labelsOf(await cache.get(tx))).toEqual(["Rolled back"]);
      throw new Error("rolled back");
    });
    await expect(failed).rejects.toThrow("rolled back");
    expect(await cache.get(store)).toBe(committed);
    expect(labelsOf(await cache.get(store))).not.toContain("Rolled back");
  });

  it("forgets a failed load: the next request reads again", async () => {
    let failNext = true;
    const { store, cache, loads } = await setUp((call) => {
      if (call === "catalog.structures" && failNext) {
        failNext = false;
        throw new Error("database down");
      }
    });
    await expect(cache.get(store)).rejects.toThrow("database down");
    expect((await cache.get(store)).structure("ARTICLE")).toBeDefined();
    expect(loads()).toBe(2);
  });

  it("gives frozen definitions, so that no request changes what others read", async () => {
    const { store, cache } = await setUp();
    const definitions = await cache.get(store);
    expect(Object.isFrozen(definitions.enumerate("CATEGORIES"))).toBe(true);
    expect(Object.isFrozen(definitions.structure("ARTICLE")?.fields[0])).toBe(true);
    expect(Object.isFrozen(definitions.roles())).toBe(true);
  });
});

describe("the platform's definitions", () => {
  it("follow the definitions stamp a request read", async () => {
    const { platform, store } = await seededPlatform();
    const stamp = await store.changes.read();
    const first = await platform.structures.definitions(stamp);
    expect(await platform.structures.definitions()).toBe(first);
    await store.catalog.saveEnumerate(categories(["Science"]));
    const next = await platform.structures.definitions(await store.changes.read());
    expect(labelsOf(next)).toEqual(["Science"]);
  });

  it("of a new store are the system's only", async () => {
    const store = createMemoryStore();
    const definitions = await createDefinitionsCache().get(store);
    expect([definitions.structures().map((s) => s.name), definitions.roles(), definitions.enumerate("X")]).toEqual([["DIR", "SEARCH", "REPORT"], [], undefined]);
    expect(definitions.profiles().map((p) => p.name)).toEqual(["PRF_SYSTEM_COLLECTIONS"]);
  });
});
