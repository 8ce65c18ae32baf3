import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seededPlatform } from "@lineage/core/testing";
import { startLiveServer, type LiveServer } from "../src/live-server.ts";

// The Enumerates routes (api-v2.md, Enumerates; original-notes.md 2.9) over a real server on SQLite.

let live: LiveServer<Awaited<ReturnType<typeof seededPlatform>>>;
let api: LiveServer<Awaited<ReturnType<typeof seededPlatform>>>["api"];
let seed: Awaited<ReturnType<typeof seededPlatform>>;

const CITIES = [
  { key: "paris", label: { en: "Paris", fr: "Paris" } },
  { key: "ecole", label: { en: "School", fr: "École" } },
  { key: "10", label: "Ten" },
  { key: "9", label: "Nine" },
  { key: "ae", label: { en: "Emirates", fr: "Émirats" } },
  { key: "es", label: { en: "Spain", fr: "Espagne" } },
  { key: "ecole.5", label: "Cinquième", parentKey: "ecole" },
];

beforeAll(async () => {
  live = await startLiveServer(seededPlatform);
  ({ api, seed } = live);
  await seed.store.catalog.saveEnumerate({ name: "CITIES", items: CITIES });
});

afterAll(() => live.close());

const ALICE: [string, string] = ["alice", "alice-pw"];
const errorOf = (response: { status: number; json: any }) => [response.status, response.json?.messages?.[0]?.code, response.json?.messages?.[0]?.contentText];
const keysOf = (response: { json: any }) => response.json.data.enumItems.map((item: { key: string }) => item.key);

describe("GET /api/v2/smart-structures/<family>/enumerates/<field>", () => {
  it("serves the items of the field's enumerate with the envelope, the hierarchy and the echoed parameters", async () => {
    const response = await api.call("GET", "/api/v2/smart-structures/ARTICLE/enumerates/ar_category");
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("private, no-cache, must-revalidate");
    expect(response.json).toEqual({
      success: true,
      messages: [],
      data: {
        key: "food", label: "Food", originalLabel: "Food", parentkey: null, path: "food",
        uri: "/api/v2/smart-structures/ARTICLE/enumerates/ar_category",
        requestParameters: { operator: "contains", keyword: "", orderBy: "none" },
        enumItems: [
          { key: "tech", label: "Technology", originalLabel: "Technology", parentkey: null, path: "tech" },
          { key: "ai", label: "Artificial intelligence", originalLabel: "Artificial intelligence", parentkey: "tech", path: "tech.ai", longLabel: "Technology/Artificial intelligence" },
          { key: "food", label: "Food", originalLabel: "Food", parentkey: null, path: "food" },
        ],
      },
    });
  });

  it("translates labels to the user's locale, keeps the original label, and filters on the translation", async () => {
    const response = await api.call("GET", "/api/v2/smart-structures/ARTICLE/enumerates/ar_tags?keyword=CUISINE", { as: ALICE });
    expect(response.json.data.enumItems).toEqual([{ key: "food", label: "Cuisine", originalLabel: "Food", parentkey: null, path: "food" }]);
    expect((await api.call("GET", "/api/v2/smart-structures/ARTICLE/enumerates/ar_tags?keyword=food", { as: ALICE })).json.data.enumItems).toEqual([]);
  });

  it("accepts the .json suffix, a trailing slash and a field id in another case", async () => {
    for (const path of ["ar_category.json", "ar_category/", "AR_CATEGORY"]) {
      const response = await api.call("GET", `/api/v2/smart-structures/ARTICLE/enumerates/${path}`, { headers: { accept: "application/json" } });
      expect([response.status, keysOf(response)]).toEqual([200, ["tech", "ai", "food"]]);
    }
  });

  it("answers CRUD0200 for an unknown structure, CRUD0400 for an unknown or invisible field, CRUD0401 for a field that is no enum", async () => {
    expect(errorOf(await api.call("GET", "/api/v2/smart-structures/NOPE/enumerates/ar_category"))).toEqual([404, "CRUD0200", 'Document "NOPE" not found']);
    expect(errorOf(await api.call("GET", "/api/v2/smart-structures/ARTICLE/enumerates/ar_nope"))).toEqual([404, "CRUD0400", 'Enum "ar_nope" not exists in family "ARTICLE"']);
    expect(errorOf(await api.call("GET", "/api/v2/smart-structures/ARTICLE/enumerates/ar_secret"))).toEqual([404, "CRUD0400", 'Enum "ar_secret" not exists in family "ARTICLE"']);
    expect(errorOf(await api.call("GET", "/api/v2/smart-structures/ARTICLE/enumerates/ar_title"))).toEqual([403, "CRUD0401", 'Attribute "ar_title" is not an enum (type "text") in family "ARTICLE"']);
    expect(errorOf(await api.call("GET", "/api/v2/smart-structures/ARTICLE/enumerates/ar_links"))).toEqual([403, "CRUD0401", 'Attribute "ar_links" is not an enum (type "array") in family "ARTICLE"']);
  });

  it("validates the query after the structure and before the field", async () => {
    expect(errorOf(await api.call("GET", "/api/v2/smart-structures/NOPE/enumerates/ar_nope?operator=bad"))[1]).toBe("CRUD0200");
    expect(errorOf(await api.call("GET", "/api/v2/smart-structures/ARTICLE/enumerates/ar_nope?operator=bad"))[1]).toBe("CRUD0402");
  });
});

