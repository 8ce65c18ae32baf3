import { describe, expect, it } from "vitest";
import { DEFAULT_PROPERTIES, parseFieldsSelection } from "./internals.ts";

describe("parseFieldsSelection", () => {
  it.each([
    [undefined, "one", { properties: DEFAULT_PROPERTIES, attributes: "all", structure: false }],
    ["", "list", { properties: DEFAULT_PROPERTIES, attributes: null, structure: false }],
    ["document.properties.state", "one", { properties: ["id", "title", "state"], attributes: null, structure: false }],
    ["document.properties,document.properties.owner", "list", { properties: ["id", "title", ...DEFAULT_PROPERTIES.slice(2), "owner"], attributes: null, structure: false }],
    ["document.attributes.ar_title, document.attributes.ar_body", "one", { properties: null, attributes: ["ar_title", "ar_body"], structure: false }],
    ["document.attributes.all", "one", { properties: null, attributes: "all", structure: false }],
    ["family.structure", "one", { properties: null, attributes: null, structure: true }],
    ["document.properties,requestParameters.slice", "list", { properties: DEFAULT_PROPERTIES, attributes: null, structure: false }],
  ] as const)("%s (%s)", (raw, scope, expected) => {
    expect(parseFieldsSelection(raw, scope)).toEqual(expected);
  });

  it("expands all properties", () => {
    expect(parseFieldsSelection("document.properties.all", "one").properties).toContain("mdate");
  });

  it.each<[string, string, "one" | "list"]>([
    ["document.properties.nope", "CRUD0202", "one"],
    ["nothing", "ROUTES0103", "one"],
    ["family.structure", "ROUTES0103", "list"],
  ])("refuses %s with %s", (raw, code, scope) => {
    expect(() => parseFieldsSelection(raw, scope)).toThrow(expect.objectContaining({ code }));
  });
});
