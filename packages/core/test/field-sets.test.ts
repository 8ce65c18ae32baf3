import { describe, expect, it } from "vitest";
import { checkBundle } from "../src/bundle/bundle-problems.ts";
import { isLineageError } from "../src/errors/lineage-error.ts";
import type { StructureDefinition } from "../src/structures/smart-structure.ts";
import { resolveStructures } from "../src/structures/structure-inheritance.ts";
import { structureLayout } from "../src/structures/structure-layout.ts";
import { structureValueTypes } from "../src/structures/structure-value-types.ts";
import { createMemoryStore } from "../src/testing/index.ts";
import { folder, testPlatform, type RawBundle } from "../src/testing/bundle-helpers.ts";
import { principalsOf } from "../src/testing/seeded-platform.ts";

const BASE: StructureDefinition = {
  name: "DOC_BASE",
  fieldSets: [
    { id: "t_main", type: "tab", label: "Main" },
    { id: "fr_ident", type: "frame", label: "Identification", parent: "t_main" },
    { id: "fr_money", type: "frame", label: "Amounts", parent: "t_main" },
    { id: "fr_notes", type: "frame", label: "Notes" },
  ],
  fields: [
    { id: "db_total", type: "money", fieldSet: "fr_money" },
    { id: "db_ref", type: "text", fieldSet: "fr_ident" },
    { id: "db_free", type: "text" },
    { id: "db_rows", type: "array", fieldSet: "fr_notes", fields: [{ id: "db_row", type: "text" }] },
    { id: "db_label", type: "text", fieldSet: "fr_ident" },
  ],
};
const INVOICE: StructureDefinition = {
  name: "DOC_INVOICE", extends: "DOC_BASE",
  fieldSets: [
    { id: "fr_money", type: "frame", label: "Totals", insertAfter: "::first" },
    { id: "fr_extra", type: "frame", label: "Extra", parent: "t_main" },
  ],
  fields: [
    { id: "inv_code", type: "text", fieldSet: "fr_ident", insertAfter: "db_ref" },
    { id: "inv_vat", type: "money", fieldSet: "fr_money" },
    { id: "inv_extra", type: "text", fieldSet: "fr_extra" },
  ],
};

describe("frames and tabs of a structure", () => {
  it("order fields as their sets nest them: fields of no set first, then tabs with their frames, a child's fields in their frame", () => {
    const [base, invoice] = resolveStructures([BASE, INVOICE]);
    expect(base!.fields.map((field) => field.id)).toEqual(["db_free", "db_ref", "db_label", "db_total", "db_rows"]);
    expect(invoice!.fields.map((field) => field.id)).toEqual(["db_free", "db_total", "inv_vat", "db_ref", "inv_code", "db_label", "inv_extra", "db_rows"]);
    const layout = structureLayout(invoice!);
    expect(layout.sets.map((set) => [set.id, set.type, set.parent, set.logicalOrder])).toEqual([
      ["t_main", "tab", undefined, 2], ["fr_money", "frame", "t_main", 3], ["fr_ident", "frame", "t_main", 6],
      ["fr_extra", "frame", "t_main", 10], ["fr_notes", "frame", undefined, 12], ["db_rows", "array", "fr_notes", 13],
    ]);
    expect(layout.parentOf.get("inv_code")).toBe("fr_ident");
    expect(layout.parentOf.get("db_row")).toBe("db_rows");
    expect(invoice!.fieldSets!.find((set) => set.id === "fr_money")!.label).toBe("Totals");
  });

  it("bound the value types lineage types and the OpenAPI document give: nothing of an invisible frame, nothing written in a read-only tab", () => {
    const [resolved] = resolveStructures([{
      name: "DOC_BOUND",
      fieldSets: [{ id: "t_read", type: "tab", visibility: "R" }, { id: "fr_secret", type: "frame", visibility: "I" }, { id: "fr_shown", type: "frame", parent: "t_read" }],
      fields: [{ id: "b_open", type: "text" }, { id: "b_secret", type: "text", fieldSet: "fr_secret" }, { id: "b_shown", type: "text", fieldSet: "fr_shown" }],
    }]);
    const types = structureValueTypes({ ...resolved!, id: 1 }, () => undefined);
    expect(types.map((type) => [type.field.id, type.writable])).toEqual([["b_open", true], ["b_shown", false]]);
  });

  it("leave a structure without sets as it was", () => {
    const plain: StructureDefinition = { name: "P", fields: [{ id: "a", type: "text" }, { id: "b", type: "int" }] };
    const [resolved] = resolveStructures([plain]);
    expect(resolved!.fields).toEqual(plain.fields);
    expect(resolved).not.toHaveProperty("fieldSets");
  });
});

