import { describe, expect, it } from "vitest";
import { decisiveOrder, indexedOrderFields, resolvedOrderFields, type OrderTerm } from "./internals.ts";

const by = (key: string, direction: "asc" | "desc" = "asc", kind: OrderTerm["kind"] = "property"): OrderTerm => ({ kind, key, direction });
const idDesc = by("id", "desc");

describe("decisiveOrder", () => {
  it("closes an order with id desc, as every list order is", () => {
    expect(decisiveOrder([by("title")], { oneStructure: false })).toEqual([by("title"), idDesc]);
    expect(decisiveOrder([], { oneStructure: false })).toEqual([idDesc]);
  });

  it("stops at a key no two listed revisions share", () => {
    expect(decisiveOrder([by("title"), by("id"), by("owner")], { oneStructure: false })).toEqual([by("title"), by("id")]);
    expect(decisiveOrder([by("initid", "desc"), by("title")], { oneStructure: false })).toEqual([by("initid", "desc")]);
  });

  it("leaves out keys that cannot change the order: status, a repeated key, the structure of one structure's list", () => {
    expect(decisiveOrder([by("status", "desc"), by("title"), by("title", "desc")], { oneStructure: false })).toEqual([by("title"), idDesc]);
    expect(decisiveOrder([by("fromname"), by("fromid"), by("mdate")], { oneStructure: true })).toEqual([by("mdate"), idDesc]);
    expect(decisiveOrder([by("fromname"), by("mdate")], { oneStructure: false })).toEqual([by("fromname"), by("mdate"), idDesc]);
  });

  it("keeps a field named like a property", () => {
    expect(decisiveOrder([by("id", "asc", "field")], { oneStructure: true })).toEqual([by("id", "asc", "field"), idDesc]);
  });
});

describe("indexedOrderFields", () => {
  it("names the single, short fields, array columns and multiple values left out", () => {
    expect(indexedOrderFields({
      name: "S",
      fields: [
        { id: "t", type: "text" }, { id: "l", type: "longtext" }, { id: "h", type: "htmltext" }, { id: "i", type: "int" },
        { id: "m", type: "enum", multiple: true }, { id: "f", type: "file" },
        { id: "a", type: "array", fields: [{ id: "c", type: "date" }] }, { id: "d", type: "docid" },
      ],
    })).toEqual(["t", "i", "d"]);
  });
});

describe("resolvedOrderFields", () => {
  it("gives each structure its inherited fields first, whatever order the set lists them in", () => {
    const fields = resolvedOrderFields([
      { name: "leaf", extends: "mid", fields: [{ id: "own", type: "date" }, { id: "long", type: "longtext" }] },
      { name: "mid", extends: "root", fields: [{ id: "m", type: "enum" }] },
      { name: "root", fields: [{ id: "r", type: "int" }] },
      { name: "orphan", extends: "missing", fields: [{ id: "o", type: "text" }] },
    ]);
    expect(Object.fromEntries(fields)).toEqual({ leaf: ["r", "m", "own"], mid: ["r", "m"], root: ["r"], orphan: ["o"] });
  });
});
