import { describe, expect, it } from "vitest";
import {
  compareKeys,
  enumerateData,
  enumerateIndex,
  foldText,
  importBundle,
  isLineageError,
  LineageError,
  lookupEnumItems,
  parseEnumerateQuery,
  type Enumerate,
  type EnumerateParameters,
} from "./internals.ts";
import { baseBundle, FILES, folder, testPlatform } from "../src/testing/bundle-helpers.ts";
import { seededPlatform } from "../src/testing/seeded-platform.ts";

const PLACES: Enumerate = {
  name: "PLACES",
  items: [
    { key: "school", label: { en: "School", fr: "École" } },
    { key: "ae", label: { en: "United Arab Emirates", fr: "Émirats arabes unis" } },
    { key: "es", label: { en: "Spain", fr: "Espagne" } },
    { key: "de", label: { en: "Germany", fr: "Allemagne" } },
    { key: "zw", label: { en: "Zimbabwe", fr: "Zimbabwe" } },
    { key: "", label: "Nothing" },
    { key: " ", label: "Blank" },
    { key: "a.b", label: "Dotted (a.b)" },
    { key: "a.b.c", label: "Child of dotted", parentKey: "a.b" },
    { key: "ecole.paris", label: { en: "Paris school", fr: "École de Paris" }, parentKey: "school" },
    { key: "ecole.paris.5", label: "Cinquième", parentKey: "ecole.paris" },
  ],
};

const params = (overrides: Partial<EnumerateParameters> = {}): EnumerateParameters => ({ operator: "contains", keyword: "", orderBy: "none", ...overrides });
const keys = (enumerate: Enumerate, overrides: Partial<EnumerateParameters>, locale = "en") =>
  lookupEnumItems(enumerate, params(overrides), locale).map((item) => item.key);

const thrown = (fn: () => unknown): LineageError => {
  try {
    fn();
  } catch (error) {
    if (error instanceof LineageError) return error;
    throw error;
  }
  throw new Error("no error thrown");
};

const rejected = async (fn: () => Promise<unknown>): Promise<LineageError> => {
  try {
    await fn();
  } catch (error) {
    if (error instanceof LineageError) return error;
    throw error;
  }
  throw new Error("no error thrown");
};

describe("the query variables of the Enumerates routes", () => {
  it("default to contains, no keyword, definition order; empty values mean the default", () => {
    expect(parseEnumerateQuery()).toEqual({ operator: "contains", keyword: "", orderBy: "none" });
    expect(parseEnumerateQuery({ operator: "", orderBy: "", keyword: "" })).toEqual({ operator: "contains", keyword: "", orderBy: "none" });
    expect(parseEnumerateQuery({ operator: "startswith", orderBy: "label", keyword: "Ec" })).toEqual({ operator: "startswith", keyword: "Ec", orderBy: "label" });
  });

  it("refuses other operators (CRUD0402) and orders (CRUD0403), case-sensitively, listing the allowed values", () => {
    const operator = thrown(() => parseEnumerateQuery({ operator: "StartsWith" }));
    expect([operator.code, operator.status, operator.message]).toEqual([
      "CRUD0402", 400, 'Filter operateur "StartsWith" not available. Availables are "startswith, contains"',
    ]);
    const order = thrown(() => parseEnumerateQuery({ orderBy: "title" }));
    expect([order.code, order.status, order.message]).toEqual([
      "CRUD0403", 400, 'sortBy operateur "title" not available. Availables are "none, key, label"',
    ]);
  });
});

