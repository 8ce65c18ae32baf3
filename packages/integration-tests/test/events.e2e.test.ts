import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lifecyclePlatform } from "@lineage/core/testing";
import { openEventStream, type EventStreamClient } from "../src/event-stream.ts";
import { startLiveServer, type LiveServer } from "../src/live-server.ts";

// The event log over a real server (docs/events.md): GET /api/v2/events/ with the reader's rights,
// its refusals and 410 after pruning, and the live stream (Server-Sent Events) read by a real
// client, resumed with Last-Event-ID, and fed by the other node's writes within 1 s on PostgreSQL.

type Seed = Awaited<ReturnType<typeof lifecyclePlatform>>;
let live: LiveServer<Seed>;
let api: LiveServer<Seed>["api"];

/** A short keep-alive, so that a test sees several. */
const KEEP_ALIVE_MS = 400;

beforeAll(async () => {
  live = await startLiveServer(lifecyclePlatform, { eventKeepAliveMs: KEEP_ALIVE_MS });
  ({ api } = live);
});

afterAll(() => live.close());

const ADMIN: [string, string] = ["admin", "admin-pw"];
const ALICE: [string, string] = ["alice", "alice-pw"];
const BOB: [string, string] = ["bob", "bob-pw"];
const CAROL: [string, string] = ["carol", "carol-pw"];
const errorOf = (response: { status: number; json: any }) => [response.status, response.json?.messages?.[0]?.code];
const authorization = ([login, password]: [string, string]) => ({ authorization: api.basic(login, password) });

/** The seq after which new events will come: the last one an admin can read now. */
async function lastSeq(): Promise<number> {
  let after = 0;
  for (;;) {
    const { json } = await api.call("GET", `/api/v2/events/?after=${after}&slice=1000`, { as: ADMIN });
    if (json.data.last === after) return after;
    after = json.data.last;
  }
}

/** Every event after `after` the caller may read (pages of `slice`). */
async function eventsAfter(after: number, as: [string, string] = ADMIN, query = ""): Promise<any[]> {
  const events: any[] = [];
  for (;;) {
    const response = await api.call("GET", `/api/v2/events/?after=${after}&slice=2${query}`, { as });
    expect(response.status).toBe(200);
    events.push(...response.json.data.events);
    if (response.json.data.last === after) return events;
    after = response.json.data.last;
  }
}

let count = 0;
/** A fresh article, written through the API, so that tests do not share elements. */
async function newArticle(title = `Events ${++count}`): Promise<number> {
  const created = await api.call("POST", "/api/v2/smart-structures/ARTICLE/smart-elements/", { as: ALICE, json: { document: { attributes: { ar_title: { value: title } } } } });
  expect(created.status).toBe(201);
  return created.json.data.document.properties.initid as number;
}

