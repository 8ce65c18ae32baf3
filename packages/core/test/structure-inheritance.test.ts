import { describe, expect, it } from "vitest";
import { checkBundle } from "../src/bundle/bundle-problems.ts";
import { importBundle } from "../src/bundle/import-bundle.ts";
import { isLineageError } from "../src/errors/lineage-error.ts";
import type { Store } from "../src/ports/store.port.ts";
import { withInheritedConfigs, type SearchDomain } from "../src/search/search-domain.ts";
import type { StructureDefinition } from "../src/structures/smart-structure.ts";
import { inheritanceBreak, resolveStructures } from "../src/structures/structure-inheritance.ts";
import { createMemoryStore } from "../src/testing/index.ts";
import { folder, testPlatform, type RawBundle } from "../src/testing/bundle-helpers.ts";
import { principalsOf } from "../src/testing/seeded-platform.ts";
import { searchWorld } from "../src/testing/search-world.ts";

const BASE: StructureDefinition = {
  name: "DOC_BASE", icon: "base.png", profile: "PRF_BASE", lifecycle: "WFL_DOC", titleFields: ["db_ref", "db_label"],
  fields: [
    { id: "db_ref", type: "text", label: "Reference" },
    { id: "db_label", type: "text" },
    { id: "db_rows", type: "array", fields: [{ id: "db_row", type: "text", label: "Row" }] },
  ],
};
const INVOICE: StructureDefinition = {
  name: "DOC_INVOICE", extends: "DOC_BASE",
  fields: [
    { id: "inv_total", type: "money" },
    { id: "db_label", type: "text", label: "Customer", visibility: "R" },
    { id: "db_row", type: "text", label: "Line" },
  ],
};
const CREDIT: StructureDefinition = { name: "DOC_CREDIT", extends: "DOC_INVOICE", icon: "credit.png", profile: "PRF_OPEN", titleField: "cr_reason", fields: [{ id: "cr_reason", type: "text" }] };

describe("resolving structures", () => {
  it("gives a child its parent's fields first, changed where it gives their label or visibility, then its own", () => {
    const [, invoice] = resolveStructures([BASE, INVOICE]);
    expect(invoice!.fields).toEqual([
      { id: "db_ref", type: "text", label: "Reference" },
      { id: "db_label", type: "text", label: "Customer", visibility: "R" },
      { id: "db_rows", type: "array", fields: [{ id: "db_row", type: "text", label: "Line" }] },
      { id: "inv_total", type: "money" },
    ]);
    expect(invoice!.ancestors).toEqual(["DOC_BASE"]);
  });

  it("inherits profile, lifecycle, icon and title fields unless the child names its own, down every level", () => {
    const byName = new Map(resolveStructures([CREDIT, INVOICE, BASE]).map((s) => [s.name, s]));
    expect(byName.get("DOC_INVOICE")).toMatchObject({ icon: "base.png", profile: "PRF_BASE", lifecycle: "WFL_DOC", titleFields: ["db_ref", "db_label"] });
    const credit = byName.get("DOC_CREDIT")!;
    expect(credit).toMatchObject({ icon: "credit.png", profile: "PRF_OPEN", lifecycle: "WFL_DOC", titleField: "cr_reason", ancestors: ["DOC_INVOICE", "DOC_BASE"] });
    // Naming one form of title fields replaces both.
    expect(credit).not.toHaveProperty("titleFields");
    expect(credit.fields.map((field) => field.id)).toEqual(["db_ref", "db_label", "db_rows", "inv_total", "cr_reason"]);
    expect(credit.fields[1]).toMatchObject({ label: "Customer", visibility: "R" });
    expect(byName.get("DOC_BASE")!.ancestors).toEqual([]);
  });

  it("ends a chain at an unknown parent or a cycle rather than failing", () => {
    const [orphan] = resolveStructures([{ name: "ORPHAN", extends: "NOPE", fields: [{ id: "o", type: "text" }] }]);
    expect(orphan).toMatchObject({ ancestors: [], fields: [{ id: "o", type: "text" }] });
    const looped = resolveStructures([{ name: "A", extends: "B", fields: [] }, { name: "B", extends: "A", fields: [] }]);
    expect(looped.map((s) => s.ancestors.length).sort()).toEqual([0, 1]);
  });

  it("tells why a chain is broken", () => {
    const parents: Record<string, string> = { A: "B", B: "C", C: "A", D: "NOPE", E: "A", S: "S" };
    const exists = (name: string) => name !== "NOPE";
    const parentOf = (name: string) => parents[name];
    expect(inheritanceBreak("A", parentOf, exists)).toEqual({ kind: "cycle", through: ["B", "C"] });
    expect(inheritanceBreak("S", parentOf, exists)).toEqual({ kind: "cycle", through: [] });
    expect(inheritanceBreak("D", parentOf, exists)).toEqual({ kind: "unknown", parent: "NOPE" });
    // A cycle above it is told at the structures that make it.
    expect(inheritanceBreak("E", parentOf, exists)).toBeUndefined();
    expect(inheritanceBreak("X", parentOf, exists)).toBeUndefined();
  });
});

