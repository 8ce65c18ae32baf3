import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleSeed, startLiveServer, type LiveServer } from "../src/live-server.ts";

// Folders over a real server (queries-and-events.md, section 2): the system structure DIR, GET /folders/, a folder's
// content, PUT and DELETE of an element in it, every refusal of the contract, each answer held to the OpenAPI document.

const BUNDLE = {
  accounts: {
    roles: [{ id: "team" }],
    users: [
      { login: "admin", password: "admin-pw", roles: ["admin"] },
      { login: "alice", password: "alice-pw", roles: ["team"] },
      { login: "bob", password: "bob-pw", roles: ["team"] },
      { login: "reader", password: "reader-pw", roles: ["team"], rights: ["GET"] },
    ],
  },
  profiles: [
    { name: "PRF_NOTE", grants: { view: ["role:team"], edit: ["role:team"] } },
    { name: "PRF_HIDDEN", grants: { view: ["user:bob"] } },
    { name: "PRF_TEAM_DIR", grants: { view: ["role:team"], edit: ["owner"], delete: ["owner"] } },
  ],
  structures: [
    { name: "NOTE", profile: "PRF_NOTE", titleField: "n_title", fields: [{ id: "n_title", type: "text" }, { id: "n_rank", type: "int" }] },
    { name: "MEMO", profile: "PRF_NOTE", titleField: "m_title", fields: [{ id: "m_title", type: "text" }] },
    { name: "TEAM_DIR", extends: "DIR", title: "Team folder", profile: "PRF_TEAM_DIR", fields: [] },
  ],
  elements: [
    { structure: "NOTE", name: "NOTE_A", values: { n_title: "Alpha", n_rank: 2 } },
    { structure: "NOTE", name: "NOTE_B", values: { n_title: "Bravo", n_rank: 1 } },
    { structure: "NOTE", name: "NOTE_HIDDEN", profile: "PRF_HIDDEN", values: { n_title: "Hidden" } },
    { structure: "MEMO", name: "MEMO_C", values: { m_title: "Charlie" } },
    { structure: "TEAM_DIR", name: "FLD_TEAM", owner: "alice", values: { ba_title: "Team notes", fld_famids: ["NOTE"] } },
  ],
};

let live: LiveServer<Awaited<ReturnType<ReturnType<typeof bundleSeed>>>>;
/** Alice's own folder, made through the API. */
let mine: number;

const ALICE: [string, string] = ["alice", "alice-pw"];
const BOB: [string, string] = ["bob", "bob-pw"];
const READER: [string, string] = ["reader", "reader-pw"];

beforeAll(async () => {
  live = await startLiveServer(bundleSeed(BUNDLE));
  const created = await live.api.call("POST", "/api/v2/smart-structures/DIR/smart-elements/", { as: ALICE, json: { document: { attributes: { ba_title: { value: "Alice's reading" } } } } });
  expect(created.status, created.text).toBe(201);
  mine = created.json.data.document.properties.initid;
});

afterAll(async () => {
  await live.close();
});

const refusal = async (method: string, path: string, as: [string, string] | undefined = ALICE) => {
  const answer = await live.api.call(method, path, as ? { as } : {});
  return [answer.status, answer.json?.messages?.[0]?.code];
};

const put = (folder: string | number, element: string | number, as = ALICE, query = "") => live.api.call("PUT", `/api/v2/folders/${folder}/smart-elements/${element}${query}`, { as });

describe("the system structure DIR", () => {
  it("is served, its elements created by every account with the global POST right", async () => {
    const structure = await live.api.call("GET", "/api/v2/smart-structures/DIR.json?fields=family.structure", { as: BOB });
    expect(structure.status, structure.text).toBe(200);
    const created = await live.api.call("POST", "/api/v2/smart-structures/DIR/smart-elements/", { as: READER, json: { document: { attributes: { ba_title: { value: "No" } } } } });
    expect([created.status, created.json.messages[0].code]).toEqual([403, "CRUD0105"]);
    // Alice's folder is hers alone.
    expect((await live.api.call("GET", `/api/v2/smart-elements/${mine}.json`, { as: ALICE })).status).toBe(200);
    expect(await refusal("GET", `/api/v2/smart-elements/${mine}.json`, BOB)).toEqual([403, "ROUTES0101"]);
  });
});

