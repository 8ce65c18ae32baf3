import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { checkBundle } from "../src/bundle/bundle-problems.ts";
import { issueProblems } from "../src/bundle/problems/problem-report.ts";
import { BundleSchema } from "../src/bundle/bundle.schema.ts";
import { jsonPath } from "../src/bundle/bundle-values.ts";
import { createMemoryStore } from "../src/testing/index.ts";
import { baseBundle, FILES, folder, type RawBundle } from "../src/testing/bundle-helpers.ts";
import example from "./fixtures/bundle-md-example.json" with { type: "json" };
import dashboards from "./fixtures/bundle-md-dashboards.json" with { type: "json" };

const schemaProblems = (bundle: unknown) => {
  const result = v.safeParse(BundleSchema, bundle);
  return result.success ? [] : issueProblems(result.issues);
};

describe("BundleSchema", () => {
  it("accepts the example of bundle.md verbatim", () => {
    expect(schemaProblems(example)).toEqual([]);
    expect(v.safeParse(BundleSchema, example).success).toBe(true);
  });

  it("accepts the dashboards of bundle.md, alone and with the example", () => {
    expect(schemaProblems(dashboards)).toEqual([]);
    expect(schemaProblems({ ...example, ...dashboards })).toEqual([]);
  });

  it("accepts an empty bundle and the test bundle", () => {
    expect(schemaProblems({})).toEqual([]);
    expect(schemaProblems(baseBundle())).toEqual([]);
  });

  it("refuses what is not an object", async () => {
    const store = createMemoryStore();
    const readFile = folder({});
    expect(schemaProblems("bundle")).toEqual([{ path: "$", message: expect.stringContaining("expected Object") }]);
    expect((await checkBundle([], { store, readFile })).problems).toEqual([{ path: "$", message: "a bundle is a JSON object" }]);
    expect((await checkBundle(null, { store, readFile })).problems).toEqual([{ path: "$", message: expect.stringContaining("expected Object") }]);
  });

  it("reports every shape problem with its JSON path", () => {
    const bundle: RawBundle = baseBundle();
    bundle.extra = true;
    bundle.accounts.users[0].rights = ["GET", "PATCH"];
    bundle.accounts.users[1].login = "alice smith";
    bundle.accounts.users[2].password = "";
    bundle.enumerates["bad-name"] = [];
    bundle.enumerates.CATEGORIES[0].label = 12;
    bundle.profiles[0].grants.read = ["role:editor"];
    delete bundle.lifecycles[0].firstState;
    bundle.lifecycles[0].transitions[0].hooks.m9 = "x";
    bundle.structures[0].colour = "red";
    bundle.structures[1].title = { english: "Note" };
    bundle.structures[1].fields[2].type = "integer";
    bundle.structures[1].fields[3].visibility = "X";
    bundle.structures[1].fields[14].fields[0].id = "1st";
    bundle.elements[0].values = "Ann";
    bundle.elements[1].name = "123";
    bundle.searchDomains[0].configs[0].fields[0].weight = "Z";
    bundle.dashboards[0].uuid = "not-a-uuid";

    const problems = schemaProblems(bundle);
    expect(Object.fromEntries(problems.map((p) => [p.path, p.message]))).toEqual({
      "$.extra": 'unknown key "extra"',
      "$.accounts.users[0].rights[1]": "a right is one of GET, PUT, POST, DELETE",
      "$.accounts.users[1].login": expect.stringContaining("letters, digits"),
      "$.accounts.users[2].password": "a password cannot be empty",
      '$.enumerates["bad-name"]': expect.stringMatching(/^invalid name "bad-name": Enumerate name: a letter/),
      "$.enumerates.CATEGORIES[0].label": "a label is a string or a map from locale to string",
      "$.profiles[0].grants.read": 'unknown key "read"',
      "$.lifecycles[0].firstState": 'missing key "firstState"',
      "$.lifecycles[0].transitions[0].hooks.m9": 'unknown key "m9"',
      "$.structures[0].colour": 'unknown key "colour"',
      "$.structures[1].title.english": 'invalid name "english": a locale such as en, fr or pt-BR',
      "$.structures[1].fields[2].type": expect.stringContaining("a field type is one of text, longtext"),
      "$.structures[1].fields[3].visibility": "visibility is W, R, H or I",
      "$.structures[1].fields[14].fields[0].id": expect.stringContaining("a letter, then"),
      "$.elements[0].values": expect.stringContaining("expected Object"),
      "$.elements[1].name": expect.stringContaining("a logical name"),
      "$.searchDomains[0].configs[0].fields[0].weight": "a weight is A, B, C or D",
      "$.dashboards[0].uuid": "a uuid is expected",
    });
    expect(problems).toHaveLength(18);
  });

  it("checks no further what has a wrong shape, so one mistake is reported once", async () => {
    const bundle: RawBundle = baseBundle();
    bundle.structures[1].fields[0].type = "title"; // NOTE is invalid: its elements are not typed
    bundle.accounts.roles[0].colour = "blue"; // editor is invalid, yet still a known role
    bundle.lifecycles[0].states = "draft,done";
    const { problems, bundle: checked } = await checkBundle(bundle, { store: createMemoryStore(), readFile: folder(FILES) });
    expect(checked).toBeUndefined();
    expect(problems.map((p) => p.path)).toEqual([
      "$.accounts.roles[0].colour",
      "$.lifecycles[0].states",
      "$.structures[1].fields[0].type",
    ]);
  });
});

describe("jsonPath", () => {
  it("writes identifiers with dots, indexes and odd keys in brackets", () => {
    expect(jsonPath([])).toBe("$");
    expect(jsonPath(["structures", 0, "fields", 2, "type"])).toBe("$.structures[0].fields[2].type");
    expect(jsonPath(["enumerates", "my-enum", 1])).toBe('$.enumerates["my-enum"][1]');
  });
});
