import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lifecyclePlatform } from "@lineage/core/testing";
import { startLiveServer, type LiveServer } from "../src/live-server.ts";

let live: LiveServer<Awaited<ReturnType<typeof lifecyclePlatform>>>;
let api: LiveServer<Awaited<ReturnType<typeof lifecyclePlatform>>>["api"];
let seed: Awaited<ReturnType<typeof lifecyclePlatform>>;

beforeAll(async () => {
  live = await startLiveServer(lifecyclePlatform);
  ({ api, seed } = live);
});

afterAll(() => live.close());

const ALICE: [string, string] = ["alice", "alice-pw"];
const BOB: [string, string] = ["bob", "bob-pw"];
const errorOf = (response: { status: number; json: any }) => [response.status, response.json?.messages?.[0]?.code];

let count = 0;
/** A fresh article in draft, so tests do not depend on each other. */
async function newArticle(): Promise<{ initid: number; base: string }> {
  const created = await seed.platform.elements.create(await seed.principal("admin"), { structure: "ARTICLE", values: { ar_title: `Lifecycle ${++count}` } });
  return { initid: created.initid, base: `/api/v2/smart-elements/${created.initid}/workflows` };
}

const revisionsOf = async (initid: number) =>
  (await api.call("GET", `/api/v2/smart-elements/${initid}/revisions/?fields=document.properties.status,document.properties.state`)).json.data.revisions;

describe("reading states", () => {
  it("lists the next states the user may reach, in both URL variants", async () => {
    const { initid, base } = await newArticle();
    const response = await api.call("GET", `${base}/states/`, { as: ALICE });
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({ success: true, messages: [] });
    expect(response.json.data.uri).toBe(`${base}/states/`);
    expect(response.json.data.states[0]).toEqual({
      id: "review", isCurrentState: false, label: "Relecture", activity: null, displayValue: "Relecture", color: "#0000AA",
      uri: `${base}/states/review`,
      transition: { id: "submit", uri: `${base}/transitions/submit`, label: "Soumettre", error: null, authorized: true },
    });
    expect(response.json.data.states.map((s: any) => [s.id, s.transition.error])).toEqual([
      ["review", null], ["archived", 'Hook "notRegistered" (m1) of transition "lock" is not registered'],
    ]);
    const family = await api.call("GET", `/api/v2/smart-structures/ARTICLE/smart-elements/${initid}/workflows/states`, { as: ALICE });
    expect(family.json.data.uri).toBe(`/api/v2/smart-structures/ARTICLE/smart-elements/${initid}/workflows/states/`);
    expect((await api.call("GET", `${base}/states/`, { as: BOB })).json.data.states).toEqual([]);
  });

  it("lists every state with allStates=1 (allState=1 too)", async () => {
    const { base } = await newArticle();
    for (const query of ["allStates=1", "allState=1"]) {
      const response = await api.call("GET", `${base}/states/?${query}`);
      expect(response.json.data.states.map((s: any) => [s.id, s.isCurrentState, s.transition?.id ?? null])).toEqual([
        ["draft", true, null], ["review", false, "submit"], ["published", false, null], ["archived", false, "lock"],
      ]);
    }
    expect((await api.call("GET", `${base}/states/?allStates=0`)).json.data.states).toHaveLength(2);
  });

  it("reads one state, with or without .json, and answers CRUD0228 for an unknown one", async () => {
    const { base } = await newArticle();
    for (const path of [`${base}/states/review`, `${base}/states/review.json`]) {
      const response = await api.call("GET", path);
      expect(response.json.data).toEqual({
        uri: `${base}/states/review`,
        state: { id: "review", isCurrentState: false, label: "Review", activity: null, displayValue: "Review", color: "#0000AA", transition: { uri: `${base}/transitions/submit`, label: "Submit" } },
      });
    }
    const unknown = await api.call("GET", `${base}/states/nowhere`);
    expect(errorOf(unknown)).toEqual([404, "CRUD0228"]);
    expect(unknown.json.messages[0].contentText).toBe('State "nowhere" is not available for  workflow "Article lifecycle" (WFL_ARTICLE)');
  });
});

