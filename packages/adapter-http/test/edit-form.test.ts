import { describe, expect, it } from "vitest";
import { describeStructure, type SmartStructure } from "@lineage/core";
import { consoleText } from "../src/console/console-text.ts";
import { editableFields, editForm, withColumnCounts } from "../src/console/edit-form.ts";

/** Two arrays: `arr`, whose column c2 the person cannot see, and `all`, whose columns they may all write. */
const STRUCTURE: SmartStructure = {
  id: 1, name: "DOC",
  fields: [
    { id: "arr", type: "array", fields: [{ id: "c1", type: "text" }, { id: "c2", type: "text", visibility: "I" }] },
    { id: "all", type: "array", fields: [{ id: "a1", type: "text" }] },
  ],
};

describe("the edit form's arrays", () => {
  it("edit an array only when the person may write every column, one invisible to them included", () => {
    const structure = withColumnCounts(describeStructure(STRUCTURE, "en"), STRUCTURE);
    expect(editableFields(structure).map((field) => field.id)).toEqual(["all"]);
    const state = {
      action: "/console/elements/1/edit", csrf: "token", etag: "", values: { a1: ["x"] }, enumerates: new Map(), locale: "en", submit: "Save",
      attributes: { c1: [{ value: "a", displayValue: "a" }], a1: [{ value: "x", displayValue: "x" }] },
    };
    const form = String(editForm(structure, state, consoleText("en")));
    expect(form).toContain('name="f_a1"');
    expect(form).not.toContain('name="f_c1"');
    expect(form).not.toContain("c2");
    // A read-only table too wide for the screen scrolls in a region the keyboard reaches, named by its field.
    expect(form).toMatch(/<div class="readonly"><div class="scroll" tabindex="0" role="region" aria-label="arr"><table>/);
  });
});