describe("search domains and inheritance", () => {
  it("gives a descendant without configs its nearest ancestor's, and keeps a descendant's own", () => {
    const structures = resolveStructures([BASE, INVOICE, CREDIT, { name: "OTHER", fields: [] }]);
    const domain: SearchDomain = {
      name: "docs", lang: "en", stem: "english",
      configs: [{ structure: "DOC_BASE", fields: [{ field: "db_ref", weight: "A" }], files: [], callables: [] }],
    };
    const wide = withInheritedConfigs(domain, { structures: () => structures });
    expect(wide.configs.map((config) => [config.structure, config.fields[0]?.field])).toEqual([
      ["DOC_BASE", "db_ref"], ["DOC_INVOICE", "db_ref"], ["DOC_CREDIT", "db_ref"],
    ]);
    const own = { ...domain, configs: [...domain.configs, { structure: "DOC_INVOICE", fields: [{ field: "inv_total", weight: "B" as const }], files: [], callables: [] }] };
    expect(withInheritedConfigs(own, { structures: () => structures }).configs.map((config) => [config.structure, config.fields[0]?.field])).toEqual([
      ["DOC_BASE", "db_ref"], ["DOC_INVOICE", "inv_total"], ["DOC_CREDIT", "inv_total"],
    ]);
    const flat = resolveStructures([{ name: "OTHER", fields: [] }]);
    expect(withInheritedConfigs(domain, { structures: () => flat })).toBe(domain);
  });
});

describe("search domains over a structure a later bundle extends", () => {
  it("indexes the new descendant's elements with the parent's config once the domain is rebuilt for it", async () => {
    const world = await searchWorld();
    const admin = await world.as("admin");
    const titles = async (q: string) => (await world.platform.fullsearch.search(admin, "news", { q })).documents.map((d) => d.properties?.title);
    expect(await titles("volcano")).toEqual(["Volcano eruption", "Secret volcano base", "Weekly digest"]);
    world.log.length = 0;
    const child = {
      structures: [{ name: "BREAKING", extends: "NEWS", fields: [{ id: "br_level", type: "int" }] }],
      elements: [{ structure: "BREAKING", name: "BR_ONE", values: { nw_title: "Volcano alert", br_level: 3 } }],
    };
    await world.platform.bundles.import(child, { readFile: folder({}) });
    // What the domain indexes changed: its index is rebuilt, the one in place answering meanwhile.
    await titles("volcano");
    expect(world.log).toEqual(['domain "news" changed: rebuilding its index in the background']);
    await world.platform.fullsearch.engine.rebuild("news");
    expect(await titles("alert")).toEqual(["Volcano alert"]);
    const described = await world.platform.fullsearch.describeDomains(admin);
    const news = described.config.find((domain: { name: string }) => domain.name === "news")!;
    expect(news.configs.map((config: { structure: string }) => config.structure)).toEqual(["NEWS", "SECRET", "BREAKING"]);
  });
});