describe("GET /api/v2/events/", () => {
  it("gives what each write committed, in seq order, with what changed and who changed it; `last` to go on", async () => {
    const start = await lastSeq();
    const initid = await newArticle("Before");
    await api.call("PUT", `/api/v2/smart-elements/${initid}`, { as: ALICE, json: { document: { attributes: { ar_title: { value: "After" }, ar_words: { value: 12 } } } } });
    await api.call("POST", `/api/v2/smart-elements/${initid}/workflows/transitions/submit`, { as: ALICE, json: { comment: "ready" } });
    await api.call("DELETE", `/api/v2/smart-elements/${initid}`, { as: ADMIN });
    await api.call("PUT", `/api/v2/trash/${initid}`, { as: ADMIN, json: { document: { properties: { status: "alive" } } } });

    const events = await eventsAfter(start);
    expect(events.map((e) => [e.type, e.initid, e.actor])).toEqual([
      ["element.created", initid, "alice"],
      ["element.updated", initid, "alice"],
      ["element.state", initid, "alice"],
      ["element.deleted", initid, "admin"],
      ["element.restored", initid, "admin"],
    ]);
    const seqs = events.map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(events[1]).toMatchObject({
      structure: "ARTICLE", name: null, revision: 0, state: "draft",
      changes: { ar_title: { before: "Before", after: "After" }, ar_words: { before: null, after: 12 } },
    });
    expect(events[2]).toMatchObject({ revision: 1, state: "review", transition: { id: "submit", from: "draft", to: "review" }, changes: {} });
    expect(Date.parse(events[0].time)).not.toBeNaN();

    const page = await api.call("GET", `/api/v2/events/?after=${start}&slice=2`, { as: ADMIN });
    expect(page.json).toMatchObject({ success: true, messages: [] });
    expect(page.json.data.events.map((e: any) => e.seq)).toEqual(seqs.slice(0, 2));
    expect(page.json.data.last).toBe(seqs[1]);
  });

  it("shows an event only to readers who may view its element, without the fields they may not see", async () => {
    const start = await lastSeq();
    const initid = await newArticle();
    // Written through the platform as an embedding app or the console would: the invisible field too.
    await live.seed.platform.elements.update(await live.seed.principal("admin"), String(initid), { values: { ar_title: "Secret kept", ar_secret: "sesame" }, writeReadOnly: true });
    for (const reader of [ADMIN, ALICE, BOB]) {
      const events = await eventsAfter(start, reader);
      expect(events.map((e) => e.type)).toEqual(["element.created", "element.updated"]);
      expect(events[1].changes).toEqual({ ar_title: { before: `Events ${count}`, after: "Secret kept" } });
    }
    // carol has no role: ARTICLE's profile lets her view nothing of it, and `last` still moves past.
    const hidden = await api.call("GET", `/api/v2/events/?after=${start}`, { as: CAROL });
    expect(hidden.json.data.events).toEqual([]);
    expect(hidden.json.data.last).toBeGreaterThan(start);
    expect(JSON.stringify(await eventsAfter(start))).not.toContain("sesame");
  });

  it("filters by types and structure", async () => {
    const start = await lastSeq();
    const initid = await newArticle();
    await api.call("DELETE", `/api/v2/smart-elements/${initid}`, { as: ADMIN });
    await api.call("PUT", "/api/v2/smart-elements/AUTHOR_ADA", { as: ADMIN, json: { document: { attributes: { au_name: { value: `Ada ${count}` } } } } });
    const types = async (query: string) => (await eventsAfter(start, ADMIN, query)).map((e) => `${e.type} ${e.structure}`);
    expect(await types("&types=element.deleted")).toEqual(["element.deleted ARTICLE"]);
    expect(await types("&types=element.created,element.deleted&structure=ARTICLE")).toEqual(["element.created ARTICLE", "element.deleted ARTICLE"]);
    expect(await types("&structure=AUTHOR")).toEqual(["element.updated AUTHOR"]);
  });

  it("refuses bad parameters with 400 EVENT0400, saying what is wrong", async () => {
    for (const query of ["after=-3", "after=abc", "slice=0", "slice=1001", "types=element.exploded", "structure=NOPE"]) {
      const response = await api.call("GET", `/api/v2/events/?${query}`, { as: ADMIN });
      expect(errorOf(response), query).toEqual([400, "EVENT0400"]);
      expect(response.json.messages[0].contentText).toMatch(/^Invalid events query: /);
    }
  });

  it("answers JSON only: Accept text/event-stream is for the stream", async () => {
    expect(errorOf(await api.call("GET", "/api/v2/events/", { as: ADMIN, headers: { accept: "text/event-stream" } }))).toEqual([400, "API0006"]);
    expect(errorOf(await api.call("GET", "/api/v2/smart-elements/", { as: ADMIN, headers: { accept: "text/event-stream" } }))).toEqual([400, "API0006"]);
    expect(errorOf(await api.call("GET", "/api/v2/events/", { as: null }))).toEqual([401, "AUTH0401"]);
  });
});

