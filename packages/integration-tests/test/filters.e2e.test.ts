import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seededPlatform } from "@lineage/core/testing";
import { startLiveServer, type LiveServer } from "../src/live-server.ts";

// List filters and saved searches over a real server (docs/api.md#filters), on each store the
// project runs: every list route takes `filter` and `count`, refusals are the envelope with their
// code, and a field the caller may not see is unknown with the message of one that does not exist.

type Seed = Awaited<ReturnType<typeof seededPlatform>>;
let live: LiveServer<Seed>;
let api: LiveServer<Seed>["api"];

beforeAll(async () => {
  live = await startLiveServer(seededPlatform);
  ({ api } = live);
});
afterAll(() => live.close());

const ADMIN: [string, string] = ["admin", "admin-pw"];
const ALICE: [string, string] = ["alice", "alice-pw"];
const BOB: [string, string] = ["bob", "bob-pw"];
const q = (filter: unknown, more = "") => `filter=${encodeURIComponent(typeof filter === "string" ? filter : JSON.stringify(filter))}${more}`;
const titles = (json: any) => json.data.documents.map((d: any) => d.properties.title);
const codeOf = (response: { status: number; json: any }) => [response.status, response.json?.messages?.[0]?.code];

describe("filters over HTTP", () => {
  it("narrow a structure's list, counted and echoed", async () => {
    const { status, json } = await api.call("GET", `/api/v2/smart-structures/ARTICLE/smart-elements/?${q({ logic: "and", filters: [
      { field: "state", operator: "eq", value: "draft" }, { field: "ar_category", operator: "in", value: ["tech", "food"] },
    ] }, "&count=1&orderBy=title:desc")}`, { as: ALICE });
    expect(status).toBe(200);
    expect(titles(json)).toEqual(["Hello", "Apple pie"]);
    expect(json.data.requestParameters).toMatchObject({ total: 2, filter: { logic: "and" } });
  });

  it("apply on every element's list, the trash and a search domain's list alike", async () => {
    const every = await api.call("GET", `/api/v2/smart-elements/?${q({ field: "title", operator: "startswith", value: "ZEB" })}`, { as: ADMIN });
    expect(titles(every.json)).toEqual(["Zebra crossing"]);
    const trash = await api.call("GET", `/api/v2/trash/?${q({ field: "title", operator: "contains", value: "x" }, "&count=1")}`, { as: ADMIN });
    expect(trash.status).toBe(200);
    expect(trash.json.data.requestParameters.total).toBe(trash.json.data.documents.length);
  });

  it("refuse bad filters with their code, never 500", async () => {
    expect(codeOf(await api.call("GET", `/api/v2/smart-elements/?${q("{oops")}`, { as: ADMIN }))).toEqual([400, "FILTER0001"]);
    expect(codeOf(await api.call("GET", `/api/v2/smart-elements/?${q({ field: "x", operator: "like" })}`, { as: ADMIN }))).toEqual([400, "FILTER0001"]);
    expect(codeOf(await api.call("GET", `/api/v2/smart-structures/ARTICLE/smart-elements/?${q({ field: "nope", operator: "isempty" })}`, { as: ADMIN }))).toEqual([400, "FILTER0002"]);
    expect(codeOf(await api.call("GET", `/api/v2/smart-structures/ARTICLE/smart-elements/?${q({ field: "ar_words", operator: "contains", value: "1" })}`, { as: ADMIN }))).toEqual([400, "FILTER0003"]);
    expect(codeOf(await api.call("GET", `/api/v2/smart-structures/ARTICLE/smart-elements/?${q({ field: "ar_date", operator: "gt", value: "soon" })}`, { as: ADMIN }))).toEqual([400, "FILTER0004"]);
  });

  it("read a field the caller may not see as unknown, with the same message as a field that does not exist", async () => {
    const hidden = await api.call("GET", `/api/v2/smart-structures/ARTICLE/smart-elements/?${q({ field: "ar_secret", operator: "eq", value: "hidden" })}`, { as: ALICE });
    const missing = await api.call("GET", `/api/v2/smart-structures/ARTICLE/smart-elements/?${q({ field: "ar_zzzzzz", operator: "eq", value: "hidden" })}`, { as: ALICE });
    expect(codeOf(hidden)).toEqual([400, "FILTER0002"]);
    expect(hidden.json.messages[0].contentText.replace("ar_secret", "X")).toBe(missing.json.messages[0].contentText.replace("ar_zzzzzz", "X"));
  });
});

describe("saved searches over HTTP", () => {
  it("save a question, run it with the request's filter added, and refuse others' searches", async () => {
    const created = await api.call("POST", "/api/v2/smart-structures/SEARCH/smart-elements/", {
      as: ALICE,
      json: { document: { attributes: {
        ba_title: { value: "Drafts, newest first" }, se_famid: { value: "ARTICLE" },
        se_filter: { value: JSON.stringify({ field: "state", operator: "eq", value: "draft" }) }, se_orderby: { value: "mdate:desc" },
      } } },
    });
    expect(created.status).toBe(201);
    const id = created.json.data.document.properties.initid;
    const run = await api.call("GET", `/api/v2/searches/${id}/smart-elements/?count=1`, { as: ALICE });
    expect(run.status).toBe(200);
    expect(titles(run.json)).toEqual(["Apple pie", "Zebra crossing", "Hello"]);
    expect(run.json.data.properties).toEqual({ initid: id, title: "Drafts, newest first" });
    const narrowed = await api.call("GET", `/api/v2/searches/${id}/smart-elements/?${q({ field: "ar_category", operator: "eq", value: "tech" })}`, { as: ALICE });
    expect(titles(narrowed.json)).toEqual(["Hello"]);
    const listed = await api.call("GET", "/api/v2/searches/", { as: ALICE });
    expect(titles(listed.json)).toContain("Drafts, newest first");
    expect(codeOf(await api.call("GET", `/api/v2/searches/${id}/smart-elements/`, { as: BOB }))).toEqual([403, "CRUD0201"]);
    expect(codeOf(await api.call("GET", "/api/v2/searches/ART_HELLO/smart-elements/", { as: ALICE }))).toEqual([404, "ROUTES0126"]);
    expect(codeOf(await api.call("GET", "/api/v2/searches/NOTHING_HERE/smart-elements/", { as: ALICE }))).toEqual([404, "ROUTES0100"]);
  });
});