/** Three levels of structures, a profile each for the base and the last, and an element of each. */
function familyBundle(): RawBundle {
  return structuredClone({
    accounts: {
      roles: [{ id: "clerk" }],
      users: [
        { login: "admin", password: "admin", roles: ["admin"] },
        { login: "clara", password: "pw", roles: ["clerk"] },
        { login: "bob", password: "pw" },
      ],
    },
    profiles: [
      { name: "PRF_BASE", grants: { view: ["role:clerk"], edit: ["role:clerk"] } },
      { name: "PRF_OPEN", grants: { view: ["role:clerk", "user:bob"], edit: ["role:clerk"] } },
    ],
    lifecycles: [{ name: "WFL_DOC", firstState: "draft", states: [{ id: "draft" }, { id: "done" }], transitions: [{ id: "finish", from: "draft", to: "done" }] }],
    structures: [{ ...BASE, title: "Base" }, INVOICE, CREDIT],
    elements: [
      { structure: "DOC_BASE", name: "B_1", values: { db_ref: "B1", db_label: "zulu" } },
      { structure: "DOC_INVOICE", name: "I_1", values: { db_ref: "I1", db_label: "acme", inv_total: 10, db_rows: [{ db_row: "one" }] } },
      { structure: "DOC_CREDIT", name: "C_1", values: { db_ref: "C1", db_label: "mike", cr_reason: "broken" } },
    ],
  });
}

async function importedFamily() {
  const platform = testPlatform();
  await platform.bundles.import(familyBundle(), { readFile: folder({}) });
  const principal = principalsOf(platform);
  return { platform, admin: await principal("admin"), principal };
}

const titles = (data: { documents: { properties?: Record<string, unknown> }[] }) => data.documents.map((d) => d.properties?.title);

describe("a structure's collection and its descendants", () => {
  it("lists the descendants' elements with the structure's own, sorted together by property or inherited field", async () => {
    const { platform, admin } = await importedFamily();
    expect(titles(await platform.elements.list(admin, { family: "DOC_BASE" }))).toEqual(["B1 zulu", "I1 acme", "broken"]);
    expect(titles(await platform.elements.list(admin, { family: "DOC_BASE", orderBy: "db_label:desc" }))).toEqual(["B1 zulu", "broken", "I1 acme"]);
    expect(titles(await platform.elements.list(admin, { family: "DOC_BASE", orderBy: "fromname:desc,title" }))).toEqual(["I1 acme", "broken", "B1 zulu"]);
    expect(titles(await platform.elements.list(admin, { family: "DOC_INVOICE" }))).toEqual(["I1 acme", "broken"]);
    expect(titles(await platform.elements.list(admin, { family: "DOC_CREDIT" }))).toEqual(["broken"]);
    // A field only a descendant has does not sort its parent's collection (the original's CRUD0506).
    await expect(platform.elements.list(admin, { family: "DOC_BASE", orderBy: "cr_reason" })).rejects.toMatchObject({ code: "CRUD0506" });
  });

  it("shows each caller only the descendants' elements they may view, under the profile each structure has or inherits", async () => {
    const { platform, principal } = await importedFamily();
    expect(titles(await platform.elements.list(await principal("clara"), { family: "DOC_BASE" }))).toEqual(["B1 zulu", "I1 acme", "broken"]);
    expect(titles(await platform.elements.list(await principal("bob"), { family: "DOC_BASE" }))).toEqual(["broken"]);
    await expect(platform.elements.read(await principal("bob"), "I_1")).rejects.toMatchObject({ code: "ROUTES0101" });
  });

  it("reads a descendant's element through an ancestor's collection, never an ancestor's through a descendant's", async () => {
    const { platform, admin } = await importedFamily();
    const { data } = await platform.elements.read(admin, "C_1", { family: "DOC_BASE", fields: "document.properties.all" });
    const invoice = (await platform.structures.definitions()).structure("DOC_INVOICE")!;
    const credit = (await platform.structures.definitions()).structure("DOC_CREDIT")!;
    expect(credit.id).not.toBe(invoice.id);
    expect(data.document.properties).toMatchObject({ fromname: "DOC_CREDIT", fromid: credit.id, profid: "PRF_OPEN", wid: "WFL_DOC", state: { reference: "draft" } });
    await expect(platform.elements.read(admin, "B_1", { family: "DOC_INVOICE" })).rejects.toMatchObject({ code: "ROUTES0104" });
  });

  it("gives elements the inherited title fields, icon and lifecycle, and values of inherited fields", async () => {
    const { platform, admin } = await importedFamily();
    const { data } = await platform.elements.read(admin, "I_1");
    expect(data.document.properties).toMatchObject({ title: "I1 acme", icon: "/api/v2/images/assets/sizes/24x24c/base.png", state: { reference: "draft" } });
    expect(data.document.attributes).toMatchObject({ db_ref: { value: "I1" }, db_label: { value: "acme" }, db_row: [{ value: "one" }] });
  });

  it("describes a structure with its parent as fromid and fromname, and every field it has, inherited ones included", async () => {
    const { platform, admin } = await importedFamily();
    const definitions = await platform.structures.definitions();
    const fields = "document.properties.fromid,document.properties.fromname,family.structure";
    const credit = await platform.structures.read(admin, "DOC_CREDIT", { fields });
    expect(credit.data.document.properties).toMatchObject({ fromid: definitions.structure("DOC_INVOICE")!.id, fromname: "DOC_INVOICE" });
    const tree = credit.data.family!.structure;
    expect(Object.keys(tree)).toEqual(["db_ref", "db_label", "db_rows", "inv_total", "cr_reason"]);
    expect(tree.db_label).toMatchObject({ label: "Customer", visibility: "R", logicalOrder: 2 });
    expect(tree.db_rows!.content!.db_row).toMatchObject({ label: "Line" });
    const base = await platform.structures.read(admin, "DOC_BASE", { fields });
    expect(base.data.document.properties).toMatchObject({ fromid: 0, fromname: null });
    expect(base.data.family!.structure.db_label).toMatchObject({ label: "db_label", visibility: "W" });
  });

  it("changes the descendants of a structure a later bundle changes, and lets a bundle extend a stored structure", async () => {
    const { platform } = await importedFamily();
    const base = { ...familyBundle().structures[0], fields: [...BASE.fields, { id: "db_note", type: "text" }] };
    await platform.bundles.import({ structures: [base, { name: "DOC_MEMO", extends: "DOC_CREDIT", fields: [] }] }, { readFile: folder({}) });
    const definitions = await platform.structures.definitions();
    expect(definitions.structure("DOC_CREDIT")!.fields.map((f) => f.id)).toContain("db_note");
    expect(definitions.structure("DOC_MEMO")).toMatchObject({ ancestors: ["DOC_CREDIT", "DOC_INVOICE", "DOC_BASE"], profile: "PRF_OPEN" });
    expect(definitions.withDescendants("DOC_INVOICE")).toEqual(["DOC_INVOICE", "DOC_CREDIT", "DOC_MEMO"]);
    expect(definitions.withDescendants("DOC_MEMO")).toEqual(["DOC_MEMO"]);
    expect(definitions.withDescendants("NOPE")).toEqual([]);
  });
});

