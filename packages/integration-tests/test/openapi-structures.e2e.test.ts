import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAnswerChecker, type AnswerCheck, type ReceivedAnswer } from "../src/openapi-answers.ts";
import { bundleSeed, startLiveServer, type LiveServer } from "../src/live-server.ts";

// The served OpenAPI document types each structure's attributes as `lineage types` does (one schema per
// structure, Attributes.<NAME>): real answers validate against their structure's schema, and the same answer
// with a value of the wrong type, an enum key that is not one, or a field of another structure does not.

const BUNDLE = {
  accounts: { users: [{ login: "admin", password: "admin-pw", roles: ["admin"] }, { login: "jdoe", password: "jdoe-pw", displayName: "Jane Doe" }] },
  enumerates: { LEVELS: [{ key: "low", label: "Low" }, { key: "high-end", label: "High" }] },
  lifecycles: [{
    name: "WFL_CHILD", firstState: "open",
    states: [{ id: "open" }, { id: "closed" }],
    transitions: [{ id: "close", from: "open", to: "closed" }],
  }],
  structures: [
    {
      name: "BASE_RECORD", titleField: "b_text", fields: [
        { id: "b_text", type: "text", needed: true }, { id: "b_long", type: "longtext" }, { id: "b_html", type: "htmltext" },
        { id: "b_int", type: "int" }, { id: "b_double", type: "double" }, { id: "b_money", type: "money" },
        { id: "b_date", type: "date" }, { id: "b_timestamp", type: "timestamp" }, { id: "b_time", type: "time" },
        { id: "b_enum", type: "enum", enum: "LEVELS", needed: true }, { id: "b_enums", type: "enum", enum: "LEVELS", multiple: true },
        { id: "b_docid", type: "docid", structure: "BASE_RECORD" }, { id: "b_docids", type: "docid", multiple: true },
        { id: "b_account", type: "account" }, { id: "b_color", type: "color" }, { id: "b_password", type: "password" },
        { id: "b_file", type: "file" }, { id: "b_image", type: "image" }, { id: "b_texts", type: "text", multiple: true },
        { id: "b_readonly", type: "text", visibility: "R" }, { id: "b_hidden", type: "int", visibility: "H" }, { id: "b_secret", type: "text", visibility: "I" },
        { id: "b_rows", type: "array", fields: [
          { id: "b_row_text", type: "text" }, { id: "b_row_int", type: "int" }, { id: "b_row_levels", type: "enum", enum: "LEVELS", multiple: true },
        ] },
      ],
    },
    { name: "CHILD_RECORD", extends: "BASE_RECORD", lifecycle: "WFL_CHILD", fields: [{ id: "c_note", type: "text", needed: true }] },
    { name: "OTHER", titleField: "o_title", fields: [{ id: "o_title", type: "text" }] },
  ],
  elements: [
    {
      structure: "BASE_RECORD", name: "BASE_1", values: {
        b_text: "One", b_long: "Long", b_html: "<p>Hi</p>", b_int: 3, b_double: 2.5, b_money: 1234.5, b_date: "2026-03-04",
        b_timestamp: "2026-03-04T05:06:07", b_time: "09:30", b_enum: "low", b_enums: ["low", "high-end"], b_docids: [],
        b_account: "jdoe", b_color: "#FFAA00", b_password: "s3cret", b_texts: ["a", "b"], b_hidden: 7, b_secret: "no",
        b_rows: [{ b_row_text: "r1", b_row_int: 1, b_row_levels: ["low"] }, { b_row_text: "r2", b_row_levels: [] }],
      },
    },
    { structure: "CHILD_RECORD", name: "CHILD_1", values: { b_text: "Child", b_enum: "high-end", c_note: "A note", b_docid: "BASE_1", b_docids: ["BASE_1"] } },
    { structure: "OTHER", name: "OTHER_1", values: { o_title: "Other" } },
  ],
};

/** The answers the tests check, all asked first: checking compiles large schemas, which holds up the server of this process. */
const PATHS = [
  "/api/v2/smart-structures/BASE_RECORD/smart-elements/BASE_1",
  "/api/v2/smart-structures/BASE_RECORD/smart-elements/CHILD_1",
  "/api/v2/smart-elements/BASE_1?fields=document.properties.all,document.attributes",
  "/api/v2/smart-elements/?fields=document.properties.family,document.attributes&slice=ALL",
  "/api/v2/smart-structures/BASE_RECORD/smart-elements/?fields=document.attributes&slice=ALL",
];