describe("GET /api/v2/events/stream", () => {
  const streams: EventStreamClient[] = [];
  const open = async (query: string, as: [string, string] = ADMIN, headers: Record<string, string> = {}, url = live.url) => {
    const stream = await openEventStream(`${url}/api/v2/events/stream${query}`, { ...authorization(as), ...headers });
    streams.push(stream);
    return stream;
  };
  afterAll(() => {
    for (const stream of streams) stream.close();
  });

  it("sends each event as it commits, within 1 s: id the seq, event the type, data the event; and keep-alive comments", async () => {
    const start = await lastSeq();
    const stream = await open(`?after=${start}`);
    expect(stream.response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(stream.response.headers.get("cache-control")).toMatch(/no-cache/);
    await stream.waitFor((frame) => frame.comment === "keep-alive");
    const written = Date.now();
    const initid = await newArticle();
    const frame = await stream.waitFor((f) => f.event === "element.created", 1000 + (Date.now() - written));
    const event = JSON.parse(frame.data!);
    expect(event).toMatchObject({ type: "element.created", initid, actor: "alice" });
    expect(frame.id).toBe(String(event.seq));
    expect(event.seq).toBeGreaterThan(start);
    // Several keep-alives, one every KEEP_ALIVE_MS.
    await new Promise((resolve) => setTimeout(resolve, KEEP_ALIVE_MS * 2.5));
    expect(stream.frames.filter((f) => f.comment === "keep-alive").length).toBeGreaterThanOrEqual(3);
  });

  it("sends the events after `after` first, then the new ones; with types and structure applied", async () => {
    const start = await lastSeq();
    const first = await newArticle();
    await api.call("DELETE", `/api/v2/smart-elements/${first}`, { as: ADMIN });
    const stream = await open(`?after=${start}&types=element.deleted,element.restored`);
    await stream.waitFor((f) => f.event === "element.deleted");
    await api.call("PUT", `/api/v2/trash/${first}`, { as: ADMIN, json: { document: { properties: { status: "alive" } } } });
    await stream.waitFor((f) => f.event === "element.restored");
    expect(stream.events().map((e) => [e.event, e.data.initid])).toEqual([["element.deleted", first], ["element.restored", first]]);
  });

  it("resumes after Last-Event-ID, which wins over `after`: nothing twice, nothing missed", async () => {
    const start = await lastSeq();
    const stream = await open(`?after=${start}`);
    const one = await newArticle();
    const firstFrame = await stream.waitFor((f) => f.event === "element.created");
    stream.close();
    // Written while no stream is open.
    const two = await newArticle();
    await api.call("DELETE", `/api/v2/smart-elements/${one}`, { as: ADMIN });
    const resumed = await open(`?after=${start}`, ADMIN, { "last-event-id": firstFrame.id! });
    await resumed.waitFor((f) => f.event === "element.deleted");
    expect(resumed.events().map((e) => [e.event, e.data.initid])).toEqual([["element.created", two], ["element.deleted", one]]);
    expect(resumed.events().every((e) => Number(e.id) > Number(firstFrame.id))).toBe(true);
  });

  it("shows a stream only the events its reader may see", async () => {
    const start = await lastSeq();
    const carol = await open(`?after=${start}`, CAROL);
    const bob = await open(`?after=${start}`, BOB);
    await newArticle();
    await api.call("PUT", "/api/v2/smart-elements/AUTHOR_ADA", { as: ADMIN, json: { document: { attributes: { au_name: { value: `Ada ${count}` } } } } });
    await bob.waitFor((f) => f.event === "element.updated");
    await carol.waitFor((f) => f.event === "element.updated");
    expect(bob.events().map((e) => e.data.structure)).toEqual(["ARTICLE", "AUTHOR"]);
    expect(carol.events().map((e) => e.data.structure)).toEqual(["AUTHOR"]);
  });

  it("brings an event written through one node to a stream of another within 1 s", async () => {
    const [writer, reader] = [live.nodeUrls[0]!, live.nodeUrls.at(-1)!];
    const start = await lastSeq();
    const stream = await open(`?after=${start}`, ADMIN, {}, reader);
    await stream.waitFor((f) => f.comment === "keep-alive");
    for (let i = 0; i < 3; i++) {
      const title = `Across nodes ${i}`;
      const written = await fetch(`${writer}/api/v2/smart-structures/ARTICLE/smart-elements/`, {
        method: "POST", headers: { ...authorization(ALICE), "content-type": "application/json" },
        body: JSON.stringify({ document: { attributes: { ar_title: { value: title } } } }),
      });
      expect(written.status).toBe(201);
      const committed = Date.now();
      const initid = ((await written.json()) as any).data.document.properties.initid;
      await stream.waitFor((f) => f.event === "element.created" && JSON.parse(f.data!).initid === initid, 1000);
      expect(Date.now() - committed).toBeLessThan(1000);
    }
  });

  it("holds no database connection while it waits: many idle streams leave the API answering", async () => {
    const start = await lastSeq();
    const many = await Promise.all(Array.from({ length: 25 }, () => open(`?after=${start}`)));
    await Promise.all(many.map((stream) => stream.waitFor((f) => f.comment === "keep-alive")));
    const began = Date.now();
    expect((await api.call("GET", "/api/v2/smart-elements/ART_HELLO", { as: ADMIN })).status).toBe(200);
    const initid = await newArticle();
    expect(Date.now() - began).toBeLessThan(2000);
    await Promise.all(many.map((stream) => stream.waitFor((f) => f.event === "element.created" && JSON.parse(f.data!).initid === initid)));
    for (const stream of many) stream.close();
    // Their clients gone, the server goes on as before.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await api.call("GET", `/api/v2/events/?after=${start}`, { as: ADMIN })).status).toBe(200);
  });

  it("refuses a bad query with the envelope before it starts", async () => {
    const response = await api.call("GET", "/api/v2/events/stream?types=nope", { as: ADMIN, headers: { accept: "text/event-stream" } });
    expect(errorOf(response)).toEqual([400, "EVENT0400"]);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(errorOf(await api.call("GET", "/api/v2/events/stream", { as: ADMIN, headers: { accept: "text/event-stream", "last-event-id": "x" } }))).toEqual([400, "EVENT0400"]);
    expect(errorOf(await api.call("GET", "/api/v2/events/stream", { as: null, headers: { accept: "text/event-stream" } }))).toEqual([401, "AUTH0401"]);
  });
});

// Last: it prunes the whole log.
describe("retention", () => {
  it("answers 410 EVENT0410 with data.oldest for an `after` older than the oldest kept, on the list and the stream", async () => {
    const last = await lastSeq();
    live.seed.clock.advance(31 * 86_400_000);
    expect(await live.seed.platform.events.prune(30)).toBeGreaterThan(0);
    const response = await api.call("GET", "/api/v2/events/?after=0", { as: ADMIN });
    expect(errorOf(response)).toEqual([410, "EVENT0410"]);
    expect(response.json.data).toEqual({ oldest: last + 1 });
    const stream = await api.call("GET", "/api/v2/events/stream", { as: ADMIN, headers: { accept: "text/event-stream", "last-event-id": "1" } });
    expect(errorOf(stream)).toEqual([410, "EVENT0410"]);
    expect(stream.json.data).toEqual({ oldest: last + 1 });
    // From the oldest kept on, nothing is refused.
    expect((await api.call("GET", `/api/v2/events/?after=${last}`, { as: ADMIN })).json.data).toEqual({ events: [], last });
    expect((await api.call("GET", "/api/v2/events/", { as: ADMIN })).json.data).toEqual({ events: [], last });
  });
});