describe("GET /api/v2/folders/", () => {
  const titles = async (as: [string, string], query = "") => {
    const answer = await live.api.call("GET", `/api/v2/folders/?fields=document.properties.title${query.includes("orderBy") ? "" : "&orderBy=title"}${query}`, { as });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.json.data.uri).toBe("/api/v2/folders/");
    return answer.json.data.documents.map((item: any) => item.properties.title);
  };

  it("lists the folders the caller may view: their own, and those their rights let them view", async () => {
    expect(await titles(ALICE)).toEqual(["Alice's reading", "Team notes"]);
    expect(await titles(BOB)).toEqual(["Team notes"]);
    expect(await titles(["admin", "admin-pw"])).toEqual(["Alice's reading", "Team notes"]);
  });

  it("takes the list parameters and filters on the folders' fields", async () => {
    expect(await titles(ALICE, `&filter=${encodeURIComponent('{"field":"fld_famids","operator":"eq","value":"NOTE"}')}&count=1`)).toEqual(["Team notes"]);
    expect(await titles(ALICE, "&orderBy=ba_title:desc&slice=1")).toEqual(["Team notes"]);
  });

  it("refuses a bad filter or order with the envelope", async () => {
    expect(await refusal("GET", "/api/v2/folders/?filter=%7B")).toEqual([400, "FILTER0001"]);
    expect(await refusal("GET", `/api/v2/folders/?filter=${encodeURIComponent('{"field":"nope","operator":"eq","value":1}')}`)).toEqual([400, "FILTER0002"]);
    expect(await refusal("GET", "/api/v2/folders/?orderBy=nope")).toEqual([400, "CRUD0506"]);
    expect(await refusal("POST", "/api/v2/folders/")).toEqual([501, "CRUD0103"]);
  });
});

describe("PUT and DELETE /api/v2/folders/<folder>/smart-elements/<docid>", () => {
  it("puts an element in, answering its item; again changes nothing; takes it out", async () => {
    const added = await put(mine, "NOTE_A", ALICE, "?fields=document.properties.title,document.attributes.n_rank");
    expect(added.status, added.text).toBe(200);
    expect(added.json.data.document).toMatchObject({ properties: { title: "Alpha" }, attributes: { n_rank: { value: 2 } } });
    expect(added.json.data.document.uri).toMatch(/^\/api\/v2\/smart-elements\/\d+\.json$/);
    const again = await put(mine, `${added.json.data.document.uri.match(/(\d+)\.json$/)[1]}.json`);
    expect(again.status).toBe(200);
    const history = await live.api.call("GET", `/api/v2/smart-elements/${mine}/history/`, { as: ALICE });
    const codes = history.json.data.history.flatMap((revision: any) => revision.messages.map((message: any) => message.code));
    expect(codes.filter((code: string) => code === "MODCONTAIN")).toHaveLength(1);
    const removed = await live.api.call("DELETE", `/api/v2/folders/${mine}/smart-elements/NOTE_A`, { as: ALICE });
    expect([removed.status, removed.json.data.document.properties.title]).toEqual([200, "Alpha"]);
    expect(await refusal("DELETE", `/api/v2/folders/${mine}/smart-elements/NOTE_A`)).toEqual([404, "ROUTES0100"]);
  });

  it("refuses with the contract's codes, never a 500", async () => {
    // The folder: unknown, not a folder, not viewable, not changeable.
    expect(await refusal("PUT", "/api/v2/folders/NOPE/smart-elements/NOTE_A")).toEqual([404, "ROUTES0100"]);
    expect(await refusal("PUT", "/api/v2/folders/NOTE_B/smart-elements/NOTE_A")).toEqual([404, "ROUTES0125"]);
    expect(await refusal("PUT", `/api/v2/folders/${mine}/smart-elements/NOTE_A`, BOB)).toEqual([403, "CRUD0201"]);
    expect(await refusal("PUT", "/api/v2/folders/FLD_TEAM/smart-elements/NOTE_A", BOB)).toEqual([403, "CRUD0201"]);
    expect(await refusal("DELETE", "/api/v2/folders/FLD_TEAM/smart-elements/NOTE_A", BOB)).toEqual([403, "CRUD0201"]);
    // The element: unknown, not viewable, of a structure the folder may not hold.
    expect(await refusal("PUT", `/api/v2/folders/${mine}/smart-elements/NOPE`)).toEqual([404, "ROUTES0100"]);
    expect(await refusal("PUT", `/api/v2/folders/${mine}/smart-elements/NOTE_HIDDEN`)).toEqual([403, "CRUD0201"]);
    expect(await refusal("PUT", "/api/v2/folders/FLD_TEAM/smart-elements/MEMO_C")).toEqual([403, "CRUD0213"]);
    // The answer's fields, checked before anything is written; the methods the paths do not take.
    expect(await refusal("PUT", `/api/v2/folders/${mine}/smart-elements/NOTE_B?fields=nothing`)).toEqual([400, "ROUTES0103"]);
    expect(await refusal("GET", `/api/v2/folders/${mine}/smart-elements/NOTE_B`)).toEqual([501, "CRUD0103"]);
    expect(await refusal("POST", `/api/v2/folders/${mine}/smart-elements/`)).toEqual([501, "CRUD0103"]);
    // Odd references are unknown elements.
    for (const odd of ["%E2%98%83", "a%20b", "x".repeat(300), "0", "-1", "1e3"]) {
      expect(await refusal("PUT", `/api/v2/folders/${odd}/smart-elements/NOTE_A`), odd).toEqual([404, "ROUTES0100"]);
      expect(await refusal("PUT", `/api/v2/folders/${mine}/smart-elements/${odd}`), odd).toEqual([404, "ROUTES0100"]);
    }
    expect((await live.api.call("GET", `/api/v2/folders/${mine}/smart-elements/?fields=document.properties.title`, { as: ALICE })).status).toBe(200);
  });

  it("needs the global PUT and DELETE rights, as every route of these methods", async () => {
    expect(await refusal("PUT", `/api/v2/folders/${mine}/smart-elements/NOTE_A`, READER)).toEqual([403, "CRUD0105"]);
    expect(await refusal("DELETE", `/api/v2/folders/${mine}/smart-elements/NOTE_A`, READER)).toEqual([403, "CRUD0105"]);
  });
});