describe("items of an enumerate", () => {
  it("carry key, translated label, original (en) label, parent key and path; children a long label", () => {
    const views = lookupEnumItems(PLACES, params(), "fr");
    expect(views[0]).toEqual({ key: "school", label: "École", originalLabel: "School", parentkey: null, path: "school" });
    expect(views.find((v) => v.key === "a.b.c")).toEqual({
      key: "a.b.c", label: "Child of dotted", originalLabel: "Child of dotted", parentkey: "a.b", path: "a\\.b.a\\.b\\.c", longLabel: "Dotted (a.b)/Child of dotted",
    });
    expect(views.find((v) => v.key === "ecole.paris.5")).toMatchObject({
      parentkey: "ecole.paris", path: "school.ecole\\.paris.ecole\\.paris\\.5", longLabel: "École/École de Paris/Cinquième",
    });
  });

  it("skip the keys '' and ' ', as the original does", () => {
    expect(keys(PLACES, {})).toEqual(["school", "ae", "es", "de", "zw", "a.b", "a.b.c", "ecole.paris", "ecole.paris.5"]);
  });

  it("list a key given twice once, as its first item", () => {
    const twice: Enumerate = { name: "T", items: [{ key: "a", label: "First" }, { key: "b", label: "B" }, { key: "a", label: "Second" }] };
    expect(lookupEnumItems(twice, params(), "en").map((v) => [v.key, v.label])).toEqual([["a", "First"], ["b", "B"]]);
    expect(keys(twice, { keyword: "second" })).toEqual([]);
  });

  it("survive parent cycles and unknown parents", () => {
    const broken: Enumerate = { name: "BROKEN", items: [
      { key: "a", label: "A", parentKey: "b" }, { key: "b", label: "B", parentKey: "a" }, { key: "c", label: "C", parentKey: "nope" },
    ] };
    const [a, , c] = lookupEnumItems(broken, params(), "en");
    expect(a).toMatchObject({ path: "b.a", longLabel: "B/A" });
    expect(c).toEqual({ key: "c", label: "C", originalLabel: "C", parentkey: "nope", path: "c" });
  });
});

describe("filtering", () => {
  it("looks in the label of the reader's locale, ignoring case and accents, contains by default", () => {
    expect(keys(PLACES, { keyword: "ecole" }, "fr")).toEqual(["school", "ecole.paris"]);
    expect(keys(PLACES, { keyword: "ÉCOLE" }, "fr")).toEqual(["school", "ecole.paris"]);
    expect(keys(PLACES, { keyword: "ecole" }, "en")).toEqual([]);
    expect(keys(PLACES, { keyword: "SCHOOL" }, "en")).toEqual(["school", "ecole.paris"]);
    expect(keys(PLACES, { keyword: "cinquieme" }, "en")).toEqual(["ecole.paris.5"]);
  });

  it("startswith anchors at the start of the label", () => {
    expect(keys(PLACES, { keyword: "e", operator: "startswith" }, "fr")).toEqual(["school", "ae", "es", "ecole.paris"]);
    expect(keys(PLACES, { keyword: "paris", operator: "startswith" }, "fr")).toEqual([]);
    expect(keys(PLACES, { keyword: "paris", operator: "contains" }, "fr")).toEqual(["ecole.paris"]);
  });

  it("takes the keyword literally (no pattern)", () => {
    expect(keys(PLACES, { keyword: "(a.b)" })).toEqual(["a.b"]);
    expect(keys(PLACES, { keyword: ".*" })).toEqual([]);
  });

  it("answers each item once, in definition order, wherever the keyword falls in its label", () => {
    const words: Enumerate = { name: "W", items: ["banana", "ban", "urban", "nab", "a", ""].map((key) => ({ key: key || "empty", label: key })) };
    expect(keys(words, { keyword: "an" })).toEqual(["banana", "ban", "urban"]);
    expect(keys(words, { keyword: "a" })).toEqual(["banana", "ban", "urban", "nab", "a"]);
    expect(keys(words, { keyword: "a", operator: "startswith" })).toEqual(["a"]);
    expect(keys(words, { keyword: "b", operator: "startswith" })).toEqual(["banana", "ban"]);
    expect(keys(words, { keyword: "n", operator: "startswith", orderBy: "key" })).toEqual(["nab"]);
    expect(keys(words, { keyword: "bananas" })).toEqual([]);
    expect(keys(words, { keyword: "an\u0000b" })).toEqual([]);
    expect(keys(words, { keyword: "\u0301" })).toEqual(["banana", "ban", "urban", "nab", "a", "empty"]);
    expect(keys({ name: "EMPTY", items: [] }, { keyword: "a" })).toEqual([]);
  });

  it("folds case, accents and compatibility forms", () => {
    expect(foldText("École ÉMIRATS ﬁn")).toBe("ecole emirats fin");
  });
});

