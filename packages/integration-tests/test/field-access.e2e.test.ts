import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleSeed, startLiveServer, type LiveServer } from "../src/live-server.ts";

// Issue 22, item 4, over a real server: field access layers. DOC_BASE names FAL_INVOICE and
// DOC_INVOICE inherits it; its layer lets auditors read inv_secret (I of its own) and write
// inv_notes (R of its own). audrey is an auditor, clara is not: every answer shows her the
// structure's own visibility, and every write obeys it.

const BUNDLE = {
  accounts: {
    roles: [{ id: "auditor" }, { id: "clerk" }],
    users: [
      { login: "admin", password: "admin-pw", roles: ["admin"] },
      { login: "audrey", password: "audrey-pw", roles: ["auditor", "clerk"] },
      { login: "clara", password: "clara-pw", roles: ["clerk"] },
    ],
  },
  profiles: [{ name: "PRF_INVOICE", grants: { view: ["role:clerk"], edit: ["role:clerk"] } }],
  fieldAccesses: [{ name: "FAL_INVOICE", layers: [{ grant: "role:auditor", fields: { inv_secret: "R", inv_notes: "W", mm_secret: "R" } }] }],
  structures: [
    { name: "DOC_BASE", profile: "PRF_INVOICE", fieldAccess: "FAL_INVOICE", fields: [{ id: "db_ref", type: "text" }] },
    {
      name: "DOC_INVOICE", extends: "DOC_BASE", titleField: "db_ref",
      fields: [{ id: "inv_secret", type: "text", visibility: "I" }, { id: "inv_notes", type: "text", visibility: "R" }],
    },
    {
      name: "DOC_MEMO", extends: "DOC_BASE", title: "Memo", titleFields: ["db_ref", "mm_secret"],
      fields: [{ id: "mm_secret", type: "text", visibility: "I" }, { id: "mm_link", type: "docid", structure: "DOC_MEMO" }],
    },
  ],
  elements: [
    { structure: "DOC_INVOICE", name: "INV_1", values: { db_ref: "I1", inv_secret: "swordfish", inv_notes: "checked" } },
    { structure: "DOC_INVOICE", name: "INV_GONE", values: { db_ref: "I9", inv_secret: "marlin", inv_notes: "void" } },
    { structure: "DOC_MEMO", name: "MEMO_1", values: { db_ref: "M1", mm_secret: "tuna" } },
    { structure: "DOC_MEMO", name: "MEMO_2", values: { mm_secret: "tuna", mm_link: "MEMO_1" } },
  ],
  searchDomains: [{ name: "invoices", lang: "en", configs: [{ structure: "DOC_INVOICE", fields: [{ field: "db_ref", weight: "A" }, { field: "inv_secret", weight: "B" }] }] }],
};

let live: LiveServer<Awaited<ReturnType<ReturnType<typeof bundleSeed>>>>;

beforeAll(async () => {
  live = await startLiveServer(bundleSeed(BUNDLE));
  // For the trash: an element deleted before the tests.
  expect((await live.api.call("DELETE", "/api/v2/smart-elements/INV_GONE", { as: ["admin", "admin-pw"] })).status).toBe(200);
});

afterAll(async () => {
  await live.close();
});

const AUDREY: [string, string] = ["audrey", "audrey-pw"];
const CLARA: [string, string] = ["clara", "clara-pw"];
const ALL = "fields=document.attributes.all";
const SECRET = "fields=document.attributes.inv_secret";

async function get(path: string, as: [string, string]) {
  const answer = await live.api.call("GET", path, { as });
  expect(answer.status).toBe(200);
  return answer;
}

const codeOf = (answer: { status: number; json: any }) => [answer.status, answer.json?.messages?.[0]?.code];