describe("GET /api/v2/folders/<folder>/smart-elements/", () => {
  const content = async (folder: string | number, as: [string, string], query = "") => {
    const answer = await live.api.call("GET", `/api/v2/folders/${folder}/smart-elements/?fields=document.properties.title&orderBy=title${query}`, { as });
    expect(answer.status, answer.text).toBe(200);
    return answer.json.data;
  };

  it("lists what the folder holds that the caller may view, with the folder's initid and title", async () => {
    for (const element of ["NOTE_A", "NOTE_B"]) expect((await put("FLD_TEAM", element)).status).toBe(200);
    const first = await content("FLD_TEAM", BOB);
    expect(first.properties).toEqual({ initid: expect.any(Number), title: "Team notes" });
    expect(first.uri).toBe("/api/v2/folders/FLD_TEAM/smart-elements/");
    const data = await content("FLD_TEAM", BOB, "&count=1");
    expect(data.documents.map((item: any) => item.properties.title)).toEqual(["Alpha", "Bravo"]);
    expect(data.requestParameters).toMatchObject({ total: 2, length: 2, orderBy: "title asc, id desc" });
    const filtered = await content("FLD_TEAM", BOB, `&filter=${encodeURIComponent('{"field":"n_rank","operator":"lt","value":2}')}`);
    expect(filtered.documents.map((item: any) => item.properties.title)).toEqual(["Bravo"]);
    expect(filtered.requestParameters.filter).toEqual({ logic: "and", filters: [{ field: "n_rank", operator: "lt", value: 2 }] });
    // An element in the trash is not listed, and is again once restored.
    expect((await live.api.call("DELETE", "/api/v2/smart-elements/NOTE_B", { as: ["admin", "admin-pw"] })).status).toBe(200);
    expect((await content("FLD_TEAM", BOB)).documents.map((item: any) => item.properties.title)).toEqual(["Alpha"]);
    const restored = await live.api.call("PUT", "/api/v2/trash/NOTE_B", { as: ["admin", "admin-pw"], json: { document: { properties: { status: "alive" } } } });
    expect(restored.status, restored.text).toBe(200);
    expect((await content("FLD_TEAM", BOB, "&slice=1&offset=1")).documents.map((item: any) => item.properties.title)).toEqual(["Bravo"]);
    // Alice's own folder: empty, then its element, to her alone.
    expect((await content(mine, ALICE)).documents).toEqual([]);
    expect((await put(mine, "MEMO_C")).status).toBe(200);
    expect((await content(mine, ALICE)).documents.map((item: any) => item.properties.title)).toEqual(["Charlie"]);
  });

  it("refuses an unknown folder, one that is no folder, one the caller may not view, and a bad filter", async () => {
    expect(await refusal("GET", "/api/v2/folders/NOPE/smart-elements/")).toEqual([404, "ROUTES0100"]);
    expect(await refusal("GET", "/api/v2/folders/MEMO_C/smart-elements/")).toEqual([404, "ROUTES0125"]);
    expect(await refusal("GET", `/api/v2/folders/${mine}/smart-elements/`, BOB)).toEqual([403, "CRUD0201"]);
    expect(await refusal("GET", "/api/v2/folders/FLD_TEAM/smart-elements/?filter=nope")).toEqual([400, "FILTER0001"]);
    expect(await refusal("GET", `/api/v2/folders/FLD_TEAM/smart-elements/?filter=${encodeURIComponent('{"field":"title","operator":"like","value":"a"}')}`)).toEqual([400, "FILTER0001"]);
    expect(await refusal("GET", "/api/v2/folders/FLD_TEAM/smart-elements/?slice=lots")).toEqual([400, "ROUTES0139"]);
    expect(await refusal("PUT", "/api/v2/folders/FLD_TEAM/smart-elements/")).toEqual([501, "CRUD0103"]);
  });
});