let live: LiveServer<Awaited<ReturnType<ReturnType<typeof bundleSeed>>>>;
let check: (answer: ReceivedAnswer) => AnswerCheck;
let served: any;
const received = new Map<string, { answer: ReceivedAnswer; json: any }>();

beforeAll(async () => {
  live = await startLiveServer(bundleSeed(BUNDLE));
  for (const path of PATHS) {
    const response = await live.api.call("GET", path);
    expect(response.status, response.text).toBe(200);
    received.set(path, { answer: { method: "GET", url: path, status: response.status, contentType: "application/json", body: response.text }, json: response.json });
  }
  // The document as served by this store, read last and not checked itself (openapi.e2e.test.ts checks it).
  const document = await fetch(`${live.url}/api/v2/openapi.json`, { headers: { authorization: live.api.basic("admin", "admin-pw") } });
  expect(document.status).toBe(200);
  served = await document.json();
  check = createAnswerChecker(served);
});
afterAll(() => live?.close());

/** An answer the server gave, checked against the served document; the answer as received, to be altered. */
function answered(path: string): { answer: ReceivedAnswer; json: any; check: AnswerCheck } {
  const { answer, json } = received.get(path)!;
  return { answer, json, check: check(answer) };
}

/** The same answer with its JSON changed by `alter`: what the document says of it. */
function problemsIf(answer: ReceivedAnswer, json: any, alter: (json: any) => void): string[] {
  const changed = structuredClone(json);
  alter(changed);
  return check({ ...answer, body: JSON.stringify(changed) }).problems;
}