const problemsOf = async (bundle: RawBundle, store: Store = createMemoryStore()) =>
  (await checkBundle(bundle, { store, readFile: folder({}) })).problems;

describe("bundle problems of inheritance", () => {
  it("refuses an unknown parent and parents that make a cycle, at their JSON paths", async () => {
    expect(await problemsOf({ structures: [{ name: "A", extends: "NOPE" }] })).toEqual([
      { path: "$.structures[0].extends", message: 'unknown structure "NOPE"' },
    ]);
    expect(await problemsOf({ structures: [{ name: "A", extends: "B" }, { name: "B", extends: "C" }, { name: "C", extends: "A" }, { name: "S", extends: "S" }] })).toEqual([
      { path: "$.structures[0].extends", message: 'structure "A" extends itself through "B", "C"' },
      { path: "$.structures[1].extends", message: 'structure "B" extends itself through "C", "A"' },
      { path: "$.structures[2].extends", message: 'structure "C" extends itself through "A", "B"' },
      { path: "$.structures[3].extends", message: 'structure "S" cannot extend itself' },
    ]);
  });

  it("lets a child change an inherited field's label and visibility only, and give no column an inherited id", async () => {
    const bundle = familyBundle();
    bundle.structures[1].fields = [
      { id: "db_label", type: "int", needed: true },
      { id: "db_ref", type: "text", options: { a: "b" }, label: "Ref" },
      { id: "inv_rows", type: "array", fields: [{ id: "db_row", type: "text" }] },
    ];
    delete bundle.elements;
    expect(await problemsOf(bundle)).toEqual([
      { path: "$.structures[1].fields[0].type", message: '"db_label" is inherited from "DOC_BASE" as a text field: its type cannot change' },
      { path: "$.structures[1].fields[0].needed", message: '"db_label" is inherited from "DOC_BASE": only its label and visibility can change' },
      { path: "$.structures[1].fields[1].options", message: '"db_ref" is inherited from "DOC_BASE": only its label and visibility can change' },
      { path: "$.structures[1].fields[2].fields[0].id", message: '"db_row" is inherited from "DOC_BASE": a column cannot have its id' },
    ]);
  });

  it("checks a child's elements, title fields and search configs against its inherited fields", async () => {
    const bundle = familyBundle();
    bundle.structures[2].titleField = "db_ref";
    bundle.elements[2].values.nope = 1;
    bundle.searchDomains = [{ name: "docs", configs: [{ structure: "DOC_CREDIT", fields: [{ field: "db_label" }, { field: "nope" }] }] }];
    expect(await problemsOf(bundle)).toEqual([
      { path: '$.elements[2].values.nope', message: expect.stringContaining("nope") },
      { path: "$.searchDomains[0].configs[0].fields[1].field", message: 'structure "DOC_CREDIT" has no field "nope"' },
    ]);
  });

  it("takes an element of a descendant as a docid value of an ancestor, never the other way", async () => {
    const bundle = familyBundle();
    bundle.structures.push({ name: "LINK", fields: [{ id: "ln_doc", type: "docid", structure: "DOC_BASE" }, { id: "ln_credit", type: "docid", structure: "DOC_CREDIT" }] });
    bundle.elements.push({ structure: "LINK", name: "L_1", values: { ln_doc: "C_1", ln_credit: "I_1" } });
    expect(await problemsOf(bundle)).toEqual([{ path: "$.elements[3].values.ln_credit", message: expect.stringContaining('is not of structure "DOC_CREDIT"') }]);
    // Written through the import's request scope: the same rule.
    const platform = testPlatform();
    delete bundle.elements[3].values.ln_credit;
    await platform.bundles.import(bundle, { readFile: folder({}) });
    const admin = await principalsOf(platform)("admin");
    const credit = await platform.elements.read(admin, "C_1");
    const { data } = await platform.elements.read(admin, "L_1");
    expect(data.document.attributes?.ln_doc).toMatchObject({ value: credit.revision.initid });
  });

  it("checks a child extending a stored structure against the parent the bundle leaves", async () => {
    const platform = testPlatform();
    await platform.bundles.import(familyBundle(), { readFile: folder({}) });
    expect(await problemsOf({ structures: [{ name: "DOC_MEMO", extends: "DOC_INVOICE", titleField: "inv_total", fields: [] }] }, platform.store)).toEqual([]);
    // The same bundle redefining the parent without the field: the child's title field is gone.
    const problems = await problemsOf({ structures: [{ name: "DOC_INVOICE", extends: "DOC_BASE", fields: [] }, { name: "DOC_MEMO", extends: "DOC_INVOICE", titleField: "inv_total", fields: [] }] }, platform.store);
    expect(problems).toEqual([{ path: "$.structures[1].titleField", message: 'structure "DOC_MEMO" has no field "inv_total"' }]);
  });

  it("refuses a later bundle giving a stored parent a field a stored child has with another type, writing nothing", async () => {
    const { platform, stored } = await storedParentAndChild([{ id: "x", type: "text", label: "Mine" }, { id: "c_rows", type: "array", fields: [{ id: "y", type: "text" }] }]);
    const later = { structures: [{ name: "P", fields: [{ id: "p_a", type: "text" }, { id: "x", type: "int" }] }] };
    const error = await platform.bundles.import(later, { readFile: folder({}) }).catch((e: unknown) => e);
    expect(isLineageError(error) && error.code).toBe("BUNDLE0001");
    expect(isLineageError(error) && error.data).toEqual({ problems: [
      { path: "$.structures[0].fields[1]", message: 'field "x" of "P" is also a field of "C", which extends it, with another type' },
    ] });
    expect(await platform.store.catalog.structures()).toEqual(stored);
    // The field coming through a stored parent the bundle makes P extend: told at that extends.
    await platform.bundles.import({ structures: [{ name: "Q", fields: [{ id: "x", type: "date" }] }] }, { readFile: folder({}) });
    expect(await problemsOf({ structures: [{ name: "P", extends: "Q", fields: [{ id: "p_a", type: "text" }] }] }, platform.store)).toEqual([
      { path: "$.structures[0].extends", message: 'field "x" of "Q" is also a field of "C", which extends it, with another type' },
    ]);
  });

  it("refuses a later bundle giving a stored parent a field with the id of a stored child's column, and one a grandchild has", async () => {
    const { platform, stored } = await storedParentAndChild([{ id: "c_rows", type: "array", fields: [{ id: "y", type: "text" }] }]);
    await platform.bundles.import({ structures: [{ name: "G", extends: "C", fields: [{ id: "z", type: "date" }] }] }, { readFile: folder({}) });
    const before = await platform.store.catalog.structures();
    expect(before.length).toBe(stored.length + 1);
    const later = { structures: [{ name: "P", fields: [{ id: "p_a", type: "text" }, { id: "y", type: "text" }, { id: "p_rows", type: "array", fields: [{ id: "z", type: "int" }] }] }] };
    const error = await platform.bundles.import(later, { readFile: folder({}) }).catch((e: unknown) => e);
    expect(isLineageError(error) && error.data).toEqual({ problems: [
      { path: "$.structures[0].fields[1]", message: 'field "y" of "P" is also a column of "C", which extends it' },
      { path: "$.structures[0].fields[2].fields[0]", message: 'field "z" of "P" is also a field of "G", which extends it, with another type' },
    ] });
    expect(await platform.store.catalog.structures()).toEqual(before);
  });

  it("lets a later bundle give a stored parent a field a stored child changes the label or visibility of, as a child in the same bundle may", async () => {
    const { platform } = await storedParentAndChild([{ id: "x", type: "text", label: "Mine", visibility: "R" }]);
    const later = { structures: [{ name: "P", fields: [{ id: "p_a", type: "text" }, { id: "x", type: "text", label: "Theirs" }] }] };
    expect(await problemsOf(later, platform.store)).toEqual([]);
    await platform.bundles.import(later, { readFile: folder({}) });
    expect((await platform.structures.definitions()).structure("C")!.fields).toEqual([
      { id: "p_a", type: "text" },
      { id: "x", type: "text", label: "Mine", visibility: "R" },
    ]);
    // An entry giving more than a label and visibility is refused, in the same bundle as in a later one.
    const { platform: other } = await storedParentAndChild([{ id: "x", type: "text", needed: true }]);
    expect(await problemsOf(later, other.store)).toEqual([
      { path: "$.structures[0].fields[1]", message: 'field "x" of "P" is also a field of "C", which extends it, with its own "needed": only its label and visibility can change' },
    ]);
    expect(await problemsOf({ structures: [later.structures[0]!, { name: "C", extends: "P", fields: [{ id: "x", type: "text", needed: true }] }] })).toEqual([
      { path: "$.structures[1].fields[0].needed", message: '"x" is inherited from "P": only its label and visibility can change' },
    ]);
  });

  it("refuses the import of a bundle with such a problem, writing nothing", async () => {
    const platform = testPlatform();
    const error = await platform.bundles.import({ structures: [{ name: "A", extends: "NOPE" }] }, { readFile: folder({}) }).catch((e: unknown) => e);
    expect(isLineageError(error) && error.code).toBe("BUNDLE0001");
    // The system structures alone, as in every store.
    expect((await platform.store.catalog.structures()).map((s) => s.name)).toEqual(["DIR", "SEARCH", "REPORT"]);
  });
});

/** A store holding parent P and child C, C with the given own fields; and its structures as stored. */
async function storedParentAndChild(childFields: readonly Record<string, unknown>[]) {
  const platform = testPlatform();
  const bundle = { structures: [{ name: "P", fields: [{ id: "p_a", type: "text" }] }, { name: "C", extends: "P", fields: childFields }] };
  await platform.bundles.import(bundle, { readFile: folder({}) });
  return { platform, stored: await platform.store.catalog.structures() };
}