describe("reading transitions", () => {
  it("lists every transition with valid, and describes one", async () => {
    const { base } = await newArticle();
    const list = await api.call("GET", `${base}/transitions/`, { as: BOB });
    expect(list.json.data.uri).toBe(`${base}/transitions/`);
    expect(list.json.data.transitions.map((t: any) => [t.id, t.valid])).toEqual([["submit", true], ["publish", false], ["reject", false], ["retract", false], ["lock", true]]);
    expect(list.json.data.transitions[1]).toEqual({ id: "publish", uri: `${base}/transitions/publish`, label: "Publish", valid: false });
    const one = await api.call("GET", `${base}/transitions/publish`);
    expect(one.json.data.uri).toBe(`${base}/transitions/publish`);
    expect(one.json.data.transition).toMatchObject({
      id: "publish", label: "Publish", askComment: false,
      beginState: { id: "review", isCurrentState: false }, endState: { id: "published", isCurrentState: false },
      askAttributes: [
        { id: "pub_date", visibility: "W", label: "Date", type: "date", logicalOrder: 1, multiple: false, options: {}, needed: true },
        { id: "pub_channels", type: "enum", multiple: true, needed: false },
      ],
    });
    expect(errorOf(await api.call("GET", `${base}/transitions/fly`))).toEqual([404, "CRUD0229"]);
    expect(errorOf(await api.call("POST", `${base}/transitions/fly`))).toEqual([404, "CRUD0229"]);
  });
});

describe("the lifecycle collection's errors", () => {
  it("answers the spec's codes for the element, on every route", async () => {
    const { initid, base } = await newArticle();
    const routes = ["GET states/", "GET states/review", "POST states/review", "GET transitions/", "GET transitions/submit", "POST transitions/submit"];
    const call = (prefix: string, route: string, as?: [string, string]) => {
      const [method, path] = route.split(" ") as [string, string];
      return api.call(method, `${prefix}/workflows/${path}`, as ? { as } : {});
    };
    for (const route of routes) {
      expect(errorOf(await call("/api/v2/smart-elements/NOPE", route))).toEqual([404, "CRUD0200"]);
      expect(errorOf(await call("/api/v2/smart-elements/AUTHOR_ADA", route))).toEqual([404, "CRUD0227"]);
      expect(errorOf(await call(`/api/v2/smart-structures/AUTHOR/smart-elements/${initid}`, route))).toEqual([404, "CRUD0220"]);
      expect(errorOf(await call(`/api/v2/smart-structures/NOPE/smart-elements/${initid}`, route))).toEqual([404, "ROUTES0105"]);
      if (route.startsWith("GET")) expect(errorOf(await call(`/api/v2/smart-elements/${initid}`, route, ["carol", "carol-pw"]))).toEqual([403, "CRUD0201"]);
    }
    expect((await api.call("DELETE", `/api/v2/smart-elements/${initid}`)).status).toBe(200);
    for (const route of routes) {
      const response = await call(`/api/v2/smart-elements/${initid}`, route);
      expect(errorOf(response)).toEqual([404, "CRUD0219"]);
      expect(response.json.messages[0].uri).toBe(`/api/v2/trash/${initid}.json`);
    }
    expect(base).toContain(String(initid));
  });

  it("answers 501 for the methods the collection does not implement", async () => {
    const { base } = await newArticle();
    for (const [method, path] of [["POST", "states/"], ["PUT", "states/review"], ["DELETE", "states/review"], ["POST", "transitions/"], ["PUT", "transitions/submit"], ["DELETE", "transitions/"]] as const) {
      expect(errorOf(await api.call(method, `${base}/${path}`))).toEqual([501, "CRUD0103"]);
    }
    expect((await api.call("PUT", `/api/v2/smart-structures/ARTICLE/smart-elements/ART_HELLO/workflows/states/review`)).status).toBe(501);
  });
});

