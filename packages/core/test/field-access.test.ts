import { describe, expect, it } from "vitest";
import { checkBundle } from "../src/bundle/bundle-problems.ts";
import { importBundle } from "../src/bundle/import-bundle.ts";
import { isLineageError } from "../src/errors/lineage-error.ts";
import { createMemoryStore } from "../src/testing/index.ts";
import { folder, testPlatform, type RawBundle } from "../src/testing/bundle-helpers.ts";
import { principalsOf } from "../src/testing/seeded-platform.ts";

/** An invoice structure whose secret only auditors read and whose notes only auditors write. */
function invoiceBundle(): RawBundle {
  return structuredClone({
    accounts: {
      roles: [{ id: "auditor" }, { id: "clerk" }],
      users: [
        { login: "admin", password: "admin", roles: ["admin"] },
        { login: "audrey", password: "pw", roles: ["auditor", "clerk"] },
        { login: "clara", password: "pw", roles: ["clerk"] },
      ],
    },
    profiles: [{ name: "PRF_INVOICE", grants: { view: ["role:clerk"], edit: ["role:clerk"] } }],
    fieldAccesses: [{ name: "FAL_INVOICE", layers: [{ grant: "role:auditor", fields: { inv_secret: "R", inv_notes: "W" } }] }],
    structures: [
      { name: "DOC_BASE", profile: "PRF_INVOICE", fieldAccess: "FAL_INVOICE", fields: [{ id: "db_ref", type: "text" }] },
      {
        name: "DOC_INVOICE", extends: "DOC_BASE", titleField: "db_ref",
        fields: [{ id: "inv_secret", type: "text", visibility: "I" }, { id: "inv_notes", type: "text", visibility: "R" }],
      },
    ],
    elements: [{ structure: "DOC_INVOICE", name: "INV_1", values: { db_ref: "I1", inv_secret: "swordfish", inv_notes: "checked" } }],
  });
}

async function imported() {
  const platform = testPlatform();
  await platform.bundles.import(invoiceBundle(), { readFile: folder({}) });
  const principal = principalsOf(platform);
  return { platform, audrey: await principal("audrey"), clara: await principal("clara") };
}

async function errorOf(fn: () => Promise<unknown>) {
  try {
    await fn();
  } catch (error) {
    if (isLineageError(error)) return error;
    throw error;
  }
  throw new Error("no error");
}

describe("field access layers in the use cases", () => {
  it("show a field to the callers a layer is granted to, inherited from the parent structure, and hide it from others", async () => {
    const { platform, audrey, clara } = await imported();
    const fields = "document.attributes.all";
    expect((await platform.elements.read(audrey, "INV_1", { fields })).data.document.attributes).toMatchObject({ inv_secret: { value: "swordfish" } });
    expect((await platform.elements.read(clara, "INV_1", { fields })).data.document.attributes).not.toHaveProperty("inv_secret");
    const named = "document.attributes.inv_secret";
    expect((await errorOf(() => platform.elements.read(clara, "INV_1", { fields: named }))).code).toBe("CRUD0502");
    expect((await platform.elements.read(audrey, "INV_1", { fields: named })).data.document.attributes).toMatchObject({ inv_secret: { value: "swordfish" } });
  });

  it("change a caller's ETags of elements and structures when a layer changes what they see, and only then", async () => {
    const { platform, clara } = await imported();
    const etags = async () => [(await platform.elements.read(clara, "INV_1")).etag, (await platform.structures.read(clara, "DOC_INVOICE")).etag];
    const before = await etags();
    const widened = invoiceBundle();
    widened.fieldAccesses[0].layers.push({ grant: "role:clerk", fields: { inv_notes: "W" } });
    await platform.bundles.import(widened, { readFile: folder({}) });
    const after = await etags();
    expect(after[0]).not.toBe(before[0]);
    expect(after[1]).not.toBe(before[1]);
    // A layer granted to others changes nothing for her.
    const others = invoiceBundle();
    others.fieldAccesses[0].layers.push({ grant: "role:clerk", fields: { inv_notes: "W" } }, { grant: "user:admin", fields: { inv_secret: "W" } });
    await platform.bundles.import(others, { readFile: folder({}) });
    expect(await etags()).toEqual(after);
  });

  it("describe the structure with the caller's visibility", async () => {
    const { platform, audrey, clara } = await imported();
    const tree = async (who: typeof audrey) => (await platform.structures.read(who, "DOC_INVOICE", { fields: "family.structure" })).data.family!.structure;
    expect(await tree(audrey)).toMatchObject({ inv_secret: { visibility: "R" }, inv_notes: { visibility: "W" } });
    expect(await tree(clara)).not.toHaveProperty("inv_secret");
    expect((await tree(clara)).inv_notes).toMatchObject({ visibility: "R" });
    const etag = async (who: typeof audrey) => (await platform.structures.read(who, "DOC_INVOICE")).etag;
    expect(await etag(audrey)).not.toBe(await etag(clara));
  });

  it("refuse writes the caller's visibility does not allow: unknown for I (CRUD0218), read-only for R (ROUTES0107)", async () => {
    const { platform, audrey, clara } = await imported();
    expect((await errorOf(() => platform.elements.update(clara, "INV_1", { values: { inv_secret: "x" } }))).code).toBe("CRUD0218");
    expect((await errorOf(() => platform.elements.update(clara, "INV_1", { values: { inv_notes: "x" } }))).code).toBe("ROUTES0107");
    expect((await errorOf(() => platform.elements.update(audrey, "INV_1", { values: { inv_secret: "x" } }))).code).toBe("ROUTES0107");
    expect((await errorOf(() => platform.elements.createByApi(clara, "DOC_INVOICE", { values: { inv_secret: "x" } }))).code).toBe("CRUD0218");
    const updated = await platform.elements.update(audrey, "INV_1", { values: { inv_notes: "audited" } });
    expect(updated.revision.values).toMatchObject({ inv_notes: "audited", inv_secret: "swordfish" });
    const created = await platform.elements.createByApi(audrey, "DOC_INVOICE", { values: { db_ref: "I2", inv_notes: "new" } });
    expect(created.revision.values).toMatchObject({ inv_notes: "new" });
  });
});

