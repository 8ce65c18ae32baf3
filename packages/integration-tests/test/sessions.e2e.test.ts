import { createMemoryThrottleStore } from "@lineage/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "../src/api-client.ts";
import { bundleSeed, startLiveServer, type LiveServer } from "../src/live-server.ts";

// Sessions over JSON, as the original's Session and Logout routes: POST /api/v2/authent/sessions/<login> opens the
// session the login form opens, DELETE /api/v2/authent/sessions/current closes it; on PostgreSQL a session opened
// through one node is honoured, then closed, through the other; failures count against the form's throttle.

const BUNDLE = {
  accounts: {
    roles: [{ id: "team" }],
    users: [
      { login: "admin", password: "admin-pw", roles: ["admin"] },
      { login: "alice", password: "alice-pw", roles: ["team"] },
      { login: "bob", password: "bob-pw", roles: ["team"] },
    ],
  },
  structures: [{ name: "NOTE", titleField: "n_title", fields: [{ id: "n_title", type: "text" }] }],
  elements: [{ structure: "NOTE", name: "NOTE_A", values: { n_title: "Alpha" } }],
};

let live: LiveServer<Awaited<ReturnType<ReturnType<typeof bundleSeed>>>>;
let first: ReturnType<typeof apiClient>;
let last: ReturnType<typeof apiClient>;

beforeAll(async () => {
  // One throttle store for both nodes, as one database would be: two free failures per login, then a minute's lock.
  const throttle = { store: createMemoryThrottleStore(), freeFailures: 2, baseLockMs: 60_000, clientFreeFailures: 50, clientLimit: 100 };
  live = await startLiveServer(bundleSeed(BUNDLE), { auth: { throttle } });
  first = apiClient(live.nodeUrls[0]!);
  last = apiClient(live.nodeUrls[live.nodeUrls.length - 1]!);
});

afterAll(async () => {
  await live.close();
});

const codeOf = (answer: { status: number; json: any }) => [answer.status, answer.json?.messages?.[0]?.code];
const open = (client: ReturnType<typeof apiClient>, login: string, body: unknown, headers: Record<string, string> = {}) =>
  client.call("POST", `/api/v2/authent/sessions/${login}`, { as: null, json: body, headers });
/** The `name=value` of the session cookie a Set-Cookie header sets. */
const sessionOf = (setCookie: string | null) => /lineage-session=[^;]+/.exec(setCookie ?? "")?.[0];

describe("POST /api/v2/authent/sessions/<login>", () => {
  it("opens a session whose cookie authenticates the API on every node, until DELETE /sessions/current closes it", async () => {
    const opened = await open(first, "alice", { password: "alice-pw" });
    expect(opened.status, opened.text).toBe(200);
    expect(opened.json.data).toEqual({ login: "alice" });
    const setCookie = opened.headers.get("set-cookie");
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    const cookie = sessionOf(setCookie)!;
    expect(cookie).toBeDefined();

    const read = await last.call("GET", "/api/v2/smart-elements/NOTE_A.json", { as: null, headers: { cookie } });
    expect(read.status, read.text).toBe(200);

    const closed = await last.call("DELETE", "/api/v2/authent/sessions/current", { as: null, headers: { cookie } });
    expect(closed.status, closed.text).toBe(200);
    expect(closed.json.data).toEqual({ basicAuthent: false });
    expect(closed.headers.get("set-cookie")).toMatch(/lineage-session=;/);
    expect(codeOf(await first.call("GET", "/api/v2/smart-elements/NOTE_A.json", { as: null, headers: { cookie } }))).toEqual([401, "AUTH0401"]);
  });

  it("answers the original's codes for a missing or wrong password, and refuses another site's page", async () => {
    expect(codeOf(await open(live.api, "alice", {}))).toEqual([403, "AUTH0001"]);
    expect(codeOf(await open(live.api, "alice", { password: "" }))).toEqual([403, "AUTH0001"]);
    const wrong = await open(live.api, "alice", { password: "nope" });
    expect(codeOf(wrong)).toEqual([403, "AUTH0002"]);
    expect(wrong.json.messages[0].contentText).toBe("Username and/or password is incorrect");
    expect(wrong.headers.get("set-cookie")).toBeNull();
    // The same answer for a login that does not exist.
    expect(codeOf(await open(live.api, "nobody", { password: "nope" }))).toEqual([403, "AUTH0002"]);
    expect(codeOf(await open(live.api, "alice", { password: 12 }))).toEqual([400, "API0009"]);
    expect(codeOf(await live.api.call("POST", "/api/v2/authent/sessions/alice", { as: null, body: "{", headers: { "content-type": "application/json" } }))).toEqual([400, "API0009"]);
    expect(codeOf(await open(live.api, "alice", { password: "alice-pw" }, { origin: "https://elsewhere.example" }))).toEqual([403, "AUTH0403"]);
    // A form does as well as JSON.
    const form = await live.api.call("POST", "/api/v2/authent/sessions/alice", {
      as: null, body: "password=alice-pw", headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect([form.status, form.json.data.login]).toEqual([200, "alice"]);
    // Closing needs credentials like any API request; with Basic, it says so.
    expect(codeOf(await live.api.call("DELETE", "/api/v2/authent/sessions/current", { as: null }))).toEqual([401, "AUTH0401"]);
    expect((await live.api.call("DELETE", "/api/v2/authent/sessions/current", { as: ["alice", "alice-pw"] })).json.data).toEqual({ basicAuthent: true });
  });

  it("counts its failures against the throttle the login form and Basic share", async () => {
    for (let i = 0; i < 3; i++) expect(codeOf(await open(first, "bob", { password: `wrong-${i}` }))).toEqual([403, "AUTH0002"]);
    const throttled = await open(last, "bob", { password: "bob-pw" });
    expect(codeOf(throttled)).toEqual([429, "AUTH0429"]);
    expect(Number(throttled.headers.get("retry-after"))).toBeGreaterThan(0);
    // Basic is refused too: one count per login, whatever the way in.
    expect(codeOf(await live.api.call("GET", "/api/v2/smart-elements/NOTE_A.json", { as: ["bob", "bob-pw"] }))).toEqual([429, "AUTH0429"]);
  });
});