describe("one schema per structure in the served OpenAPI document", () => {
  it("types each field as lineage types does: values, lists, rows, enum keys, needed fields, inherited fields", () => {
    const schemas = served.components.schemas;
    const base = schemas["Attributes.BASE_RECORD"];
    expect(base.additionalProperties).toBe(false);
    expect(base.properties.b_text).toMatchObject({ properties: { value: { type: "string" } } });
    expect(base.properties.b_long).toMatchObject({ properties: { value: { type: ["string", "null"] } } });
    expect(base.properties.b_int).toMatchObject({ properties: { value: { type: ["number", "null"] } } });
    expect(base.properties.b_enum).toMatchObject({ properties: { value: { type: "string", enum: ["low", "high-end"] } } });
    expect(base.properties.b_enums).toMatchObject({ type: "array", items: { properties: { value: { enum: ["low", "high-end"] } } } });
    expect(base.properties.b_docid).toMatchObject({ properties: { value: { type: ["number", "null"] } } });
    expect(base.properties.b_password).toMatchObject({ properties: { value: { type: "null" } } });
    expect(base.properties.b_row_levels).toMatchObject({ type: "array", items: { type: "array", items: { properties: { value: { enum: ["low", "high-end"] } } } } });
    expect(base.properties.b_row_int).toMatchObject({ type: "array", items: { properties: { value: { type: ["number", "null"] } } } });
    // Invisible fields and arrays themselves are never answered.
    expect(Object.keys(base.properties)).not.toContain("b_secret");
    expect(Object.keys(base.properties)).not.toContain("b_rows");
    // Inherited fields, then the structure's own.
    expect(Object.keys(schemas["Attributes.CHILD_RECORD"].properties)).toEqual([...Object.keys(base.properties), "c_note"]);
    expect(schemas["Attributes.OTHER"].properties).toHaveProperty("o_title");
    // The element routes of each structure's collection.
    expect(served.paths).toHaveProperty(["/api/v2/smart-structures/BASE_RECORD/smart-elements/{docid}", "get"]);
    expect(served.paths).toHaveProperty(["/api/v2/smart-structures/OTHER/smart-elements", "get"]);
  });

  it("holds an element read in its structure's collection to its structure's schema", () => {
    const { answer, json, check: result } = answered("/api/v2/smart-structures/BASE_RECORD/smart-elements/BASE_1");
    expect(result).toEqual({ operation: "GET /api/v2/smart-structures/BASE_RECORD/smart-elements/{docid}", problems: [] });
    expect(json.data.document.attributes.b_int.value).toBe(3);
    expect(problemsIf(answer, json, (body) => (body.data.document.attributes.b_int.value = "3"))).toEqual(expect.arrayContaining([expect.stringMatching(/^\/data\/document\/attributes\/b_int\/value must be number,null/)]));
    expect(problemsIf(answer, json, (body) => (body.data.document.attributes.b_text.value = null))).toEqual(expect.arrayContaining([expect.stringMatching(/^\/data\/document\/attributes\/b_text\/value must be string/)]));
    expect(problemsIf(answer, json, (body) => (body.data.document.attributes.b_enum.value = "medium"))).toEqual(expect.arrayContaining([expect.stringMatching(/^\/data\/document\/attributes\/b_enum\/value must be equal to one of the allowed values/)]));
    expect(problemsIf(answer, json, (body) => (body.data.document.attributes.b_enums = { value: "low", displayValue: "Low" }))).toEqual(expect.arrayContaining([expect.stringMatching(/^\/data\/document\/attributes\/b_enums must be array/)]));
    expect(problemsIf(answer, json, (body) => (body.data.document.attributes.o_title = { value: "x", displayValue: "x" }))).toEqual(expect.arrayContaining([expect.stringMatching(/must NOT have additional properties.*o_title/)]));
    // Each problem is named under the structure's schema (an element of BASE_RECORD may also be of CHILD_RECORD, which extends it).
    expect(problemsIf(answer, json, (body) => (body.data.document.attributes.b_int.value = "3"))).toContainEqual(expect.stringMatching(/\(schema #\/components\/schemas\/Attributes\.BASE_RECORD\/properties\/b_int\//));
    // A structure's copy of the route refers to the route's own refusals.
    const refusal = JSON.stringify({ success: false, messages: [{ type: "error", contentText: "x", code: "ROUTES0104" }], data: null });
    expect(check({ ...answer, status: 404, body: refusal }).problems).toEqual([]);
    expect(check({ ...answer, status: 404 }).problems).not.toEqual([]);
    // The same answer is no element of OTHER.
    expect(check({ ...answer, url: "/api/v2/smart-structures/OTHER/smart-elements/BASE_1" }).problems).not.toEqual([]);
  });

  it("holds an element of a structure extending the collection's to its own structure's fields", () => {
    const { answer, json, check: result } = answered("/api/v2/smart-structures/BASE_RECORD/smart-elements/CHILD_1");
    expect(result.problems).toEqual([]);
    expect(json.data.document.attributes.c_note.value).toBe("A note");
    expect(problemsIf(answer, json, (body) => (body.data.document.attributes.c_note.value = 1))).not.toEqual([]);
  });

  it("holds an element that names its structure to its schema wherever it is answered", () => {
    const { answer, json, check: result } = answered("/api/v2/smart-elements/BASE_1?fields=document.properties.all,document.attributes");
    expect(result).toEqual({ operation: "GET /api/v2/smart-elements/{docid}", problems: [] });
    expect(json.data.document.properties.family.name).toBe("BASE_RECORD");
    expect(problemsIf(answer, json, (body) => (body.data.document.attributes.b_money.value = "1234.5"))).toEqual(
      expect.arrayContaining([expect.stringMatching(/^\/data\/document\/attributes\/b_money\/value must be number,null/)]),
    );
    const list = answered("/api/v2/smart-elements/?fields=document.properties.family,document.attributes&slice=ALL");
    expect(list.check.problems).toEqual([]);
    expect(list.json.data.documents.map((document: any) => document.properties.family.name)).toEqual(expect.arrayContaining(["BASE_RECORD", "CHILD_RECORD", "OTHER"]));
    const index = list.json.data.documents.findIndex((document: any) => document.properties.family.name === "OTHER");
    expect(problemsIf(list.answer, list.json, (body) => (body.data.documents[index].attributes.o_title.value = ["Other"]))).toEqual(
      expect.arrayContaining([expect.stringMatching(new RegExp(`^/data/documents/${index}/attributes/o_title/value must be string,null`))]),
    );
  });

  it("types the lists of a structure's collection", () => {
    const { answer, json, check: result } = answered("/api/v2/smart-structures/BASE_RECORD/smart-elements/?fields=document.attributes&slice=ALL");
    expect(result).toEqual({ operation: "GET /api/v2/smart-structures/BASE_RECORD/smart-elements", problems: [] });
    expect(json.data.documents).toHaveLength(2);
    expect(problemsIf(answer, json, (body) => (body.data.documents[0].attributes.b_date.value = 20260304))).not.toEqual([]);
  });
});