/** The invoice with an array whose column c2 only auditors (and admin, granted every layer) see and write. */
async function importedWithArray() {
  const bundle = invoiceBundle();
  bundle.structures[1].fields.push({ id: "arr", type: "array", fields: [{ id: "c1", type: "text" }, { id: "c2", type: "text", visibility: "I" }] });
  bundle.fieldAccesses[0].layers[0].fields.c2 = "W";
  bundle.elements[0].values.arr = [{ c1: "a", c2: "x" }, { c1: "b", c2: "y" }];
  const platform = testPlatform();
  await platform.bundles.import(bundle, { readFile: folder({}) });
  const principal = principalsOf(platform);
  return { platform, admin: await principal("admin"), audrey: await principal("audrey"), clara: await principal("clara") };
}

describe("arrays with columns a caller may not write", () => {
  it("refuse a new number of rows from a caller who may not write every column, and nothing is written", async () => {
    const { platform, admin, clara } = await importedWithArray();
    const refused = await errorOf(() => platform.elements.update(clara, "INV_1", { values: { c1: ["a", "b", "c"] } }));
    const err = 'array "arr" has columns you may not change: its rows can only be changed by someone who may write them all';
    expect(refused).toMatchObject({ code: "ROUTES0107", status: 500, data: { id: "arr", index: -1, err } });
    expect((await platform.elements.read(admin, "INV_1")).revision.values).toMatchObject({ c1: ["a", "b"], c2: ["x", "y"] });
    expect((await errorOf(() => platform.elements.createByApi(clara, "DOC_INVOICE", { values: { db_ref: "I2", c1: ["a"] } }))).code).toBe("ROUTES0107");
  });

  it("let such a caller change the cells in place, the other columns kept", async () => {
    const { platform, clara } = await importedWithArray();
    const updated = await platform.elements.update(clara, "INV_1", { values: { c1: ["A", "B"] } });
    expect(updated.revision.values).toMatchObject({ c1: ["A", "B"], c2: ["x", "y"] });
  });

  it("let callers who may write every column, through a layer or as admin, change the number of rows", async () => {
    const { platform, admin, audrey } = await importedWithArray();
    expect((await platform.elements.update(audrey, "INV_1", { values: { c1: ["a"], c2: ["x"] } })).revision.values).toMatchObject({ c1: ["a"], c2: ["x"] });
    const grown = await platform.elements.update(admin, "INV_1", { values: { c1: ["a", "b", "c"], c2: ["x", "y", "z"] } });
    expect(grown.revision.values).toMatchObject({ c1: ["a", "b", "c"], c2: ["x", "y", "z"] });
  });
});

const problemsOf = async (bundle: RawBundle) => (await checkBundle(bundle, { store: createMemoryStore(), readFile: folder({}) })).problems;

describe("bundle problems of field accesses", () => {
  it("refuse an unknown field access, grantee or field, and a duplicate name, at their JSON paths", async () => {
    const bundle = invoiceBundle();
    bundle.fieldAccesses[0].layers.push({ grant: "role:nobody", fields: { inv_nothing: "R" } }, { grant: "someone", fields: {} });
    bundle.fieldAccesses.push({ name: "FAL_INVOICE", layers: [] });
    bundle.structures.push({ name: "DOC_OTHER", fieldAccess: "FAL_NOPE", fields: [] });
    expect(await problemsOf(bundle)).toEqual([
      { path: "$.fieldAccesses[1].name", message: 'duplicate field access "FAL_INVOICE" (first at $.fieldAccesses[0])' },
      { path: "$.fieldAccesses[0].layers[1].grant", message: 'unknown role "nobody"' },
      { path: "$.fieldAccesses[0].layers[1].fields.inv_nothing", message: 'no structure with field access "FAL_INVOICE" has a field "inv_nothing"' },
      { path: "$.fieldAccesses[0].layers[2].grant", message: '"someone" is not role:ID, group:ID, user:LOGIN, right:METHOD' },
      { path: "$.structures[2].fieldAccess", message: 'unknown field access "FAL_NOPE"' },
    ]);
  });

  it("refuse a layer granting anything but R or W", async () => {
    const bundle = invoiceBundle();
    bundle.fieldAccesses[0].layers[0].fields.inv_secret = "I";
    const problems = await problemsOf(bundle);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ path: "$.fieldAccesses[0].layers[0].fields.inv_secret" });
  });

  it("import field accesses once, then report them unchanged", async () => {
    const platform = testPlatform();
    expect((await platform.bundles.import(invoiceBundle(), { readFile: folder({}) })).fieldAccesses).toEqual({ created: 1, updated: 0, unchanged: 0 });
    expect((await platform.bundles.import(invoiceBundle(), { readFile: folder({}) })).fieldAccesses).toEqual({ created: 0, updated: 0, unchanged: 1 });
    expect((await platform.structures.definitions()).fieldAccess("FAL_INVOICE")).toEqual(invoiceBundle().fieldAccesses[0]);
  });
});