describe("ordering", () => {
  it("none keeps the definition order", () => {
    expect(keys(PLACES, { keyword: "e", orderBy: "none" }, "fr").slice(0, 3)).toEqual(["school", "ae", "es"]);
  });

  it("label uses the collator of the locale: accents do not push an item to the end", () => {
    const sorted = lookupEnumItems(PLACES, params({ orderBy: "label" }), "fr").map((v) => v.label);
    expect(sorted).toEqual([
      "Allemagne", "Child of dotted", "Cinquième", "Dotted (a.b)", "École", "École de Paris", "Émirats arabes unis", "Espagne", "Zimbabwe",
    ]);
    expect(keys(PLACES, { orderBy: "label", keyword: "e", operator: "startswith" }, "fr")).toEqual(["school", "ecole.paris", "ae", "es"]);
  });

  it("key is natural: digits compare as numbers, the rest by code point", () => {
    const numbers: Enumerate = { name: "N", items: ["10", "9", "item10", "item2", "B", "a", "010", "1"].map((key) => ({ key, label: key })) };
    expect(keys(numbers, { orderBy: "key" })).toEqual(["1", "9", "010", "10", "B", "a", "item2", "item10"]);
    expect(compareKeys("2", "10")).toBeLessThan(0);
    expect(compareKeys("a10b", "a9c")).toBeGreaterThan(0);
  });

  it("falls back to the default collator for a locale Intl does not know", () => {
    expect(keys(PLACES, { orderBy: "label", keyword: "e", operator: "startswith" }, "fr_FR")).toEqual(["school", "ecole.paris", "ae", "es"]);
    expect(() => lookupEnumItems(PLACES, params({ orderBy: "label" }), "!!")).not.toThrow();
  });
});

describe("the data of a route", () => {
  it("has the last item of the definition at top level (as the original), uri, requestParameters and the items", () => {
    const data = enumerateData(PLACES, params({ keyword: "zim" }), "fr", "/api/v2/enumerates/PLACES/");
    expect(data).toEqual({
      key: "ecole.paris.5", label: "Cinquième", originalLabel: "Cinquième", parentkey: "ecole.paris",
      path: "school.ecole\\.paris.ecole\\.paris\\.5", longLabel: "École/École de Paris/Cinquième",
      uri: "/api/v2/enumerates/PLACES/",
      requestParameters: { operator: "contains", keyword: "zim", orderBy: "none" },
      enumItems: [{ key: "zw", label: "Zimbabwe", originalLabel: "Zimbabwe", parentkey: null, path: "zw" }],
    });
    expect(enumerateData({ name: "EMPTY", items: [] }, params(), "en", "/u")).toEqual({ uri: "/u", requestParameters: params(), enumItems: [] });
  });

  it("computes the index once per enumerate object and locale", () => {
    expect(enumerateIndex(PLACES, "fr")).toBe(enumerateIndex(PLACES, "fr"));
    expect(enumerateIndex(PLACES, "en")).not.toBe(enumerateIndex(PLACES, "fr"));
    const copy = structuredClone(PLACES);
    expect(enumerateIndex(copy, "fr")).not.toBe(enumerateIndex(PLACES, "fr"));
  });
});

