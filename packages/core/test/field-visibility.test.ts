import { describe, expect, it } from "vitest";
import { principalOf, type Principal } from "../src/accounts/principal.ts";
import type { FieldAccess } from "../src/access/field-access.ts";
import { effectiveStructure, visibilityKey } from "../src/access/field-visibility.ts";
import { visibilityOf } from "../src/structures/smart-field.ts";
import { findField, type SmartStructure } from "../src/structures/smart-structure.ts";
import { resolveStructures } from "../src/structures/structure-inheritance.ts";

const INVOICE: SmartStructure = {
  id: 7, name: "DOC_INVOICE", fieldAccess: "FAL_INVOICE",
  fields: [
    { id: "inv_ref", type: "text" },
    { id: "inv_secret", type: "text", visibility: "I" },
    { id: "inv_notes", type: "longtext", visibility: "R" },
    { id: "inv_hint", type: "text", visibility: "H" },
    { id: "inv_lines", type: "array", visibility: "R", fields: [{ id: "inv_line", type: "text" }, { id: "inv_cost", type: "money", visibility: "I" }] },
    { id: "inv_hidden_rows", type: "array", visibility: "I", fields: [{ id: "inv_hidden_cell", type: "text", visibility: "I" }] },
  ],
};

const ACCESS: FieldAccess = {
  name: "FAL_INVOICE",
  layers: [
    { grant: "role:auditor", fields: { inv_secret: "R", inv_ref: "R", inv_hint: "R", inv_cost: "R" } },
    { grant: "role:editor", fields: { inv_notes: "W", inv_hint: "W", inv_line: "W", inv_hidden_cell: "R" } },
    { grant: "user:carl", fields: { inv_secret: "W" } },
    { grant: "group:finance", fields: { inv_hidden_rows: "R", inv_hidden_cell: "R" } },
  ],
};

function principal(login: string, roles: string[] = [], groups: string[] = []): Principal {
  return principalOf(
    { id: login.length, login, displayName: login, passwordHash: null, roles, groups, locale: "en", rights: [], disabled: false },
    groups.map((id) => ({ id, roles: [] })),
  );
}

/** The visibility of each field as the principal sees the invoice. */
function seen(who: Principal, structure: SmartStructure = INVOICE, access: FieldAccess | undefined = ACCESS): Record<string, string> {
  const effective = effectiveStructure(structure, access, who);
  const ids = ["inv_ref", "inv_secret", "inv_notes", "inv_hint", "inv_lines", "inv_line", "inv_cost", "inv_hidden_rows", "inv_hidden_cell"];
  return Object.fromEntries(ids.map((id) => [id, visibilityOf(findField(effective, id)!)]));
}

const OWN = {
  inv_ref: "W", inv_secret: "I", inv_notes: "R", inv_hint: "H", inv_lines: "R", inv_line: "R", inv_cost: "I", inv_hidden_rows: "I", inv_hidden_cell: "I",
};

describe("field access layers", () => {
  it("leave the structure as it is for a caller granted no layer (a column already bounded by its array)", () => {
    // inv_line is W of its own, but its array is R: a column keeps no right its array lacks.
    expect(seen(principal("nobody"))).toEqual(OWN);
  });

  it("add what a granted layer gives: an I field becomes R, an R field W; a W field stays W under an R layer", () => {
    expect(seen(principal("ann", ["auditor"]))).toEqual({ ...OWN, inv_secret: "R", inv_cost: "R" });
    expect(seen(principal("eve", ["editor"]))).toEqual({ ...OWN, inv_notes: "W" });
  });

  it("keep H, which the API reads and writes and only forms hide, whatever layer is granted", () => {
    expect(seen(principal("ann", ["auditor"])).inv_hint).toBe("H");
    expect(seen(principal("eve", ["editor"])).inv_hint).toBe("H");
    const inRArray = { ...INVOICE, fields: [{ id: "rows", type: "array" as const, visibility: "R" as const, fields: [{ id: "inv_hint", type: "text" as const, visibility: "H" as const }] }] };
    expect(visibilityOf(findField(effectiveStructure(inRArray, ACCESS, principal("nobody")), "inv_hint")!)).toBe("R");
  });

  it("add up when several are granted, whatever their order: the most permissive wins", () => {
    const both = seen(principal("carl", ["auditor", "editor"]));
    expect(both).toEqual({ ...OWN, inv_secret: "W", inv_notes: "W", inv_cost: "R" });
    const reversed = { ...ACCESS, layers: [...ACCESS.layers].reverse() };
    expect(seen(principal("carl", ["auditor", "editor"]), INVOICE, reversed)).toEqual(both);
  });

  it("never give a column a right its array lacks, unless a layer gives it to the array too", () => {
    // The editor's W on inv_line is bounded by its R array; R on a cell of an I array gives nothing.
    expect(seen(principal("eve", ["editor"]))).toMatchObject({ inv_line: "R", inv_hidden_cell: "I" });
    expect(seen(principal("fay", [], ["finance"]))).toMatchObject({ inv_hidden_rows: "R", inv_hidden_cell: "R" });
  });

  it("are granted to roles, groups and users; admin is granted every layer, as every profile", () => {
    expect(seen(principal("carl")).inv_secret).toBe("W");
    expect(seen(principal("fay", [], ["finance"])).inv_hidden_rows).toBe("R");
    expect(seen(principal("root", ["admin"]))).toEqual({ ...OWN, inv_secret: "W", inv_notes: "W", inv_cost: "R", inv_hidden_rows: "R", inv_hidden_cell: "R" });
  });

  it("do nothing on a structure that names no field access, or an unknown one", () => {
    const plain = { ...INVOICE, fieldAccess: undefined };
    expect(effectiveStructure(plain, ACCESS, principal("ann", ["auditor"]))).toBe(plain);
    expect(effectiveStructure(INVOICE, undefined, principal("ann", ["auditor"]))).toBe(INVOICE);
  });

  it("give callers granted the same layers the same structure object, and others another", () => {
    const ann = effectiveStructure(INVOICE, ACCESS, principal("ann", ["auditor"]));
    expect(effectiveStructure(INVOICE, ACCESS, principal("bea", ["auditor"]))).toBe(ann);
    expect(effectiveStructure(INVOICE, ACCESS, principal("eve", ["editor"]))).not.toBe(ann);
    expect(ann).toMatchObject({ id: INVOICE.id, name: INVOICE.name, fieldAccess: "FAL_INVOICE" });
  });

  it("name each caller's visibility in a key that ETags change with", () => {
    const key = (who: Principal) => visibilityKey(effectiveStructure(INVOICE, ACCESS, who));
    expect(key(principal("nobody"))).toBe("WIRHRRIII");
    expect(key(principal("ann", ["auditor"]))).toBe("WRRHRRRII");
    expect(key(principal("bea", ["auditor"]))).toBe(key(principal("ann", ["auditor"])));
  });

  it("are inherited: a child names its parent's field access unless it names its own", () => {
    const [, child, own] = resolveStructures([
      { name: "BASE", fieldAccess: "FAL_BASE", fields: [] },
      { name: "CHILD", extends: "BASE", fields: [] },
      { name: "OWN", extends: "BASE", fieldAccess: "FAL_OWN", fields: [] },
    ]);
    expect(child!.fieldAccess).toBe("FAL_BASE");
    expect(own!.fieldAccess).toBe("FAL_OWN");
  });
});