describe("changing state", () => {
  it("runs a transition: new revision, previous fixed, comment in the history, state property updated", async () => {
    const { initid, base } = await newArticle();
    const response = await api.call("POST", `${base}/transitions/submit`, { as: ALICE, json: { comment: "Please review" } });
    expect(response.status).toBe(200);
    expect(response.json).toEqual({
      success: true, messages: [],
      data: { state: { id: "review", isCurrentState: true, label: "Relecture", activity: null, displayValue: "Relecture", color: "#0000AA" } },
    });
    const revisions = await revisionsOf(initid);
    expect(revisions.map((r: any) => [r.properties.status, r.properties.state.reference])).toEqual([["alive", "review"], ["fixed", "draft"]]);
    const element = await api.call("GET", `/api/v2/smart-elements/${initid}`);
    expect(element.json.data.document.properties).toMatchObject({ revision: 1, state: { reference: "review", stateLabel: "Review", displayValue: "Review", color: "#0000AA" } });
    const listed = await api.call("GET", `/api/v2/smart-elements/?fields=document.properties.state&slice=all`);
    expect(listed.json.data.documents.find((d: any) => d.properties.id === element.json.data.document.properties.id).properties.state.reference).toBe("review");
    const history = await api.call("GET", `/api/v2/smart-elements/${initid}/history/`);
    expect(history.json.data.history[0].messages.map((m: any) => [m.level, m.code, m.comment])).toEqual([
      ["message", "STATE", "Please review"],
      ["notice", "STATE", 'Transition "Submit" (submit) from "Draft" to "Review"'],
      ["notice", "REVISION", "change state : Draft to Review"],
    ]);
  });

  it("goes to a state with parameters, answering like GET state with the hooks' messages", async () => {
    const { initid, base } = await newArticle();
    expect((await api.call("POST", `${base}/states/review`, { as: ALICE })).status).toBe(200);
    const response = await api.call("POST", `${base}/states/published.json`, {
      as: ALICE, json: { comment: "Out now", parameters: { pub_date: "2026-06-01", pub_channels: ["tech"] } },
    });
    expect(response.status).toBe(200);
    expect(response.json.data).toEqual({
      uri: `${base}/states/published`,
      state: { id: "published", isCurrentState: true, label: "Published", activity: null, displayValue: "Published", color: "#00AA00", transition: null },
    });
    expect(response.json.messages).toEqual([
      { type: "message", code: "WORKFLOW_TRANSITION", contentText: "Published" },
      { type: "message", code: "WORKFLOW_TRANSITION", contentText: "Readers notified" },
    ]);
    const history = await api.call("GET", `/api/v2/smart-elements/${initid}/history/`);
    expect(history.json.data.history[0].messages[1].comment).toBe('Transition "Publish" (publish) from "Review" to "Published"; parameters: {"pub_date":"2026-06-01","pub_channels":["tech"]}');
    expect((await revisionsOf(initid)).length).toBe(3);
  });

  it("refuses what may not run with 403 WFL0300 and the reason, and invalid transitions with 404 CRUD0235", async () => {
    const { initid, base } = await newArticle();
    const invalid = await api.call("POST", `${base}/transitions/publish`, { as: ALICE, json: {} });
    expect(errorOf(invalid)).toEqual([404, "CRUD0235"]);
    expect(errorOf(await api.call("POST", `${base}/states/published`, { as: ALICE }))).toEqual([404, "CRUD0235"]);
    const noGrant = await api.call("POST", `${base}/transitions/submit`, { as: BOB });
    expect([...errorOf(noGrant), noGrant.json.messages[0].contentText]).toEqual([403, "WFL0300", 'Transition "Submit" is not granted to "bob"']);
    const unregistered = await api.call("POST", `${base}/states/archived`, { as: ALICE });
    expect([...errorOf(unregistered), unregistered.json.messages[0].contentText]).toEqual([403, "WFL0300", 'Hook "notRegistered" (m1) of transition "lock" is not registered']);
    await api.call("POST", `${base}/transitions/submit`, { as: ALICE });
    const m0 = await api.call("POST", `${base}/transitions/reject`, { as: ALICE });
    expect([...errorOf(m0), m0.json.messages[0].contentText, m0.json.exceptionMessage]).toEqual([403, "WFL0300", "Rejections are closed this week", 'Cannot use transition "Rejections are closed this week"']);
    const m1 = await api.call("POST", `${base}/transitions/publish`, { as: ALICE, json: { parameters: { pub_date: "1990-01-01" } } });
    expect([...errorOf(m1), m1.json.messages[0].contentText]).toEqual([403, "WFL0300", "Too old to publish"]);
    expect(errorOf(await api.call("POST", `${base}/transitions/submit`, { as: ["carol", "carol-pw"] }))).toEqual([403, "CRUD0105"]);
    expect((await revisionsOf(initid)).length).toBe(2);
  });

  it("refuses bad bodies and parameters with 400 naming what is wrong", async () => {
    const { initid, base } = await newArticle();
    await api.call("POST", `${base}/transitions/submit`, { as: ALICE });
    const post = (body: Record<string, unknown>) => api.call("POST", `${base}/transitions/publish`, { as: ALICE, ...body });
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ json: {} }, "WFL0311", 'Transition parameter "pub_date" is needed'],
      [{ json: { parameters: { pub_date: "soon" } } }, "WFL0310", 'Transition parameter "pub_date": "soon" is not a date (YYYY-MM-DD)'],
      [{ json: { parameters: { pub_date: "2026-01-01", colour: 1 } } }, "WFL0312", 'Transition "publish" has no parameter "colour"'],
      [{ json: { comment: 12 } }, "API0009", 'Invalid request body: "comment" must be a string'],
      [{ json: { parameters: [1] } }, "API0009", 'Invalid request body: "parameters" must be an object mapping parameter ids to values'],
      [{ json: ["comment"] }, "API0009", "Invalid request body: a JSON object is expected"],
      [{ body: "{nope", headers: { "content-type": "application/json" } }, "API0009", ""],
      [{ body: "comment=hi", headers: { "content-type": "application/x-www-form-urlencoded" } }, "API0012", 'Unsupported content type "application/x-www-form-urlencoded"'],
    ];
    for (const [options, code, text] of cases) {
      const response = await post(options);
      expect(errorOf(response)).toEqual([400, code]);
      if (text) expect(response.json.messages[0].contentText).toBe(text);
    }
    expect((await revisionsOf(initid)).length).toBe(2);
  });

  it("lets admin force a state no valid transition leads to, and says so in the history", async () => {
    const { initid, base } = await newArticle();
    const response = await api.call("POST", `${base}/states/published`, { json: { comment: "Forced" } });
    expect(response.status).toBe(200);
    expect(response.json.data.state).toMatchObject({ id: "published", isCurrentState: true });
    const history = await api.call("GET", `/api/v2/smart-elements/${initid}/history/`);
    expect(history.json.data.history[0].messages.map((m: any) => m.comment)).toEqual([
      "Forced", 'State forced by admin from "Draft" to "Published" (no valid transition)', "change state : Draft to Published",
    ]);
  });
});

describe("concurrent state changes", () => {
  it("lets exactly one of two simultaneous changes win, without a duplicate revision", async () => {
    for (const [first, second] of [["transitions/submit", "transitions/submit"], ["states/review", "transitions/submit"], ["states/review", "states/review"]]) {
      const { initid, base } = await newArticle();
      const responses = await Promise.all([first, second].map((path) => api.call("POST", `${base}/${path}`, { as: ALICE, json: { comment: "race" } })));
      const outcomes = responses.map(errorOf).map(([status, code]) => (status === 200 ? "ok" : `${status} ${code}`));
      expect(outcomes.filter((o) => o === "ok")).toHaveLength(1);
      expect(outcomes.find((o) => o !== "ok")).toMatch(/^(404 CRUD0235|409 WFL0409)$/);
      const revisions = await revisionsOf(initid);
      expect(revisions.map((r: any) => [r.properties.status, r.properties.state.reference])).toEqual([["alive", "review"], ["fixed", "draft"]]);
    }
  });
});