describe("readEnumerate on the platform", () => {
  it("serves the enumerate of a field, in the reader's language", async () => {
    const { platform, principal } = await seededPlatform();
    const data = await platform.enumerates.read(await principal("alice"), { family: "ARTICLE", field: "ar_category" }, { keyword: "cuisine" });
    expect(data.uri).toBe("/api/v2/smart-structures/ARTICLE/enumerates/ar_category");
    expect(data.enumItems).toEqual([{ key: "food", label: "Cuisine", originalLabel: "Food", parentkey: null, path: "food" }]);
    expect(data).toMatchObject({ key: "food", label: "Cuisine", requestParameters: { operator: "contains", keyword: "cuisine", orderBy: "none" } });
    const all = await platform.enumerates.read(await principal("admin"), { family: "ARTICLE", field: "AR_TAGS" });
    expect(all.enumItems.map((item) => [item.key, item.path, item.longLabel])).toEqual([
      ["tech", "tech", undefined], ["ai", "tech.ai", "Technology/Artificial intelligence"], ["food", "food", undefined],
    ]);
  });

  it("serves an enumerate by reference", async () => {
    const { platform, principal } = await seededPlatform();
    const data = await platform.enumerates.read(await principal("bob"), { enumerate: "CATEGORIES" }, { orderBy: "label" });
    expect(data.uri).toBe("/api/v2/enumerates/CATEGORIES/");
    expect(data.enumItems.map((item) => item.label)).toEqual(["Artificial intelligence", "Food", "Technology"]);
  });

  it("answers the spec's errors, checking the structure, then the query, then the field", async () => {
    const { platform, principal } = await seededPlatform();
    const admin = await principal("admin");
    const family = (name: string, field: string, query = {}) => rejected(() => platform.enumerates.read(admin, { family: name, field }, query));
    const unknown = await family("NOPE", "ar_category", { operator: "bad" });
    expect([unknown.code, unknown.status, unknown.reason, unknown.message]).toEqual(["CRUD0200", 404, "Family not found", 'Document "NOPE" not found']);
    expect((await family("ARTICLE", "nope", { operator: "bad" })).code).toBe("CRUD0402");
    const field = await family("ARTICLE", "nope");
    expect([field.code, field.status, field.message]).toEqual(["CRUD0400", 404, 'Enum "nope" not exists in family "ARTICLE"']);
    const secret = await family("ARTICLE", "ar_secret");
    expect([secret.code, secret.message]).toEqual(["CRUD0400", 'Enum "ar_secret" not exists in family "ARTICLE"']);
    const text = await family("ARTICLE", "ar_title");
    expect([text.code, text.status, text.message]).toEqual(["CRUD0401", 403, 'Attribute "ar_title" is not an enum (type "text") in family "ARTICLE"']);
    const byRef = await rejected(() => platform.enumerates.read(admin, { enumerate: "NOPE" }));
    expect([byRef.code, byRef.status, byRef.message]).toEqual(["ENUM0404", 404, 'Enumerate "NOPE" not found']);
    expect((await rejected(() => platform.enumerates.read(admin, { enumerate: "NOPE" }, { orderBy: "x" }))).code).toBe("CRUD0403");
  });

  it("serves an enum field whose enumerate is missing as empty", async () => {
    const { platform, store, principal } = await seededPlatform();
    await store.catalog.saveStructure({ name: "ORPHAN", fields: [{ id: "or_kind", type: "enum", enum: "GONE" }] });
    const data = await platform.enumerates.read(await principal("admin"), { family: "ORPHAN", field: "or_kind" });
    expect(data).toEqual({ uri: "/api/v2/smart-structures/ORPHAN/enumerates/or_kind", requestParameters: params(), enumItems: [] });
  });
});

describe("values of enum fields", () => {
  it("show the path of a child in three levels, and flag a key no longer in the enumerate", async () => {
    const { platform, store, principal } = await seededPlatform();
    await store.catalog.saveEnumerate({ name: "CATEGORIES", items: [...(await store.catalog.enumerate("CATEGORIES"))!.items, { key: "llm", label: { en: "Language models", fr: "Modèles de langue" }, parentKey: "ai" }] });
    const admin = await principal("admin");
    await platform.elements.update(admin, "ART_HELLO", { values: { ar_category: "llm" } });
    const { data } = await platform.elements.read(await principal("alice"), "ART_HELLO");
    expect(data.document.attributes?.ar_category).toEqual({
      value: "llm", displayValue: "Technologie/Artificial intelligence/Modèles de langue", exists: true,
    });
    await store.catalog.saveEnumerate({ name: "CATEGORIES", items: (await store.catalog.enumerate("CATEGORIES"))!.items.filter((item) => item.key !== "llm") });
    const after = await platform.elements.read(await principal("alice"), "ART_HELLO");
    expect(after.data.document.attributes?.ar_category).toEqual({ value: "llm", displayValue: "llm", exists: false });
  });

  it("refuse, in a bundle import, a value that is no key of the enumerate, naming the path and the value", async () => {
    const bundle = baseBundle();
    bundle.elements[1].values.no_tags = ["tech", "nope"];
    bundle.elements[1].values.no_links[0].no_link_tags = ["zz"];
    const platform = testPlatform();
    const error = await platform.bundles.import(bundle, { readFile: folder(FILES) }).catch((e: unknown) => e);
    expect(isLineageError(error) && [error.code, error.status]).toEqual(["BUNDLE0001", 400]);
    const problems = isLineageError(error) ? (error.data as { problems: unknown[] }).problems : [];
    expect(problems).toEqual([
      { path: "$.elements[1].values.no_tags", message: 'Smart field "no_tags": "nope" is not a key of enumerate "CATEGORIES"' },
      { path: "$.elements[1].values.no_links[0].no_link_tags", message: 'Smart field "no_link_tags": "zz" is not a key of enumerate "CATEGORIES"' },
    ]);
    expect(await platform.store.catalog.enumerate("CATEGORIES")).toBeUndefined();
  });
});
