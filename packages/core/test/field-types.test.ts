import { describe, expect, it } from "vitest";
import { importBundle } from "../src/bundle/import-bundle.ts";
import { checkBundle } from "../src/bundle/bundle-problems.ts";
import { LineageError } from "../src/errors/lineage-error.ts";
import { createPlatform } from "../src/platform.ts";
import { createMemoryStore } from "../src/testing/index.ts";
import { countingHasher, folder, tickingClock, type RawBundle } from "../src/testing/bundle-helpers.ts";

/* The field types time, money, password, color and account (bundle.md, "Additions: the model as the original has it"). */

const SECRET = "hunter2 volcano";

function typesBundle(pin: string = SECRET): RawBundle {
  return {
    accounts: {
      users: [
        { login: "admin", roles: ["admin"] },
        { login: "jdoe", displayName: "Jane Doe", locale: "fr" },
      ],
    },
    structures: [{
      name: "ITEM", titleField: "it_ref",
      fields: [
        { id: "it_ref", type: "text" }, { id: "it_at", type: "time" }, { id: "it_price", type: "money" },
        { id: "it_pin", type: "password" }, { id: "it_colour", type: "color" }, { id: "it_author", type: "account" },
      ],
    }],
    elements: [
      { structure: "ITEM", name: "IT_A", values: { it_ref: "A", it_at: "09:30", it_price: 1234.5, it_pin: pin, it_colour: "#FFAA00", it_author: "jdoe" } },
      { structure: "ITEM", name: "IT_B", values: { it_ref: "B", it_at: "08:15:20", it_price: 99, it_colour: "#000000", it_author: "admin" } },
    ],
    searchDomains: [{
      name: "items", lang: "en",
      configs: [{ structure: "ITEM", fields: ["it_ref", "it_at", "it_price", "it_pin", "it_colour", "it_author"].map((field) => ({ field })), files: [], callables: [] }],
    }],
  };
}

async function world() {
  const hasher = countingHasher();
  const store = createMemoryStore();
  const platform = createPlatform({ store, clock: tickingClock(), hasher });
  await platform.bundles.import(typesBundle(), { readFile: folder({}) });
  const as = async (login: string) => (await platform.accounts.principal(login))!;
  return { platform, store, hasher, as };
}

const attributesOf = async (w: Awaited<ReturnType<typeof world>>, login: string, ref: string) =>
  (await w.platform.elements.read(await w.as(login), ref, { fields: "document.attributes" })).data.document.attributes ?? {};

