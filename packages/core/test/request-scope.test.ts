import { describe, expect, it } from "vitest";
import { createPlatform, type SmartField, type Platform } from "./internals.ts";
import { createMemoryStore } from "../src/testing/index.ts";
import { countingStore, type CountingStore } from "../src/testing/counting-store.ts";
import { manualClock, principalsOf, seededPlatform } from "../src/testing/seeded-platform.ts";

const bytes = (text: string) => new TextEncoder().encode(text);
const NOW = "2026-01-01T10:00:00.000Z";

/**
 * A store holding 10 WIDE elements with `width` docid, file and enum fields each, every docid
 * and file value naming an element or a vault file of its own: a page of them references
 * 10 x width elements and 10 x width files.
 */
async function widePage(width: number): Promise<{ counted: CountingStore; platform: Platform; fields: SmartField[] }> {
  const counted = countingStore(createMemoryStore());
  const { store } = counted;
  const platform = createPlatform({ store, clock: manualClock() });
  const admin = await platform.accounts.add({ login: "admin", roles: ["admin"] });
  const fields: SmartField[] = Array.from({ length: width }, (_, i): SmartField[] => [
    { id: `wi_ref${i}`, type: "docid", structure: "PERSON" },
    { id: `wi_file${i}`, type: "file" },
    { id: `wi_kind${i}`, type: "enum", enum: "KINDS" },
  ]).flat();
  await store.transaction(async (tx) => {
    await tx.catalog.saveEnumerate({ name: "KINDS", items: [{ key: "a", label: "Kind A" }, { key: "b", label: "Kind B", parentKey: "a" }] });
    await tx.catalog.saveStructure({ name: "PERSON", titleField: "pe_name", fields: [{ id: "pe_name", type: "text" }] });
    await tx.catalog.saveStructure({ name: "WIDE", titleField: "wi_title", fields: [{ id: "wi_title", type: "text" }, ...fields] });
    const base = { revision: 0, name: null, owner: admin.id, status: "alive", fixed: false, state: null, createdAt: NOW, modifiedAt: NOW, importKey: null, ownProfile: null, profile: null } as const;
    for (let e = 0; e < 10; e++) {
      const values: Record<string, string | number> = { wi_title: `Wide ${e}` };
      for (let i = 0; i < width; i++) {
        const person = await tx.elements.insert({ ...base, structure: "PERSON", title: `Person ${e}.${i}`, values: { pe_name: `Person ${e}.${i}` } });
        const file = await tx.vault.store(bytes(`file ${e}.${i}`), { name: `f${e}.${i}.txt`, mime: "text/plain" });
        values[`wi_ref${i}`] = person.initid;
        values[`wi_file${i}`] = `text/plain|${file.id}|${file.name}`;
        values[`wi_kind${i}`] = "b";
      }
      await tx.elements.insert({ ...base, structure: "WIDE", title: `Wide ${e}`, values });
    }
  });
  return { counted, platform, fields };
}

/** The store calls (change clock aside) of listing the page, with the definitions already read once. */
async function listingCalls(width: number) {
  const { counted, platform, fields } = await widePage(width);
  const admin = await principalsOf(platform)("admin");
  await platform.structures.definitions();
  counted.reset();
  const page = await platform.elements.list(admin, {
    family: "WIDE", slice: "10", fields: fields.map((field) => `document.attributes.${field.id}`).join(","),
  });
  return { calls: counted.reads(), page, clockReads: counted.calls.length - counted.reads().length };
}

