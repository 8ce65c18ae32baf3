import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "../src/api-client.ts";
import { bundleSeed, startLiveServer, type LiveServer } from "../src/live-server.ts";

// Locks on elements over a real server, as the original's lock routes answer: take, read and release a permanent or
// temporary lock, the refusals of the other accounts' changes while it is held; on PostgreSQL, through two nodes.

const BUNDLE = {
  accounts: {
    roles: [{ id: "team" }],
    users: [
      { login: "admin", password: "admin-pw", roles: ["admin"] },
      { login: "alice", password: "alice-pw", roles: ["team"], displayName: "Alice Martin" },
      { login: "bob", password: "bob-pw", roles: ["team"], displayName: "Bob Stone" },
      { login: "reader", password: "reader-pw", roles: ["team"] },
    ],
  },
  profiles: [
    { name: "PRF_NOTE", grants: { view: ["role:team"], edit: ["user:alice", "user:bob"], delete: ["user:alice", "user:bob"] } },
    { name: "PRF_HIDDEN", grants: { view: ["user:bob"], edit: ["user:bob"] } },
  ],
  structures: [
    { name: "NOTE", profile: "PRF_NOTE", titleField: "n_title", fields: [{ id: "n_title", type: "text" }] },
    { name: "MEMO", profile: "PRF_NOTE", titleField: "m_title", fields: [{ id: "m_title", type: "text" }] },
  ],
  elements: [
    { structure: "NOTE", name: "NOTE_A", values: { n_title: "Alpha" } },
    { structure: "NOTE", name: "NOTE_B", values: { n_title: "Bravo" } },
    { structure: "NOTE", name: "NOTE_C", values: { n_title: "Charlie" } },
    { structure: "NOTE", name: "NOTE_RACE", values: { n_title: "Race" } },
    { structure: "NOTE", name: "NOTE_HIDDEN", profile: "PRF_HIDDEN", values: { n_title: "Hidden" } },
  ],
};

const ALICE: [string, string] = ["alice", "alice-pw"];
const BOB: [string, string] = ["bob", "bob-pw"];
const READER: [string, string] = ["reader", "reader-pw"];
const ADMIN: [string, string] = ["admin", "admin-pw"];

let live: LiveServer<Awaited<ReturnType<ReturnType<typeof bundleSeed>>>>;
/** A client of each node: on PostgreSQL, the first and the last are two processes' worth of platform over one database. */
let first: ReturnType<typeof apiClient>;
let last: ReturnType<typeof apiClient>;
let aliceId: number;

beforeAll(async () => {
  live = await startLiveServer(bundleSeed(BUNDLE));
  first = apiClient(live.nodeUrls[0]!);
  last = apiClient(live.nodeUrls[live.nodeUrls.length - 1]!);
  aliceId = (await live.seed.store.accounts.byLogin("alice"))!.id;
});

afterAll(async () => {
  await live.close();
});

const codeOf = (answer: { status: number; json: any }) => [answer.status, answer.json?.messages?.[0]?.code];
const put = (client: ReturnType<typeof apiClient>, name: string, as: [string, string], title: string) =>
  client.call("PUT", `/api/v2/smart-elements/${name}`, { as, json: { document: { attributes: { n_title: { value: title } } } } });