describe("GET /api/v2/enumerates/<enum>/", () => {
  it("serves an enumerate by its reference, with or without the trailing slash or .json", async () => {
    for (const path of ["/api/v2/enumerates/CITIES/", "/api/v2/enumerates/CITIES", "/api/v2/enumerates/CITIES.json"]) {
      const response = await api.call("GET", path);
      expect([response.status, keysOf(response)]).toEqual([200, ["paris", "ecole", "10", "9", "ae", "es", "ecole.5"]]);
      expect(response.json.data).toMatchObject({
        key: "ecole.5", label: "Cinquième", parentkey: "ecole", path: "ecole.ecole\\.5", longLabel: "School/Cinquième", uri: "/api/v2/enumerates/CITIES/",
      });
    }
  });

  it("filters with keyword and operator: contains by default, ignoring case and accents", async () => {
    const contains = await api.call("GET", "/api/v2/enumerates/CITIES/?keyword=ECOLE", { as: ALICE });
    expect(keysOf(contains)).toEqual(["ecole"]);
    expect(contains.json.data.requestParameters).toEqual({ operator: "contains", keyword: "ECOLE", orderBy: "none" });
    expect(keysOf(await api.call("GET", `/api/v2/enumerates/CITIES/?keyword=${encodeURIComponent("é")}`, { as: ALICE }))).toEqual(["ecole", "10", "9", "ae", "es", "ecole.5"]);
    expect(keysOf(await api.call("GET", "/api/v2/enumerates/CITIES/?keyword=e&operator=startswith", { as: ALICE }))).toEqual(["ecole", "ae", "es"]);
    expect(keysOf(await api.call("GET", "/api/v2/enumerates/CITIES/?keyword=ten&operator=contains"))).toEqual(["10"]);
    expect(keysOf(await api.call("GET", "/api/v2/enumerates/CITIES/?keyword=zz&operator="))).toEqual([]);
    expect(keysOf(await api.call("GET", "/api/v2/enumerates/CITIES/?keyword=ir&operator=", { as: ALICE }))).toEqual(["ae"]);
    const empty = await api.call("GET", "/api/v2/enumerates/CITIES/?keyword=&operator=&orderBy=");
    expect([keysOf(empty).length, empty.json.data.requestParameters]).toEqual([7, { operator: "contains", keyword: "", orderBy: "none" }]);
  });

  it("orders by none, key (digits as numbers) and label (the locale's collation)", async () => {
    expect(keysOf(await api.call("GET", "/api/v2/enumerates/CITIES/?orderBy=none"))).toEqual(["paris", "ecole", "10", "9", "ae", "es", "ecole.5"]);
    expect(keysOf(await api.call("GET", "/api/v2/enumerates/CITIES/?orderBy=key"))).toEqual(["9", "10", "ae", "ecole", "ecole.5", "es", "paris"]);
    const byLabel = await api.call("GET", "/api/v2/enumerates/CITIES/?orderBy=label", { as: ALICE });
    expect(byLabel.json.data.enumItems.map((item: { label: string }) => item.label)).toEqual(["Cinquième", "École", "Émirats", "Espagne", "Nine", "Paris", "Ten"]);
    const filtered = await api.call("GET", "/api/v2/enumerates/CITIES/?keyword=E&operator=startswith&orderBy=label", { as: ALICE });
    expect(keysOf(filtered)).toEqual(["ecole", "ae", "es"]);
    expect(filtered.json.data.requestParameters).toEqual({ operator: "startswith", keyword: "E", orderBy: "label" });
  });

  it("answers 400 CRUD0402 / CRUD0403 with the allowed values, and 404 ENUM0404 for an unknown enumerate", async () => {
    expect(errorOf(await api.call("GET", "/api/v2/enumerates/CITIES/?operator=like"))).toEqual([400, "CRUD0402", 'Filter operateur "like" not available. Availables are "startswith, contains"']);
    expect(errorOf(await api.call("GET", "/api/v2/enumerates/CITIES/?operator=Contains"))[1]).toBe("CRUD0402");
    expect(errorOf(await api.call("GET", "/api/v2/enumerates/CITIES/?orderBy=title"))).toEqual([400, "CRUD0403", 'sortBy operateur "title" not available. Availables are "none, key, label"']);
    expect(errorOf(await api.call("GET", "/api/v2/smart-structures/ARTICLE/enumerates/ar_category?orderBy=LABEL"))[1]).toBe("CRUD0403");
    expect(errorOf(await api.call("GET", "/api/v2/enumerates/NOPE/"))).toEqual([404, "ENUM0404", 'Enumerate "NOPE" not found']);
  });
});