describe("a request scope", () => {
  it("renders a list page of 10 with docid, file and enum values in a bounded number of store calls, whatever the fields", async () => {
    const narrow = await listingCalls(1);
    const wide = await listingCalls(6);
    expect(wide.page.documents).toHaveLength(10);
    const first = wide.page.documents.find((d) => d.attributes?.wi_ref5)?.attributes ?? {};
    expect(first.wi_ref5).toMatchObject({ displayValue: expect.stringMatching(/^Person \d\.5$/), familyRelation: "PERSON" });
    expect(first.wi_file5).toMatchObject({ displayValue: expect.stringMatching(/^f\d\.5\.txt$/), size: expect.any(Number), creationDate: expect.any(String) });
    expect(first.wi_kind5).toEqual({ value: "b", displayValue: "Kind A/Kind B", exists: true });
    // The page, then the elements and the vault files it names, each in one batch.
    expect([...wide.calls].sort()).toEqual(["elements.byIds", "elements.list", "vault.files"]);
    expect(wide.calls).toEqual(narrow.calls);
    expect(wide.clockReads).toBeLessThanOrEqual(1);
  });

  it("reads the latest revision of a referenced lineage in one more batch, not one call per value", async () => {
    const { counted, platform, fields } = await widePage(2);
    const admin = await principalsOf(platform)("admin");
    // Revise every person: the docid values now name fixed revisions.
    for (const person of await counted.store.elements.list({ status: "alive", structures: ["PERSON"], orderBy: [], limit: null, offset: 0 })) {
      await platform.revisions.revise(admin, person);
    }
    await platform.structures.definitions();
    counted.reset();
    const page = await platform.elements.list(admin, { family: "WIDE", fields: fields.map((field) => `document.attributes.${field.id}`).join(",") });
    expect(page.documents.every((d) => (d.attributes?.wi_ref1 as { displayValue?: string }).displayValue?.startsWith("Person"))).toBe(true);
    expect([...counted.reads()].sort()).toEqual(["elements.byIds", "elements.latestMany", "elements.list", "vault.files"]);
  });

  it("answers lookups only for what was loaded, and throws for anything else", async () => {
    const { hello, author, principal, scope: scopeOf } = await seededPlatform();
    const scope = await scopeOf(await principal("admin"));
    expect(() => scope.element("ART_HELLO")).toThrow(/element ART_HELLO was not loaded/);
    expect(() => scope.element(author.initid)).toThrow(/was not loaded/);
    expect(() => scope.account(hello.owner)).toThrow(/account \d+ was not loaded/);
    expect(() => scope.vaultFile(1)).toThrow(/vault file 1 was not loaded/);

    expect((await scope.find("ART_HELLO"))?.id).toBe(hello.id);
    expect(scope.element("ART_HELLO")?.id).toBe(hello.id);
    await scope.prepare([hello]);
    await scope.load({ accounts: [hello.owner] });
    expect(scope.element(author.initid)?.title).toBe("Ada Lovelace");
    expect(scope.account(hello.owner)?.login).toBe("admin");
    // What was loaded and does not exist answers undefined: the caller asked first.
    await scope.load({ elements: ["NOPE", 99_999], accounts: [99_999], vaultFiles: [99_999] });
    expect([scope.element("NOPE"), scope.element(99_999), scope.account(99_999), scope.vaultFile(99_999)]).toEqual([undefined, undefined, undefined, undefined]);
  });

  it("reads each element once, whether asked by name, initid or revision id", async () => {
    const seed = await seededPlatform();
    const counted = countingStore(seed.store);
    const scope = await seed.scope(await seed.principal("admin"), counted.store);
    counted.reset();
    await scope.find("ART_HELLO");
    await scope.find("ART_HELLO");
    await scope.load({ elements: ["ART_HELLO", " ART_HELLO "] });
    await scope.find(seed.hello.initid);
    await scope.find(String(seed.hello.initid));
    expect(counted.reads()).toEqual(["elements.latestByNames", "elements.byIds"]);
  });

  it("opens one transaction whose scope reads through it, and refuses to nest them", async () => {
    const { store, principal, scope: scopeOf } = await seededPlatform();
    const scope = await scopeOf(await principal("admin"));
    const seen = await scope.transaction(async (tx) => {
      expect(tx.repos).not.toBe(store);
      await expect(tx.transaction(async () => "nested")).rejects.toThrow(/do not nest/);
      return (await tx.find("ART_ZEBRA"))?.title;
    });
    expect(seen).toBe("Zebra crossing");
  });
});