describe("a permanent lock", () => {
  it("is none at first, then the taker's, held on every node against the others' changes", async () => {
    const none = await first.call("GET", "/api/v2/smart-elements/NOTE_A/locks/permanent", { as: ALICE });
    expect(none.status, none.text).toBe(200);
    expect(none.json.data).toEqual({ readOnly: false, uri: "/api/v2/smart-elements/NOTE_A/locks/permanent", lock: null });

    const taken = await first.call("POST", "/api/v2/smart-elements/NOTE_A/locks/permanent", { as: ALICE });
    expect(taken.status, taken.text).toBe(201);
    expect(taken.json.data).toEqual({
      readOnly: false, uri: "/api/v2/smart-elements/NOTE_A/locks/permanent",
      lock: { lockedBy: { id: aliceId, title: "Alice Martin" }, isMyLock: true, temporary: false, fixed: false },
    });

    // The other node sees it at once.
    const seen = await last.call("GET", "/api/v2/smart-elements/NOTE_A/locks/", { as: BOB });
    expect(seen.json.data).toEqual({
      readOnly: true, uri: "/api/v2/smart-elements/NOTE_A/locks/",
      lock: { lockedBy: { id: aliceId, title: "Alice Martin" }, isMyLock: false, temporary: false, fixed: false },
    });
    const properties = await last.call("GET", "/api/v2/smart-elements/NOTE_A.json?fields=document.properties.locked,document.properties.security", { as: BOB });
    expect(properties.json.data.document.properties.locked).toBe(aliceId);
    expect(properties.json.data.document.properties.security).toMatchObject({ lock: { id: aliceId, temporary: false }, readOnly: true });

    // Bob may edit the element, but not while Alice holds the lock: PUT, DELETE, a lock of his own, its release.
    const refused = await put(last, "NOTE_A", BOB, "Bob's");
    expect(codeOf(refused)).toEqual([403, "CRUD0201"]);
    expect(refused.json.messages[0].contentText).toBe("Update forbidden");
    expect(refused.json.exceptionMessage).toContain('locked by "Alice Martin"');
    expect(codeOf(await last.call("DELETE", "/api/v2/smart-elements/NOTE_A", { as: BOB }))).toEqual([400, "ROUTES0111"]);
    expect(codeOf(await last.call("POST", "/api/v2/smart-elements/NOTE_A/locks/permanent", { as: BOB }))).toEqual([400, "CRUD0231"]);
    expect(codeOf(await last.call("PUT", "/api/v2/smart-elements/NOTE_A/locks/temporary", { as: BOB }))).toEqual([400, "CRUD0231"]);
    expect(codeOf(await last.call("DELETE", "/api/v2/smart-elements/NOTE_A/locks/", { as: BOB }))).toEqual([400, "CRUD0232"]);
    expect((await live.api.call("GET", "/api/v2/smart-elements/NOTE_A.json", { as: BOB })).json.data.document.attributes.n_title.value).toBe("Alpha");

    // Alice changes it; a temporary release does not touch her permanent lock.
    const changed = await put(last, "NOTE_A", ALICE, "Alpha 2");
    expect(changed.status, changed.text).toBe(200);
    expect(codeOf(await first.call("DELETE", "/api/v2/smart-elements/NOTE_A/locks/temporary", { as: ALICE }))).toEqual([400, "CRUD0233"]);
    // PUT takes it again (200): nothing changes.
    const again = await last.call("PUT", "/api/v2/smart-elements/NOTE_A/locks/permanent", { as: ALICE });
    expect([again.status, again.json.data.lock.temporary]).toEqual([200, false]);

    const released = await last.call("DELETE", "/api/v2/smart-elements/NOTE_A/locks/permanent", { as: ALICE });
    expect(released.status, released.text).toBe(200);
    expect(released.json.data).toEqual({ readOnly: false, uri: "/api/v2/smart-elements/NOTE_A/locks/permanent", lock: null });
    expect((await put(first, "NOTE_A", BOB, "Bob's")).status).toBe(200);
    const unlocked = await first.call("GET", "/api/v2/smart-elements/NOTE_A.json?fields=document.properties.locked", { as: BOB });
    expect(unlocked.json.data.document.properties.locked).toBe(0);
  });

  it("is released by an administrator, who may also change a locked element", async () => {
    expect((await first.call("POST", "/api/v2/smart-elements/NOTE_B/locks/permanent", { as: ALICE })).status).toBe(201);
    const changed = await last.call("PUT", "/api/v2/smart-elements/NOTE_B", { as: ADMIN, json: { document: { attributes: { n_title: { value: "Bravo 2" } } } } });
    expect(changed.status, changed.text).toBe(200);
    const released = await last.call("DELETE", "/api/v2/smart-elements/NOTE_B/locks/", { as: ADMIN });
    expect([released.status, released.json.data.lock]).toEqual([200, null]);
    expect((await put(first, "NOTE_B", BOB, "Bravo 3")).status).toBe(200);
  });
});

