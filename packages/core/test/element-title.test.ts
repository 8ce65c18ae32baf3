import { describe, expect, it } from "vitest";
import { checkBundle } from "../src/bundle/bundle-problems.ts";
import { composeTitle, titleFields, type StructureDefinition } from "./internals.ts";
import { createMemoryStore } from "../src/testing/index.ts";
import { baseBundle, FILES, folder } from "../src/testing/bundle-helpers.ts";
import { seededPlatform } from "../src/testing/seeded-platform.ts";

const PERSON: StructureDefinition = {
  name: "PERSON", title: { en: "Person", fr: "Personne" }, titleFields: ["pe_last", "pe_first"],
  fields: [
    { id: "pe_first", type: "text" },
    { id: "pe_nick", type: "text" },
    { id: "pe_last", type: "text" },
    { id: "pe_roles", type: "text", multiple: true },
    { id: "pe_jobs", type: "array", fields: [{ id: "pe_job", type: "text" }] },
  ],
};

describe("the title of an element, as the original composes it", () => {
  it("joins the title fields' values by spaces in the structure's field order, skipping empty ones", () => {
    expect(titleFields(PERSON).map((field) => field.id)).toEqual(["pe_first", "pe_last"]);
    expect(composeTitle(PERSON, { pe_first: "Ada", pe_nick: "A.", pe_last: "Lovelace" })).toBe("Ada Lovelace");
    expect(composeTitle(PERSON, { pe_first: "", pe_last: "Lovelace" })).toBe("Lovelace");
    expect(composeTitle(PERSON, { pe_first: null, pe_last: null })).toBe("");
    expect(composeTitle({ ...PERSON, titleFields: undefined, titleField: "pe_last" }, { pe_first: "Ada", pe_last: "Lovelace" })).toBe("Lovelace");
  });

  it("lists a multiple field's or a column's values, control characters as spaces, trimmed, at most 255 characters", () => {
    const listed = { ...PERSON, titleFields: ["pe_roles", "pe_job"] };
    expect(composeTitle(listed, { pe_roles: ["poet", "", "analyst"], pe_job: ["countess", null] })).toBe("poet analyst countess");
    expect(composeTitle(PERSON, { pe_first: "Ada\nAugusta\t", pe_last: " Lovelace\u0007" })).toBe("Ada Augusta   Lovelace");
    const long = composeTitle(PERSON, { pe_first: "é".repeat(200), pe_last: "😀".repeat(100) });
    expect(Array.from(long)).toHaveLength(255);
    expect(long.endsWith("😀")).toBe(true);
  });
});

describe("titles of written elements", () => {
  async function withPerson() {
    const seeded = await seededPlatform();
    await seeded.store.transaction((tx) => tx.catalog.saveStructure(PERSON));
    return seeded;
  }

  it("names a new element with no title value as the original: its structure's title and its initid, in the writer's language", async () => {
    const { platform, principal, store } = await withPerson();
    const english = await platform.elements.create(await principal("admin"), { structure: "PERSON", name: "PERSON_X", values: { pe_nick: "x" } });
    expect(english.title).toBe(`untitle Person ${english.initid}`);
    expect((await store.elements.byId(english.id))?.title).toBe(`untitle Person ${english.initid}`);
    const french = await platform.elements.create(await principal("alice"), { structure: "PERSON", values: {} });
    expect(french.title).toBe(`Personne sans titre ${french.initid}`);
  });

  it("recomputes the title on a change, and keeps the previous one when every title field is emptied", async () => {
    const { platform, principal } = await withPerson();
    const admin = await principal("admin");
    const ada = await platform.elements.create(admin, { structure: "PERSON", values: { pe_first: "Ada", pe_last: "Lovelace" } });
    expect(ada.title).toBe("Ada Lovelace");
    expect((await platform.elements.update(admin, String(ada.initid), { values: { pe_first: "Augusta" } })).revision.title).toBe("Augusta Lovelace");
    expect((await platform.elements.update(admin, String(ada.initid), { values: { pe_first: "", pe_last: "" } })).revision.title).toBe("Augusta Lovelace");
  });
});

describe("title fields in a bundle", () => {
  const check = (bundle: unknown) => checkBundle(bundle, { store: createMemoryStore(), readFile: folder(FILES) });

  it("accepts titleFields naming fields of the structure", async () => {
    const bundle = baseBundle();
    const note = bundle.structures[1];
    delete note.titleField;
    note.titleFields = ["no_title", "no_category", "no_link_url"];
    expect((await check(bundle)).problems).toEqual([]);
  });

  it("refuses an unknown field, an array, a file, an image, and both keys at once, at their paths", async () => {
    const bundle = baseBundle();
    const note = bundle.structures[1];
    note.titleFields = ["no_nope", "no_links", "no_files", "no_link_img"];
    expect((await check(bundle)).problems).toEqual([
      { path: "$.structures[1].titleFields", message: "give titleField or titleFields, not both" },
      { path: "$.structures[1].titleFields[0]", message: 'structure "NOTE" has no field "no_nope"' },
      { path: "$.structures[1].titleFields[1]", message: "the title field cannot be an array" },
      { path: "$.structures[1].titleFields[2]", message: "a field of type file cannot make a title" },
      { path: "$.structures[1].titleFields[3]", message: "a field of type image cannot make a title" },
    ]);
  });
});