describe("both routes", () => {
  it("answer 501 for the other methods, 401 without credentials, 400 for a format they cannot serve", async () => {
    for (const path of ["/api/v2/enumerates/CITIES/", "/api/v2/smart-structures/ARTICLE/enumerates/ar_category"]) {
      for (const method of ["POST", "PUT", "DELETE"]) {
        const response = await api.call(method, path);
        expect([response.status, response.json?.messages?.[0]?.code]).toEqual([501, "CRUD0103"]);
      }
      expect((await api.call("GET", path, { as: null })).status).toBe(401);
      expect((await api.call("GET", path, { headers: { accept: "text/csv" } })).status).toBe(400);
    }
    expect((await api.call("GET", "/api/v2/enumerates/CITIES.xml")).status).toBe(400);
  });
});

describe("enum values of elements", () => {
  it("PUT refuses a value that is no key of the field's enumerate, naming the field and the value", async () => {
    const before = (await api.call("GET", "/api/v2/smart-elements/ART_HELLO")).json.data;
    const single = await api.call("PUT", "/api/v2/smart-elements/ART_HELLO", { json: { document: { attributes: { ar_category: { value: "nope" } } } } });
    expect(errorOf(single)).toEqual([400, "VALUE0001", 'Smart field "ar_category": "nope" is not a key of enumerate "CATEGORIES"']);
    const multiple = await api.call("PUT", "/api/v2/smart-elements/ART_HELLO", { json: { document: { attributes: { ar_tags: [{ value: "tech" }, { value: "Tech" }] } } } });
    expect(errorOf(multiple)).toEqual([400, "VALUE0001", 'Smart field "ar_tags": "Tech" is not a key of enumerate "CATEGORIES"']);
    expect((await api.call("GET", "/api/v2/smart-elements/ART_HELLO")).json.data).toEqual(before);
  });

  it("show a child with its parents' path, as the original's label does", async () => {
    const put = await api.call("PUT", "/api/v2/smart-elements/ART_ZEBRA", { json: { document: { attributes: { ar_category: { value: "ai" } } } } });
    expect(put.json.data.document.attributes.ar_category).toEqual({ value: "ai", displayValue: "Technology/Artificial intelligence", exists: true });
    const read = await api.call("GET", "/api/v2/smart-elements/ART_ZEBRA?fields=document.attributes.ar_category", { as: ALICE });
    expect(read.json.data.document.attributes.ar_category).toEqual({ value: "ai", displayValue: "Technologie/Artificial intelligence", exists: true });
  });
});
