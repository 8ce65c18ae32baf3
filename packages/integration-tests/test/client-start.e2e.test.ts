import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleSeed, startLiveServer, type LiveServer } from "../src/live-server.ts";

// What a client reads to start: the Smart Structures the caller may view (GET /api/v2/smart-structures/) and the
// caller's own account (GET /api/v2/ui/users/current), over a real server.

const BUNDLE = {
  accounts: {
    roles: [{ id: "team" }, { id: "auditor" }],
    groups: [{ id: "audit", roles: ["auditor"] }],
    users: [
      { login: "admin", password: "admin-pw", roles: ["admin"] },
      { login: "alice", password: "alice-pw", roles: ["team"], groups: ["audit"], displayName: "Alice Martin", locale: "fr" },
      { login: "bob", password: "bob-pw", roles: ["team"], rights: ["GET"] },
    ],
  },
  profiles: [
    { name: "PRF_NOTE", grants: { view: ["role:team"], edit: ["role:team"], delete: ["role:team"] } },
    { name: "PRF_AUDIT", grants: { view: ["role:auditor"] } },
  ],
  structures: [
    { name: "NOTE", title: { en: "Notes", fr: "Notes" }, profile: "PRF_NOTE", icon: "note.png", titleField: "n_title", fields: [{ id: "n_title", type: "text" }] },
    { name: "MEMO", title: "Memos", extends: "NOTE", fields: [{ id: "m_more", type: "text" }] },
    { name: "AUDIT", title: "Audits", profile: "PRF_AUDIT", titleField: "a_title", fields: [{ id: "a_title", type: "text" }] },
  ],
  elements: [
    { structure: "NOTE", name: "NOTE_A", values: { n_title: "Alpha" } },
    { structure: "NOTE", name: "NOTE_B", values: { n_title: "Bravo" } },
    { structure: "MEMO", name: "MEMO_C", values: { n_title: "Charlie" } },
    { structure: "AUDIT", name: "AUDIT_D", values: { a_title: "Delta" } },
  ],
};

let live: LiveServer<Awaited<ReturnType<ReturnType<typeof bundleSeed>>>>;

beforeAll(async () => {
  live = await startLiveServer(bundleSeed(BUNDLE));
  expect((await live.api.call("DELETE", "/api/v2/smart-elements/NOTE_B", { as: ["alice", "alice-pw"] })).status).toBe(200);
});

afterAll(async () => {
  await live.close();
});

describe("GET /api/v2/smart-structures/", () => {
  const listed = async (as: [string, string]) => {
    const answer = await live.api.call("GET", "/api/v2/smart-structures/", { as });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.json.data.uri).toBe("/api/v2/smart-structures/");
    return answer.json.data.structures.filter((s: { name: string }) => !["DIR", "SEARCH", "REPORT"].includes(s.name));
  };

  it("lists the structures the caller may view, by title, with their parent, icon and counts", async () => {
    const alice = await listed(["alice", "alice-pw"]);
    expect(alice.map((s: { name: string }) => s.name)).toEqual(["AUDIT", "MEMO", "NOTE"]);
    const note = alice.find((s: { name: string }) => s.name === "NOTE");
    expect(note).toMatchObject({ title: "Notes", parent: null, uri: "/api/v2/smart-structures/NOTE", counts: { alive: 1, deleted: 1 } });
    expect(note.icon).toContain("note.png");
    expect(typeof note.id).toBe("number");
    expect(alice.find((s: { name: string }) => s.name === "MEMO")).toMatchObject({ parent: "NOTE", counts: { alive: 1, deleted: 0 } });
    // Bob is no auditor: AUDIT is not his to see.
    expect((await listed(["bob", "bob-pw"])).map((s: { name: string }) => s.name)).toEqual(["MEMO", "NOTE"]);
    // The same without the slash.
    expect((await live.api.call("GET", "/api/v2/smart-structures", { as: ["bob", "bob-pw"] })).status).toBe(200);
  });
});

describe("GET /api/v2/ui/users/current", () => {
  it("answers the caller's own account, its roles those of its groups too", async () => {
    const alice = await live.api.call("GET", "/api/v2/ui/users/current", { as: ["alice", "alice-pw"] });
    expect(alice.status, alice.text).toBe(200);
    expect(alice.json.data).toEqual({
      id: (await live.seed.store.accounts.byLogin("alice"))!.id, login: "alice", displayName: "Alice Martin", locale: "fr",
      roles: ["auditor", "team"], groups: ["audit"], rights: ["GET", "PUT", "POST", "DELETE"], isAdmin: false,
    });
    const bob = await live.api.call("GET", "/api/v2/ui/users/current", { as: ["bob", "bob-pw"] });
    expect(bob.json.data).toMatchObject({ login: "bob", displayName: "bob", roles: ["team"], groups: [], rights: ["GET"] });
    expect((await live.api.call("GET", "/api/v2/ui/users/current", { as: null })).status).toBe(401);
  });
});