describe("field types time, money, password, color and account", () => {
  it("shows each value as the original shows it, in the reader's language", async () => {
    const w = await world();
    expect(await attributesOf(w, "admin", "IT_A")).toMatchObject({
      it_at: { value: "09:30:00", displayValue: "09:30:00" },
      it_price: { value: 1234.5, displayValue: "1,234.50" },
      it_colour: { value: "#FFAA00", displayValue: "#FFAA00" },
      it_author: { value: "jdoe", displayValue: "Jane Doe" },
      it_pin: { value: null, displayValue: null },
    });
    // An account value has the keys of a docid value, as the original's (whose accounts are elements).
    expect((await attributesOf(w, "admin", "IT_A")).it_author).toEqual({
      familyRelation: "", url: null, icon: "/api/v2/images/assets/sizes/14x14c/se-iuser.png", revision: -1, initid: null, fromid: null,
      value: "jdoe", displayValue: "Jane Doe",
    });
    await w.platform.elements.update(await w.as("admin"), "IT_A", { values: { it_price: "1234567.891" } });
    expect(await attributesOf(w, "jdoe", "IT_A")).toMatchObject({
      it_at: { displayValue: "09:30:00" },
      it_price: { value: 1234567.891, displayValue: "1 234 567,89" },
    });
  });

  it("refuses a bad value of each type with VALUE0001 naming the field, and writes nothing", async () => {
    const w = await world();
    const admin = await w.as("admin");
    for (const [field, raw] of [["it_at", "25:00"], ["it_price", "12 euros"], ["it_colour", "orange"], ["it_author", "nobody"]] as const) {
      const error = await w.platform.elements.update(admin, "IT_B", { values: { it_ref: "changed", [field]: raw } }).then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(LineageError);
      expect((error as LineageError).code).toBe("VALUE0001");
      expect((error as LineageError).message).toContain(field);
    }
    expect((await attributesOf(w, "admin", "IT_B")).it_ref).toMatchObject({ value: "B" });
  });

  it("keeps a password hashed: never in an answer, a revision, the history or the search index; the same password again changes nothing", async () => {
    const w = await world();
    const admin = await w.as("admin");
    const stored = async () => (await w.store.elements.latestByName("IT_A"))!.values.it_pin as string;
    const first = await stored();
    expect(first).not.toContain(SECRET);
    expect(await w.hasher.verify(SECRET, first)).toBe(true);

    // A re-import of the same bundle finds nothing changed: the password given again keeps its hash.
    const again = await w.platform.bundles.import(typesBundle(), { readFile: folder({}) });
    expect(again.elements.updated).toBe(0);
    expect(await stored()).toBe(first);

    await w.platform.elements.update(admin, "IT_A", { values: { it_pin: "another secret" } });
    const second = await stored();
    expect(second).not.toBe(first);
    expect(await w.hasher.verify("another secret", second)).toBe(true);

    const seen = JSON.stringify([
      (await w.platform.elements.read(admin, "IT_A", { fields: "document.attributes" })).data,
      await w.platform.revisions.list(admin, "IT_A", { fields: "document.attributes" }),
      await w.platform.revisions.history(admin, "IT_A"),
    ]);
    for (const secret of [SECRET, "another secret", first, second]) expect(seen).not.toContain(secret);

    await w.platform.fullsearch.engine.start();
    expect((await w.platform.fullsearch.search(admin, "items", { q: "volcano" })).documents).toEqual([]);
    expect((await w.platform.fullsearch.search(admin, "items", { q: "Jane" })).documents.map((d) => d.properties?.title)).toEqual(["A"]);
  });

  it("hashes the passwords of an array column (and of a multiple field) as any other, by bundle and by a write", async () => {
    const bundle = typesBundle();
    bundle.structures[0]!.fields.push(
      { id: "it_codes", type: "array", fields: [{ id: "it_label", type: "text" }, { id: "it_code", type: "password" }, { id: "it_spares", type: "password", multiple: true }] },
      { id: "it_keys", type: "password", multiple: true },
    );
    bundle.elements = [{ structure: "ITEM", name: "IT_ROWS", values: {
      it_ref: "rows", it_keys: ["k1", "k2"],
      it_codes: [{ it_label: "a", it_code: "first pin", it_spares: ["s1"] }, { it_label: "b", it_code: "", it_spares: [] }, { it_label: "c", it_code: "third pin", it_spares: ["s2", "s3"] }],
    } }];
    expect((await checkBundle(bundle, { store: createMemoryStore(), readFile: () => undefined })).problems).toEqual([]);
    const hasher = countingHasher();
    const store = createMemoryStore();
    const platform = createPlatform({ store, clock: tickingClock(), hasher });
    const report = await platform.bundles.import(bundle, { readFile: folder({}) });
    expect(report.elements.created).toBe(1);
    const values = async () => (await store.elements.latestByName("IT_ROWS"))!.values;
    const stored = await values();
    const [first, empty, third] = stored.it_code as string[];
    expect(await hasher.verify("first pin", first!)).toBe(true);
    expect(empty).toBeNull();
    expect(await hasher.verify("third pin", third!)).toBe(true);
    expect(await hasher.verify("s3", (stored.it_spares as string[][])[2]![1]!)).toBe(true);
    expect(await hasher.verify("k2", (stored.it_keys as string[])[1]!)).toBe(true);
    expect(JSON.stringify(stored)).not.toMatch(/pin|"s\d"|"k\d"/);

    // Imported again: each password given again keeps its hash, nothing changes.
    expect((await platform.bundles.import(bundle, { readFile: folder({}) })).elements.updated).toBe(0);
    expect(await values()).toEqual(stored);

    // A write of the column: the row given the same password keeps its hash, the other is hashed anew.
    const admin = (await platform.accounts.principal("admin"))!;
    await platform.elements.update(admin, "IT_ROWS", { values: { it_code: ["first pin", "second pin", "third pin"] } });
    const written = (await values()).it_code as string[];
    expect(written[0]).toBe(first);
    expect(await hasher.verify("second pin", written[1]!)).toBe(true);
    const answer = await platform.elements.read(admin, "IT_ROWS", { fields: "document.attributes" });
    expect(answer.data.document.attributes?.it_code).toEqual([0, 1, 2].map(() => ({ value: null, displayValue: null })));
  });

  it("orders a list by time, money, colour and account; never by a password", async () => {
    const w = await world();
    const admin = await w.as("admin");
    const titles = async (orderBy: string) =>
      (await w.platform.elements.list(admin, { family: "ITEM", orderBy })).documents.map((d) => d.properties?.title);
    expect(await titles("it_at:asc")).toEqual(["B", "A"]);
    expect(await titles("it_price:desc")).toEqual(["A", "B"]);
    expect(await titles("it_colour:asc")).toEqual(["B", "A"]);
    expect(await titles("it_author:asc")).toEqual(["B", "A"]);
    await expect(titles("it_pin:asc")).rejects.toMatchObject({ code: "CRUD0506" });
  });

  it("checks a bundle's values of these types, naming each bad one by its JSON path", async () => {
    const bundle = typesBundle();
    bundle.elements = [{ structure: "ITEM", name: "IT_BAD", values: { it_at: "7h", it_price: "cheap", it_pin: 42, it_colour: "#12345", it_author: "ghost" } }];
    const { problems } = await checkBundle(bundle, { store: createMemoryStore(), readFile: () => undefined });
    expect(problems.map((p) => p.path).sort()).toEqual(
      ["it_at", "it_author", "it_colour", "it_pin", "it_price"].map((field) => `$.elements[0].values.${field}`),
    );
  });
});
