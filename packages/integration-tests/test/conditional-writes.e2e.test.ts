import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lifecyclePlatform } from "@lineage/core/testing";
import { startLiveServer, type LiveServer } from "../src/live-server.ts";

/*
 * Optimistic concurrency over a real server (docs/concurrency.md): PUT, DELETE, restore and the
 * lifecycle POSTs honour If-Match (412 CRUD0238, nothing written, on a stale tag), and PUT, restore
 * and state changes answer the element's new ETag, the one a following GET gives.
 */

type Seed = Awaited<ReturnType<typeof lifecyclePlatform>>;
let live: LiveServer<Seed>;
let api: LiveServer<Seed>["api"];
let seed: Seed;

beforeAll(async () => {
  live = await startLiveServer(lifecyclePlatform);
  ({ api, seed } = live);
});
afterAll(() => live.close());

const ALICE: [string, string] = ["alice", "alice-pw"];
const BOB: [string, string] = ["bob", "bob-pw"];
const errorOf = (answer: { status: number; json: any }) => [answer.status, answer.json?.messages?.[0]?.code];
const titleBody = (title: string) => ({ document: { attributes: { ar_title: { value: title } } } });

let count = 0;
/** A fresh article in draft, so tests do not depend on each other. */
async function newArticle(): Promise<{ initid: number; uri: string }> {
  const created = await seed.platform.elements.create(await seed.principal("admin"), { structure: "ARTICLE", values: { ar_title: `Concurrent ${++count}` } });
  return { initid: created.initid, uri: `/api/v2/smart-elements/${created.initid}` };
}

/** GET of the element: its ETag (for this login), title, revision, state and history length. */
async function look(uri: string, as?: [string, string]) {
  const answer = await api.call("GET", `${uri}?fields=document.properties.all,document.attributes.ar_title`, as ? { as } : {});
  expect(answer.status).toBe(200);
  const { properties, attributes } = answer.json.data.document;
  const history = (await api.call("GET", `${uri}/history/`)).json.data.history;
  return {
    etag: answer.headers.get("etag") as string,
    title: attributes.ar_title.value,
    revision: properties.revision,
    state: properties.state?.reference ?? null,
    entries: history.flatMap((h: any) => h.messages).length,
  };
}

describe("PUT with If-Match", () => {
  it("a stale ETag: 412 CRUD0238 with the envelope, and nothing written", async () => {
    const { uri } = await newArticle();
    const before = await look(uri);
    const first = await api.call("PUT", uri, { json: titleBody("First edit"), headers: { "if-match": before.etag } });
    expect(first.status).toBe(200);
    const afterFirst = await look(uri);
    const stale = await api.call("PUT", uri, { json: titleBody("Lost edit"), headers: { "if-match": before.etag } });
    expect(errorOf(stale)).toEqual([412, "CRUD0238"]);
    expect(stale.json).toMatchObject({ success: false, data: null, messages: [{ type: "error", contentText: expect.stringContaining("If-Match") }] });
    expect(await look(uri)).toEqual(afterFirst);
  });

  it("answers the element's new ETag, the one a following GET gives, and takes it for the next PUT", async () => {
    const { uri } = await newArticle();
    let etag = (await look(uri)).etag;
    for (const title of ["One", "Two", "Three"]) {
      const answer = await api.call("PUT", uri, { json: titleBody(title), headers: { "if-match": etag } });
      expect(answer.status).toBe(200);
      const answered = answer.headers.get("etag") as string;
      expect(answered).not.toBe(etag);
      expect(answered).toBe((await look(uri)).etag);
      etag = answered;
    }
    expect((await look(uri)).title).toBe("Three");
    // Without If-Match a PUT is unconditional, as before; its answer carries the ETag too.
    const plain = await api.call("PUT", uri, { json: titleBody("Four") });
    expect([plain.status, plain.headers.get("etag")]).toEqual([200, (await look(uri)).etag]);
  });

  it("two PUTs sent at once with the same ETag: one 200, one 412, and the 200's value is kept", async () => {
    for (let round = 0; round < 5; round++) {
      const { uri } = await newArticle();
      const { etag } = await look(uri);
      const answers = await Promise.all(["Left", "Right"].map((title) => api.call("PUT", uri, { json: titleBody(`${title} ${round}`), headers: { "if-match": etag } })));
      expect(answers.map((a) => a.status).sort()).toEqual([200, 412]);
      const winner = answers.find((a) => a.status === 200);
      expect((await look(uri)).title).toBe(winner?.json.data.document.attributes.ar_title.value);
    }
  });

  it("* matches any existing element; a list matches when one of its tags does; weak tags never do (RFC 9110)", async () => {
    const { uri } = await newArticle();
    expect((await api.call("PUT", uri, { json: titleBody("Star"), headers: { "if-match": "*" } })).status).toBe(200);
    const { etag } = await look(uri);
    const weak = await api.call("PUT", uri, { json: titleBody("Weak"), headers: { "if-match": `W/${etag}` } });
    expect(errorOf(weak)).toEqual([412, "CRUD0238"]);
    const listed = await api.call("PUT", uri, { json: titleBody("Listed"), headers: { "if-match": `"nope", "x,y", ${etag}` } });
    expect(listed.status).toBe(200);
    const family = `/api/v2/smart-structures/ARTICLE/smart-elements/${uri.split("/").pop()}`;
    expect(errorOf(await api.call("PUT", family, { json: titleBody("Stale"), headers: { "if-match": etag } }))).toEqual([412, "CRUD0238"]);
    expect((await api.call("PUT", family, { json: titleBody("Fresh"), headers: { "if-match": listed.headers.get("etag") as string } })).status).toBe(200);
    expect((await look(uri)).title).toBe("Fresh");
  });

  it("the ETag is the caller's: another user's ETag does not match; 404 and 403 come before 412", async () => {
    const { uri } = await newArticle();
    const alices = await look(uri, ALICE);
    expect(alices.etag).not.toBe((await look(uri)).etag);
    expect(errorOf(await api.call("PUT", uri, { json: titleBody("Admin"), headers: { "if-match": alices.etag } }))).toEqual([412, "CRUD0238"]);
    expect((await api.call("PUT", uri, { as: ALICE, json: titleBody("Alice"), headers: { "if-match": alices.etag } })).status).toBe(200);
    expect(errorOf(await api.call("PUT", "/api/v2/smart-elements/NO_SUCH", { json: titleBody("x"), headers: { "if-match": '"stale"' } }))).toEqual([404, "ROUTES0100"]);
    expect(errorOf(await api.call("PUT", uri, { as: BOB, json: titleBody("x"), headers: { "if-match": '"stale"' } }))).toEqual([403, "CRUD0201"]);
  });
});