describe("item 4: field access layers", () => {
  it("shows the field in an element to the caller a layer is granted to, and hides it from another", async () => {
    expect((await get(`/api/v2/smart-elements/INV_1.json?${ALL}`, AUDREY)).json.data.document.attributes).toMatchObject({
      inv_secret: { value: "swordfish" }, inv_notes: { value: "checked" },
    });
    const clara = (await get(`/api/v2/smart-elements/INV_1.json?${ALL}`, CLARA)).json.data.document.attributes;
    expect(clara).toMatchObject({ inv_notes: { value: "checked" } });
    expect(clara).not.toHaveProperty("inv_secret");
    // Named, it is an unknown field to her (CRUD0502), as a field of visibility I is.
    expect(codeOf(await live.api.call("GET", `/api/v2/smart-elements/INV_1.json?${SECRET}`, { as: CLARA }))).toEqual([400, "CRUD0502"]);
  });

  it("gives each caller an ETag of their own, which a conditional GET answers 304 to", async () => {
    const audrey = (await get("/api/v2/smart-elements/INV_1.json", AUDREY)).headers.get("etag")!;
    const clara = (await get("/api/v2/smart-elements/INV_1.json", CLARA)).headers.get("etag")!;
    expect(audrey).not.toBe(clara);
    const again = await live.api.call("GET", "/api/v2/smart-elements/INV_1.json", { as: AUDREY, headers: { "if-none-match": audrey } });
    expect(again.status).toBe(304);
    const crossed = await live.api.call("GET", "/api/v2/smart-elements/INV_1.json", { as: CLARA, headers: { "if-none-match": audrey } });
    expect(crossed.status).toBe(200);
  });

  it("lists the field with fields= for one caller, and renders it empty for the other", async () => {
    const path = `/api/v2/smart-structures/DOC_INVOICE/smart-elements/?${SECRET}`;
    expect((await get(path, AUDREY)).json.data.documents.map((d: any) => d.attributes.inv_secret.value)).toEqual(["swordfish"]);
    expect((await get(path, CLARA)).json.data.documents.map((d: any) => d.attributes.inv_secret)).toEqual([{ value: null, displayValue: "" }]);
    // Sorting by it is sorting by something she cannot see: an unknown field to her.
    const sorted = "/api/v2/smart-structures/DOC_INVOICE/smart-elements/?orderBy=inv_secret";
    expect((await live.api.call("GET", sorted, { as: AUDREY })).status).toBe(200);
    expect(codeOf(await live.api.call("GET", sorted, { as: CLARA }))).toEqual([400, "CRUD0506"]);
  });

  it("shows or hides it in revisions, one revision and the history", async () => {
    const revisions = `/api/v2/smart-elements/INV_1/revisions/?${SECRET}`;
    expect((await get(revisions, AUDREY)).json.data.revisions.map((r: any) => r.attributes.inv_secret.value)).toEqual(["swordfish"]);
    expect((await get(revisions, CLARA)).json.data.revisions.map((r: any) => r.attributes.inv_secret.value)).toEqual([null]);
    expect((await get(`/api/v2/smart-elements/INV_1/revisions/0.json?${ALL}`, AUDREY)).json.data.revision.attributes).toHaveProperty("inv_secret");
    expect((await get(`/api/v2/smart-elements/INV_1/revisions/0.json?${ALL}`, CLARA)).json.data.revision.attributes).not.toHaveProperty("inv_secret");
    // The history tells no values, to anyone.
    for (const as of [AUDREY, CLARA]) expect((await get("/api/v2/smart-elements/INV_1/history/", as)).text).not.toContain("swordfish");
  });

  it("shows or hides it in the trash", async () => {
    expect((await get(`/api/v2/trash/INV_GONE.json?${ALL}`, AUDREY)).json.data.document.attributes).toMatchObject({ inv_secret: { value: "marlin" } });
    expect((await get(`/api/v2/trash/INV_GONE.json?${ALL}`, CLARA)).json.data.document.attributes).not.toHaveProperty("inv_secret");
  });

  it("shows or hides it in search results: found and highlighted by it for the callers a layer lets see it, never for others", async () => {
    const search = (q: string, as: [string, string]) => get(`/api/v2/fullsearch/domains/invoices/smart-elements/?q=${q}&${SECRET}&count=true`, as);
    const audrey = (await search("I1", AUDREY)).json.data.documents;
    const clara = (await search("I1", CLARA)).json.data.documents;
    expect(audrey.map((d: any) => d.attributes.inv_secret.value)).toEqual(["swordfish"]);
    expect(clara.map((d: any) => d.attributes.inv_secret.value)).toEqual([null]);
    expect(clara.map((d: any) => d.highlights)).toEqual([expect.not.stringContaining("swordfish")]);
    // The field is I in its structure, R for auditors: they find the element by it; clara does not, nor counts it.
    const found = (await search("swordfish", AUDREY)).json.data;
    expect(found.documents.map((d: any) => [d.attributes.inv_secret.value, d.highlights])).toEqual([["swordfish", expect.stringContaining("swordfish")]]);
    const hers = (await search("swordfish", CLARA)).json.data;
    expect([hers.documents, hers.requestParameters.total]).toEqual([[], 0]);
    const phrase = (q: string, as: [string, string]) => search(encodeURIComponent(`"${q}"`), as);
    expect((await phrase("swordfish", AUDREY)).json.data.documents).toHaveLength(1);
    expect((await phrase("swordfish", CLARA)).json.data.documents).toEqual([]);
  });

  it("titles an element without the value of a title field the caller may not see", async () => {
    const title = async (as: [string, string]) => (await get("/api/v2/smart-elements/MEMO_1.json", as)).json.data.document.properties.title;
    expect(await title(AUDREY)).toBe("M1 tuna");
    expect(await title(CLARA)).toBe("M1");
    const list = async (as: [string, string]) => (await get("/api/v2/smart-structures/DOC_MEMO/smart-elements/?fields=document.properties.title", as)).json.data.documents.map((d: any) => d.properties.title);
    expect(await list(AUDREY)).toEqual(["M1 tuna", "tuna"]);
    // Nothing left of the title for her: the original's untitled text.
    const untitled = (await get("/api/v2/smart-elements/MEMO_2.json", CLARA)).json.data.document.properties;
    expect(await list(CLARA)).toEqual(["M1", `untitle Memo ${untitled.initid}`]);
    // A relation's display value too.
    const link = async (as: [string, string]) => (await get("/api/v2/smart-elements/MEMO_2.json?fields=document.attributes.mm_link", as)).json.data.document.attributes.mm_link.displayValue;
    expect([await link(AUDREY), await link(CLARA)]).toEqual(["M1 tuna", "M1"]);
    // And the XML export: the element's title, and a relation's text.
    const xml = async (name: string, as: [string, string]) => (await get(`/api/v2/smart-elements/${name}.xml`, as)).text;
    expect(await xml("MEMO_1", AUDREY)).toContain('title="M1 tuna"');
    expect(await xml("MEMO_1", CLARA)).toContain('title="M1"');
    expect(await xml("MEMO_2", AUDREY)).toMatch(/<mm_link[^>]*>M1 tuna</);
    expect(await xml("MEMO_2", CLARA)).toMatch(/<mm_link[^>]*>M1</);
    expect(await xml("MEMO_2", CLARA)).not.toContain("tuna");
  });

  it("describes the structure with each caller's visibility, with ETags of their own", async () => {
    const path = "/api/v2/smart-structures/DOC_INVOICE?fields=family.structure";
    const audrey = await get(path, AUDREY);
    const clara = await get(path, CLARA);
    expect(audrey.json.data.family.structure).toMatchObject({ inv_secret: { visibility: "R" }, inv_notes: { visibility: "W" } });
    expect(clara.json.data.family.structure).not.toHaveProperty("inv_secret");
    expect(clara.json.data.family.structure.inv_notes).toMatchObject({ visibility: "R" });
    expect(audrey.headers.get("etag")).not.toBe(clara.headers.get("etag"));
  });

  it("exports the field in XML for one caller only", async () => {
    const audrey = await get("/api/v2/smart-elements/INV_1.xml", AUDREY);
    const clara = await get("/api/v2/smart-elements/INV_1.xml", CLARA);
    expect(audrey.text).toContain("swordfish");
    expect(clara.text).not.toContain("swordfish");
    expect(clara.text).toContain("checked");
  });

  it("refuses writes the caller's visibility does not allow, on PUT and on create", async () => {
    const put = (as: [string, string], attributes: Record<string, unknown>) =>
      live.api.call("PUT", "/api/v2/smart-elements/INV_1", { as, json: { document: { attributes } } });
    const create = (as: [string, string], attributes: Record<string, unknown>) =>
      live.api.call("POST", "/api/v2/smart-structures/DOC_INVOICE/smart-elements/", { as, json: { document: { attributes } } });
    // Hidden from her: an unknown field. Read-only for her: refused naming it.
    expect(codeOf(await put(CLARA, { inv_secret: { value: "x" } }))).toEqual([400, "CRUD0218"]);
    expect(codeOf(await put(CLARA, { inv_notes: { value: "x" } }))).toEqual([500, "ROUTES0107"]);
    expect(codeOf(await create(CLARA, { db_ref: { value: "I2" }, inv_secret: { value: "x" } }))).toEqual([400, "CRUD0218"]);
    // The layer gives audrey read only on inv_secret, and write on inv_notes.
    expect(codeOf(await put(AUDREY, { inv_secret: { value: "x" } }))).toEqual([500, "ROUTES0107"]);
    const written = await put(AUDREY, { inv_notes: { value: "audited" } });
    expect(written.status).toBe(200);
    expect(written.json.data.document.attributes).toMatchObject({ inv_notes: { value: "audited" }, inv_secret: { value: "swordfish" } });
    const created = await create(AUDREY, { db_ref: { value: "I3" }, inv_notes: { value: "new" } });
    expect(created.status).toBe(201);
    expect((await get(`/api/v2/smart-elements/INV_1.json?${ALL}`, CLARA)).json.data.document.attributes).toMatchObject({ inv_notes: { value: "audited" } });
  });
});