describe("a temporary lock", () => {
  it("is taken where there is none, shown negative, replaced by its holder's permanent lock, and released by /locks/", async () => {
    const taken = await first.call("POST", "/api/v2/smart-elements/NOTE_C/locks/temporary", { as: ALICE });
    expect(taken.status, taken.text).toBe(201);
    expect(taken.json.data).toEqual({
      readOnly: false, uri: "/api/v2/smart-elements/NOTE_C/locks/temporary",
      lock: { lockedBy: { id: aliceId, title: "Alice Martin" }, isMyLock: true, temporary: true, fixed: false },
    });
    const seen = await last.call("GET", "/api/v2/smart-elements/NOTE_C.json?fields=document.properties.locked", { as: BOB });
    expect(seen.json.data.document.properties.locked).toBe(-aliceId);
    const refused = await put(last, "NOTE_C", BOB, "No");
    expect(codeOf(refused)).toEqual([403, "CRUD0201"]);
    expect(refused.json.exceptionMessage).toContain("in edition by Alice Martin");
    expect(codeOf(await last.call("POST", "/api/v2/smart-elements/NOTE_C/locks/temporary", { as: BOB }))).toEqual([400, "CRUD0231"]);
    expect(codeOf(await first.call("DELETE", "/api/v2/smart-elements/NOTE_C/locks/permanent", { as: ALICE }))).toEqual([400, "CRUD0234"]);

    const permanent = await last.call("POST", "/api/v2/smart-elements/NOTE_C/locks/permanent", { as: ALICE });
    expect([permanent.status, permanent.json.data.lock.temporary]).toEqual([201, false]);
    // A temporary lock never weakens a permanent one.
    const kept = await first.call("POST", "/api/v2/smart-elements/NOTE_C/locks/temporary", { as: ALICE });
    expect([kept.status, kept.json.data.lock.temporary, kept.json.data.uri]).toEqual([201, false, "/api/v2/smart-elements/NOTE_C/locks/permanent"]);

    const released = await last.call("DELETE", "/api/v2/smart-elements/NOTE_C/locks/", { as: ALICE });
    expect(released.json.data).toEqual({ readOnly: false, uri: "/api/v2/smart-elements/NOTE_C/locks/", lock: null });
    // Nothing to release: still 200.
    expect((await first.call("DELETE", "/api/v2/smart-elements/NOTE_C/locks/temporary", { as: BOB })).status).toBe(200);
  });
});

describe("the lock routes' refusals", () => {
  it("answer the original's codes", async () => {
    expect(codeOf(await live.api.call("GET", "/api/v2/smart-elements/NOPE/locks/permanent", { as: ALICE }))).toEqual([404, "CRUD0200"]);
    expect(codeOf(await live.api.call("POST", "/api/v2/smart-elements/NOTE_HIDDEN/locks/permanent", { as: ALICE }))).toEqual([403, "CRUD0201"]);
    // The reader may view, not edit: no lock of theirs.
    const reader = await live.api.call("GET", "/api/v2/smart-elements/NOTE_A/locks/", { as: READER });
    expect([reader.status, reader.json.data.readOnly]).toEqual([200, true]);
    expect(codeOf(await live.api.call("POST", "/api/v2/smart-elements/NOTE_A/locks/temporary", { as: READER }))).toEqual([400, "CRUD0231"]);
    // The structure variant checks the family.
    expect((await live.api.call("GET", "/api/v2/smart-structures/NOTE/smart-elements/NOTE_A/locks/permanent", { as: ALICE })).status).toBe(200);
    expect(codeOf(await live.api.call("GET", "/api/v2/smart-structures/MEMO/smart-elements/NOTE_A/locks/permanent", { as: ALICE }))).toEqual([404, "CRUD0220"]);
    expect(codeOf(await live.api.call("GET", "/api/v2/smart-structures/NOPE/smart-elements/NOTE_A/locks/", { as: ALICE }))).toEqual([404, "ROUTES0105"]);
    // In the trash.
    expect((await live.api.call("DELETE", "/api/v2/smart-elements/NOTE_B", { as: BOB })).status).toBe(200);
    expect(codeOf(await live.api.call("POST", "/api/v2/smart-elements/NOTE_B/locks/permanent", { as: BOB }))).toEqual([404, "CRUD0219"]);
  });

  it("leave one holder when two accounts take the same lock at once through two nodes", async () => {
    const answers = await Promise.all([
      first.call("POST", "/api/v2/smart-elements/NOTE_RACE/locks/permanent", { as: ALICE }),
      last.call("POST", "/api/v2/smart-elements/NOTE_RACE/locks/permanent", { as: BOB }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 400]);
    const winner = answers.find((answer) => answer.status === 201)!.json.data.lock.lockedBy.title;
    const seen = await live.api.call("GET", "/api/v2/smart-elements/NOTE_RACE/locks/", { as: READER });
    expect(seen.json.data.lock.lockedBy.title).toBe(winner);
  });
});