describe("DELETE and restore with If-Match", () => {
  it("a stale ETag leaves the element where it is; the current one moves it", async () => {
    const { uri, initid } = await newArticle();
    const before = await look(uri);
    await api.call("PUT", uri, { json: titleBody("Changed") });
    expect(errorOf(await api.call("DELETE", uri, { headers: { "if-match": before.etag } }))).toEqual([412, "CRUD0238"]);
    const current = await look(uri);
    const deleted = await api.call("DELETE", uri, { headers: { "if-match": current.etag } });
    expect(deleted.status).toBe(200);

    const trash = `/api/v2/trash/${initid}`;
    const inTrash = (await api.call("GET", trash)).headers.get("etag") as string;
    const restore = { document: { properties: { status: "alive" } } };
    expect(errorOf(await api.call("PUT", trash, { json: restore, headers: { "if-match": current.etag } }))).toEqual([412, "CRUD0238"]);
    expect((await api.call("GET", uri)).status).toBe(404);
    const restored = await api.call("PUT", trash, { json: restore, headers: { "if-match": inTrash } });
    expect(restored.status).toBe(200);
    expect(restored.headers.get("etag")).toBe((await look(uri)).etag);
  });
});

describe("lifecycle POSTs with If-Match", () => {
  it("a stale ETag: 412 and the element keeps its state, revisions and history", async () => {
    const { uri } = await newArticle();
    const before = await look(uri);
    await api.call("PUT", uri, { json: titleBody("Edited meanwhile") });
    const meanwhile = await look(uri);
    for (const path of ["transitions/submit", "states/review"]) {
      const answer = await api.call("POST", `${uri}/workflows/${path}`, { json: { comment: "go" }, headers: { "if-match": before.etag } });
      expect(errorOf(answer)).toEqual([412, "CRUD0238"]);
    }
    expect(await look(uri)).toEqual(meanwhile);
    const run = await api.call("POST", `${uri}/workflows/transitions/submit`, { json: { comment: "go" }, headers: { "if-match": meanwhile.etag } });
    expect(run.status).toBe(200);
    const after = await look(uri);
    expect([after.state, after.revision]).toEqual(["review", meanwhile.revision + 1]);
    expect(run.headers.get("etag")).toBe(after.etag);
  });

  it("two state changes sent at once with the same ETag: one 200, one 412", async () => {
    const { uri } = await newArticle();
    const { etag, revision } = await look(uri);
    // Without If-Match the admin's second change would be forced (no transition leads from review to review).
    const answers = await Promise.all([0, 1].map(() => api.call("POST", `${uri}/workflows/states/review`, { headers: { "if-match": etag } })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 412]);
    const after = await look(uri);
    expect([after.state, after.revision]).toEqual(["review", revision + 1]);
    expect(answers.find((a) => a.status === 200)?.headers.get("etag")).toBe(after.etag);
  });
});