function setsBundle(): RawBundle {
  return structuredClone({
    accounts: {
      roles: [{ id: "auditor" }],
      users: [{ login: "admin", password: "admin", roles: ["admin"] }, { login: "audrey", password: "pw", roles: ["auditor"] }, { login: "bob", password: "pw" }],
    },
    fieldAccesses: [{ name: "FAL_SETS", layers: [{ grant: "role:auditor", fields: { fr_secret: "R" } }] }],
    structures: [
      { ...BASE, fieldSets: [...BASE.fieldSets!, { id: "fr_secret", type: "frame", label: "Secret", visibility: "I" }, { id: "fr_fixed", type: "frame", visibility: "R" }],
        fields: [...BASE.fields, { id: "db_secret", type: "text", fieldSet: "fr_secret" }, { id: "db_fixed", type: "text", fieldSet: "fr_fixed" }], fieldAccess: "FAL_SETS" },
      INVOICE,
    ],
    elements: [{ structure: "DOC_INVOICE", name: "INV_1", values: { db_ref: "R1", db_secret: "swordfish", db_fixed: "set", inv_code: "C1" } }],
  });
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

describe("frames and tabs through the platform", () => {
  it("serve family.structure nested as the original nests it, sets with their label, order and visibility", async () => {
    const platform = testPlatform();
    await platform.bundles.import(setsBundle(), { readFile: folder({}) });
    const principal = principalsOf(platform);
    const bob = await principal("bob");
    const tree = (await platform.structures.read(bob, "DOC_INVOICE")).data.family!.structure;
    expect(Object.keys(tree)).toEqual(["db_free", "t_main", "fr_notes", "fr_fixed"]);
    expect(tree.t_main).toMatchObject({ type: "tab", label: "Main", logicalOrder: 2, visibility: "W", multiple: false });
    expect(tree.t_main).not.toHaveProperty("needed");
    expect(Object.keys(tree.t_main!.content!)).toEqual(["fr_money", "fr_ident", "fr_extra"]);
    expect(tree.t_main!.content!.fr_money).toMatchObject({ type: "frame", label: "Totals" });
    expect(Object.keys(tree.t_main!.content!.fr_ident!.content!)).toEqual(["db_ref", "inv_code", "db_label"]);
    expect(tree.fr_notes!.content!.db_rows!.content).toHaveProperty("db_row");
    // A read-only frame makes what it holds read-only; an invisible one hides it all.
    expect(tree.fr_fixed).toMatchObject({ visibility: "R", content: { db_fixed: { visibility: "R" } } });
    const element = (await platform.elements.read(bob, "INV_1", { fields: "document.attributes.all" })).data.document.attributes!;
    expect(element).not.toHaveProperty("db_secret");
    expect((await errorOf(() => platform.elements.update(bob, "INV_1", { values: { db_fixed: "other" } }))).code).toBe("ROUTES0107");
    // A layer that grants the frame shows it, with what it holds.
    const audrey = await principal("audrey");
    const seen = (await platform.structures.read(audrey, "DOC_INVOICE")).data.family!.structure;
    expect(seen.fr_secret).toMatchObject({ visibility: "R", content: { db_secret: { visibility: "R" } } });
    expect((await platform.elements.read(audrey, "INV_1", { fields: "document.attributes.db_secret" })).data.document.attributes).toMatchObject({ db_secret: { value: "swordfish" } });
  });

  it("refuse sets and places that do not fit", async () => {
    const bundle = setsBundle();
    bundle.structures[1].fieldSets.push({ id: "t_main", type: "frame" }, { id: "t_two", type: "tab", parent: "t_main" }, { id: "fr_x", type: "frame", parent: "fr_ident" });
    bundle.structures[1].fields.push({ id: "inv_y", type: "text", fieldSet: "t_main" }, { id: "inv_z", type: "text", fieldSet: "fr_ident", insertAfter: "db_total" }, { id: "db_row", type: "text", fieldSet: "fr_ident" });
    const problems = (await checkBundle(bundle, { store: createMemoryStore(), readFile: folder({}) })).problems.map((p) => `${p.path}: ${p.message}`);
    expect(problems).toEqual(expect.arrayContaining([
      '$.structures[1].fieldSets[2].type: "t_main" is inherited from "DOC_BASE" as a tab: its type cannot change',
      "$.structures[1].fieldSets[3].parent: a tab stands at the top: only frames stand in a tab",
      '$.structures[1].fieldSets[4].parent: "fr_ident" is no tab of structure "DOC_INVOICE"',
      '$.structures[1].fields[3].fieldSet: "t_main" is no frame of structure "DOC_INVOICE"',
      '$.structures[1].fields[4].insertAfter: "db_total" does not stand in the same set as "inv_z"',
      '$.structures[1].fields[5].fieldSet: "db_row" is a column of "db_rows": it stands in its array',
    ]));
  });
});
