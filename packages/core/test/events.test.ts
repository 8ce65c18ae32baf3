import { describe, expect, it } from "vitest";
import {
  answeredValue, createPlatform, createSharedLogReads, eventSeenBy, fieldChanges, flattenFields, isLineageError, LineageError, parseEventQuery, rightsKey,
  type ElementEvent, type Platform, type Principal, type SmartStructure,
} from "./internals.ts";
import { countingStore, createMemoryStore, lifecyclePlatform, seededPlatform } from "../src/testing/index.ts";
import { countingHasher, folder, tickingClock, type RawBundle } from "../src/testing/bundle-helpers.ts";

async function errorOf(fn: () => Promise<unknown>): Promise<LineageError> {
  try {
    await fn();
  } catch (error) {
    if (isLineageError(error)) return error;
    throw error;
  }
  throw new Error("expected an error");
}

/** Every event the principal may read, from the oldest kept. */
async function allEvents(platform: Platform, principal: Principal, query: Parameters<Platform["events"]["read"]>[1] = {}): Promise<ElementEvent[]> {
  const events: ElementEvent[] = [];
  for (let after = query.after ?? 0; ;) {
    const page = await platform.events.read(principal, { ...query, after, slice: 1000 });
    events.push(...page.events);
    if (page.last === after) return events;
    after = page.last;
  }
}

const ARTICLE: SmartStructure = {
  id: 1, name: "ARTICLE",
  fields: [
    { id: "ar_title", type: "text" },
    { id: "ar_tags", type: "enum", multiple: true },
    { id: "ar_pin", type: "password" },
    { id: "ar_links", type: "array", fields: [{ id: "ar_url", type: "text" }, { id: "ar_words", type: "text", multiple: true }] },
  ],
};

describe("what changed (fieldChanges)", () => {
  it("names each field whose answered value changed, with its value before and after", () => {
    expect(fieldChanges(ARTICLE, { ar_title: "Old", ar_tags: ["a"] }, { ar_title: "New", ar_tags: ["a"] })).toEqual({
      ar_title: { before: "Old", after: "New" },
    });
    expect(fieldChanges(ARTICLE, { ar_tags: ["a"] }, { ar_tags: ["a", "b"] })).toEqual({ ar_tags: { before: ["a"], after: ["a", "b"] } });
    expect(fieldChanges(ARTICLE, { ar_url: ["x"], ar_words: [["w"]] }, { ar_url: ["x", "y"], ar_words: [["w"], []] })).toEqual({
      ar_url: { before: ["x"], after: ["x", "y"] },
      ar_words: { before: [["w"]], after: [["w"], []] },
    });
    expect(fieldChanges(ARTICLE, { ar_title: "Same" }, { ar_title: "Same" })).toEqual({});
  });

  it("takes every field with a value as changed for a new element, and an empty one as no change", () => {
    expect(fieldChanges(ARTICLE, undefined, { ar_title: "New", ar_tags: [], ar_url: [] })).toEqual({ ar_title: { before: null, after: "New" } });
  });

  it("never names a password, changed or not", () => {
    expect(fieldChanges(ARTICLE, { ar_pin: "$scrypt$old" }, { ar_pin: "$scrypt$new", ar_title: "T" })).toEqual({ ar_title: { before: null, after: "T" } });
  });

  it("gives the value as the API answers it: a list for a multiple field, a row per array row, null for what is no value", () => {
    const [title, tags, , , url, words] = flattenFields(ARTICLE);
    expect(answeredValue(title!, undefined)).toBeNull();
    expect(answeredValue(title!, ["not", "a", "scalar"])).toBeNull();
    expect(answeredValue(tags!, "not a list")).toEqual([]);
    expect(answeredValue(url!, ["a", null])).toEqual(["a", null]);
    expect(answeredValue(words!, [["a"], "b"])).toEqual([["a"], []]);
  });
});

describe("the writes append their events", () => {
  it("create, update, delete, restore and revise: one event each, in order, by the acting login", async () => {
    const { platform, principal, hello } = await seededPlatform();
    const alice = await principal("alice");
    const admin = await principal("admin");
    const start = (await platform.events.read(admin, {})).last;
    const created = await platform.elements.createByApi(alice, "ARTICLE", { values: { ar_title: "Fresh", ar_words: "12" } });
    await platform.elements.update(alice, "ART_HELLO", { values: { ar_title: "Bonjour", ar_tags: ["food"] } });
    await platform.elements.delete(alice, "ART_ZEBRA");
    await platform.trash.restore(alice, "ART_ZEBRA", { document: { properties: { status: "alive" } } });
    const current = (await platform.elements.read(admin, "ART_HELLO")).revision;
    await platform.revisions.revise(admin, current, { comment: "Snapshot" });

    const events = await allEvents(platform, admin, { after: start });
    expect(events.map((e) => [e.type, e.name ?? e.initid, e.actor])).toEqual([
      ["element.created", created.revision.initid, "alice"],
      ["element.updated", "ART_HELLO", "alice"],
      ["element.deleted", "ART_ZEBRA", "alice"],
      ["element.restored", "ART_ZEBRA", "alice"],
      ["element.revised", "ART_HELLO", "admin"],
    ]);
    expect(events.map((e) => e.seq)).toEqual([...events.map((e) => e.seq)].sort((a, b) => a - b));
    const [create, update, remove, , revise] = events;
    expect(create).toMatchObject({
      initid: created.revision.initid, id: created.revision.id, structure: "ARTICLE", revision: 0, state: "draft",
      changes: { ar_title: { before: null, after: "Fresh" }, ar_words: { before: null, after: 12 } },
    });
    expect(Object.keys(create!.changes!).sort()).toEqual(["ar_title", "ar_words"]);
    expect(update).toMatchObject({
      initid: hello.initid, id: hello.id, revision: 0,
      changes: { ar_title: { before: "Hello", after: "Bonjour" }, ar_tags: { before: ["tech", "ai"], after: ["food"] } },
    });
    expect(Object.keys(update!.changes!).sort()).toEqual(["ar_tags", "ar_title"]);
    expect(remove).not.toHaveProperty("changes");
    expect(remove).not.toHaveProperty("transition");
    expect(revise).toMatchObject({ revision: 1, changes: {} });
    expect(revise!.id).not.toBe(hello.id);
    expect(Date.parse(revise!.time)).toBeGreaterThanOrEqual(Date.parse(create!.time));
  });

  it("a refused or rolled-back write appends nothing", async () => {
    const { platform, principal } = await seededPlatform();
    const admin = await principal("admin");
    const before = await platform.events.read(admin, {});
    await errorOf(() => platform.elements.update(admin, "ART_HELLO", { values: { ar_title: "Changed" }, ifMatch: '"stale"' }));
    await errorOf(() => platform.elements.update(admin, "ART_HELLO", { values: { ar_words: "ten" } }));
    const bob = await principal("bob");
    await errorOf(() => platform.elements.update(bob, "ART_HELLO", { values: { ar_title: "Bob's" } }));
    expect((await platform.events.read(admin, { after: before.last })).events).toEqual([]);
  });

  it("a transition appends element.state with the transition and the new revision; a forced state has no transition id", async () => {
    const { platform, principal } = await lifecyclePlatform();
    const admin = await principal("admin");
    const alice = await principal("alice");
    const start = (await platform.events.read(admin, {})).last;
    await platform.lifecycle.runTransition(alice, "ART_HELLO", "submit", { comment: "Please" });
    await platform.lifecycle.changeStateTo(admin, "ART_HELLO", "archived");
    const events = await allEvents(platform, admin, { after: start });
    expect(events).toMatchObject([
      { type: "element.state", name: "ART_HELLO", revision: 1, state: "review", actor: "alice", transition: { id: "submit", from: "draft", to: "review" }, changes: {} },
      { type: "element.state", revision: 2, state: "archived", actor: "admin", transition: { id: null, from: "review", to: "archived" } },
    ]);
    expect(events.map((e) => e.type)).not.toContain("element.revised");
  });

  it("a bundle import appends one event per element created or changed, none for an element left as it was", async () => {
    const store = createMemoryStore();
    const platform = createPlatform({ store, clock: tickingClock(), hasher: countingHasher() });
    const bundle = (title: string): RawBundle => ({
      accounts: { users: [{ login: "admin", roles: ["admin"] }] },
      structures: [{
        name: "NOTE", titleField: "n_title",
        fields: [{ id: "n_title", type: "text" }, { id: "n_next", type: "docid", structure: "NOTE" }, { id: "n_pin", type: "password" }],
      }],
      elements: [
        // N_A names N_B, written after it: its docid value is set in a second step, still one event.
        { structure: "NOTE", name: "N_A", values: { n_title: "A", n_next: "N_B", n_pin: "secret pin" } },
        { structure: "NOTE", name: "N_B", values: { n_title: title, n_next: "N_A" } },
        { structure: "NOTE", name: "N_C", values: { n_title: "C" } },
      ],
    });
    await platform.bundles.import(bundle("B"), { readFile: folder({}) });
    const admin = (await platform.accounts.principal("admin"))!;
    const first = await allEvents(platform, admin);
    expect(first.map((e) => [e.type, e.name, e.actor]).sort()).toEqual([
      ["element.created", "N_A", "system"], ["element.created", "N_B", "system"], ["element.created", "N_C", "system"],
    ]);
    const a = first.find((e) => e.name === "N_A")!;
    const b = first.find((e) => e.name === "N_B")!;
    expect(a.changes).toEqual({ n_title: { before: null, after: "A" }, n_next: { before: null, after: b.initid } });
    expect(JSON.stringify(await store.events.after(0, 100))).not.toContain("n_pin");

    await platform.bundles.import(bundle("B"), { readFile: folder({}) });
    const last = first.at(-1)!.seq;
    expect(await allEvents(platform, admin, { after: last })).toEqual([]);

    await platform.bundles.import(bundle("B2"), { readFile: folder({}) });
    expect(await allEvents(platform, admin, { after: last })).toMatchObject([
      { type: "element.updated", name: "N_B", changes: { n_title: { before: "B", after: "B2" } } },
    ]);
  });
});

describe("reading the events, with the reader's rights of now", () => {
  it("shows an event only to readers who may view its element now", async () => {
    const { platform, principal, store } = await seededPlatform();
    const [admin, bob, carol] = [await principal("admin"), await principal("bob"), await principal("carol")];
    const start = (await platform.events.read(admin, {})).last;
    await platform.elements.update(admin, "ART_HELLO", { values: { ar_title: "Seen" } });
    await platform.elements.update(admin, "AUTHOR_ADA", { values: { au_name: "Ada" } });
    const names = async (p: Principal) => (await allEvents(platform, p, { after: start })).map((e) => e.name);
    expect(await names(admin)).toEqual(["ART_HELLO", "AUTHOR_ADA"]);
    expect(await names(bob)).toEqual(["ART_HELLO", "AUTHOR_ADA"]);
    // carol has no role: ARTICLE's profile grants her nothing.
    expect(await names(carol)).toEqual(["AUTHOR_ADA"]);
    // Rights are those of now: bob's role loses the view right, and with it every event of ARTICLE elements.
    await store.transaction((tx) => tx.catalog.saveProfile({ name: "PRF_ARTICLE", grants: { view: ["role:editor"], edit: ["role:editor"] } }));
    expect(await names(bob)).toEqual(["AUTHOR_ADA"]);
  });

  it("leaves out the changes of fields the reader may not see: invisible ones, unless a field access layer shows them", async () => {
    const { store, platform, as } = await invoicePlatform();
    await platform.elements.create(await as("admin"), { structure: "INVOICE", name: "INV_1", values: { inv_ref: "I1", inv_secret: "swordfish", inv_row: ["r"] } });
    const changesOf = async (login: string) => (await allEvents(platform, await as(login))).map((e) => e.changes);
    expect(await changesOf("audrey")).toEqual([{ inv_ref: { before: null, after: "I1" }, inv_secret: { before: null, after: "swordfish" } }]);
    expect(await changesOf("clara")).toEqual([{ inv_ref: { before: null, after: "I1" } }]);
    // What the log keeps has every field: it is cut for each reader as they read.
    expect((await store.events.after(0, 10))[0]!.changes).toHaveProperty("inv_row");
  });

  it("never shows a password, even to an admin", async () => {
    const store = createMemoryStore();
    const platform = createPlatform({ store, clock: tickingClock(), hasher: countingHasher() });
    await platform.bundles.import({
      accounts: { users: [{ login: "admin", roles: ["admin"] }] },
      structures: [{ name: "ITEM", titleField: "it_ref", fields: [{ id: "it_ref", type: "text" }, { id: "it_pin", type: "password" }] }],
      elements: [{ structure: "ITEM", name: "IT_A", values: { it_ref: "A", it_pin: "hunter2" } }],
    }, { readFile: folder({}) });
    const admin = (await platform.accounts.principal("admin"))!;
    await platform.elements.update(admin, "IT_A", { values: { it_pin: "another secret" } });
    const events = await allEvents(platform, admin);
    expect(events.map((e) => [e.type, e.changes])).toEqual([
      ["element.created", { it_ref: { before: null, after: "A" } }],
      ["element.updated", {}],
    ]);
    const raw = JSON.stringify(await store.events.after(0, 10));
    const hash = (await store.elements.latestByName("IT_A"))!.values.it_pin as string;
    for (const secret of ["it_pin", "hunter2", "another secret", hash]) expect(raw).not.toContain(secret);
  });

  it("eventSeenBy: nothing of an element gone or out of view; the event itself when nothing is hidden", () => {
    const event: ElementEvent = {
      seq: 1, type: "element.updated", time: "2026-01-01T00:00:00.000Z", initid: 1, id: 1, name: null, structure: "ARTICLE",
      revision: 0, state: null, actor: "a", changes: { ar_title: { before: "a", after: "b" }, ar_gone: { before: 1, after: 2 } },
    };
    const latest = { id: 1, initid: 1 } as never;
    const reader = (canView: boolean) => ({ canView: () => canView, structure: (name: string) => (name === "ARTICLE" ? ARTICLE : undefined) });
    expect(eventSeenBy(reader(true), event, undefined)).toBeUndefined();
    expect(eventSeenBy(reader(false), event, latest)).toBeUndefined();
    expect(eventSeenBy(reader(true), event, latest)?.changes).toEqual({ ar_title: { before: "a", after: "b" } });
    const deleted: ElementEvent = { ...event, type: "element.deleted", changes: undefined };
    expect(eventSeenBy(reader(true), deleted, latest)).toBe(deleted);
    expect(eventSeenBy(reader(true), { ...event, structure: "GONE" }, latest)?.changes).toEqual({});
  });
});

describe("pages, positions and retention", () => {
  it("pages by `after` and `slice`; `last` goes past events the reader may not see", async () => {
    const { platform, principal } = await seededPlatform();
    const [admin, carol] = [await principal("admin"), await principal("carol")];
    const start = (await platform.events.read(admin, {})).last;
    for (let i = 0; i < 5; i++) await platform.elements.update(admin, "ART_HELLO", { values: { ar_words: String(i) } });
    const first = await platform.events.read(admin, { after: start, slice: 2 });
    expect(first.events).toHaveLength(2);
    expect(first.last).toBe(first.events[1]!.seq);
    const second = await platform.events.read(admin, { after: first.last, slice: 2 });
    expect(second.events[0]!.seq).toBeGreaterThan(first.last);
    // carol may see none of them: her page is empty, but its `last` moved past them all.
    const hidden = await platform.events.read(carol, { after: start });
    expect(hidden.events).toEqual([]);
    expect(hidden.last).toBe((await platform.events.read(admin, { after: start })).last);
    expect((await platform.events.read(carol, { after: hidden.last })).last).toBe(hidden.last);
  });

  it("filters by types and structure; an unknown structure is 400 EVENT0400", async () => {
    const { platform, principal } = await seededPlatform();
    const admin = await principal("admin");
    await platform.elements.update(admin, "ART_HELLO", { values: { ar_words: "1" } });
    await platform.elements.delete(admin, "ART_ZEBRA");
    await platform.elements.update(admin, "AUTHOR_ADA", { values: { au_name: "Ada" } });
    const types = async (query: Parameters<Platform["events"]["read"]>[1]) => (await allEvents(platform, admin, query)).map((e) => `${e.type} ${e.structure}`);
    expect(await types({ types: ["element.deleted"] })).toEqual(["element.deleted ARTICLE"]);
    expect(await types({ structure: "AUTHOR" })).toEqual(["element.created AUTHOR", "element.updated AUTHOR"]);
    expect(await types({ types: ["element.updated"], structure: "ARTICLE" })).toEqual(["element.updated ARTICLE"]);
    // Read to the end of the log, a filtered page goes past what its filter left out: nothing is looked at twice.
    const everything = await platform.events.read(admin, {});
    const deleted = await platform.events.read(admin, { types: ["element.deleted"] });
    expect(deleted.last).toBe(everything.last);
    expect((await platform.events.read(admin, { after: deleted.last, types: ["element.deleted"] })).last).toBe(deleted.last);
    const error = await errorOf(() => platform.events.read(admin, { structure: "NOPE" }));
    expect([error.code, error.status, error.message]).toEqual(["EVENT0400", 400, expect.stringContaining('"NOPE"')]);
  });

  it("prunes by age; an `after` older than the oldest kept is 410 EVENT0410 with the oldest seq; none given reads from it", async () => {
    const { platform, principal, clock } = await seededPlatform();
    const admin = await principal("admin");
    const seeded = (await platform.events.read(admin, {})).events;
    clock.advance(3 * 86_400_000);
    await platform.elements.update(admin, "ART_HELLO", { values: { ar_words: "1" } });
    expect(await platform.events.prune(30)).toBe(0);
    expect(await platform.events.prune(2.5)).toBe(seeded.length);
    const oldest = seeded.at(-1)!.seq + 1;
    const error = await errorOf(() => platform.events.read(admin, { after: 0 }));
    expect([error.code, error.status, error.answer]).toEqual(["EVENT0410", 410, { oldest }]);
    expect((await platform.events.read(admin, { after: oldest - 1 })).events.map((e) => e.type)).toEqual(["element.updated"]);
    expect((await platform.events.read(admin, {})).events.map((e) => e.type)).toEqual(["element.updated"]);
  });
});

describe("the events query", () => {
  it("parses after, slice, types and structure; Last-Event-ID wins over after", () => {
    expect(parseEventQuery({})).toEqual({ after: undefined, slice: 100, types: undefined, structure: undefined });
    expect(parseEventQuery({ after: " 12 ", slice: "1000", types: "element.created, element.state", structure: "ARTICLE" })).toEqual({
      after: 12, slice: 1000, types: ["element.created", "element.state"], structure: "ARTICLE",
    });
    expect(parseEventQuery({ after: "12", lastEventId: "40" }).after).toBe(40);
    expect(parseEventQuery({ after: "", slice: "", types: "", structure: "" })).toEqual({ after: undefined, slice: 100, types: undefined, structure: undefined });
  });

  it("refuses what is not a query of events with 400 EVENT0400, saying what is wrong", () => {
    const refusal = (input: Parameters<typeof parseEventQuery>[0]) => {
      try {
        parseEventQuery(input);
      } catch (error) {
        return isLineageError(error) ? [error.code, error.status, error.message] : error;
      }
      return undefined;
    };
    expect(refusal({ after: "-1" })).toEqual(["EVENT0400", 400, expect.stringContaining("after must be the seq of an event")]);
    expect(refusal({ after: "1.5" })).toEqual(["EVENT0400", 400, expect.stringContaining("after")]);
    expect(refusal({ lastEventId: "abc" })).toEqual(["EVENT0400", 400, expect.stringContaining("Last-Event-ID")]);
    for (const slice of ["0", "1001", "ten", "-5"]) expect(refusal({ slice })).toEqual(["EVENT0400", 400, expect.stringContaining("from 1 to 1000")]);
    expect(refusal({ types: "element.created,element.exploded" })).toEqual(["EVENT0400", 400, expect.stringContaining('"element.exploded" is no event type')]);
    expect(refusal({ types: "element.created," })).toEqual(["EVENT0400", 400, expect.stringContaining('"" is no event type')]);
  });
});

describe("waiting for events", () => {
  it("wakes a waiter when a write appends, answers false at the timeout, and holds nothing once cancelled", async () => {
    const { platform, principal } = await seededPlatform();
    const admin = await principal("admin");
    const { last } = await platform.events.read(admin, {});
    expect(await platform.events.wait(last, 20).promise).toBe(false);
    const waiting = platform.events.wait(last, 5000);
    const started = Date.now();
    await platform.elements.update(admin, "ART_HELLO", { values: { ar_words: "7" } });
    expect(await waiting.promise).toBe(true);
    expect(Date.now() - started).toBeLessThan(1000);
    // Events after `last` exist now: a new wait answers at once.
    expect(await platform.events.wait(last, 5000).promise).toBe(true);
    const cancelled = platform.events.wait(last + 1000, 5000);
    cancelled.cancel();
    expect(await cancelled.promise).toBe(false);
  });

  it("polls the log for what no notification told (another process's commit)", async () => {
    const store = createMemoryStore();
    // A store that never notifies: only the poll can see the append.
    const silent = { ...store, watchEvents: undefined };
    const platform = createPlatform({ store: silent, eventPollMs: 20 });
    const waiting = platform.events.wait(0, 5000);
    await store.transaction((tx) => tx.events.append({
      type: "element.deleted", time: new Date().toISOString(), initid: 1, id: 1, name: null, structure: "X", revision: 0, state: null, actor: "a",
    }));
    expect(await waiting.promise).toBe(true);
  });

  it("costs no read of the log per waiter while the store's watch runs, and still wakes them all at the next commit", async () => {
    const counting = countingStore(createMemoryStore());
    const platform = createPlatform({ store: counting.store, eventPollMs: 60_000 });
    const append = () => counting.store.transaction((tx) => tx.events.append({
      type: "element.deleted", time: new Date().toISOString(), initid: 1, id: 1, name: null, structure: "X", revision: 0, state: null, actor: "a",
    }));
    await append();
    const first = platform.events.wait(0, 5000);
    expect(await first.promise).toBe(true);
    // The watch runs while someone waits: a hundred more waiters from the last seq read nothing.
    const keeper = platform.events.wait(1, 5000);
    await new Promise((resolve) => setTimeout(resolve, 0));
    counting.reset();
    const waits = Array.from({ length: 100 }, () => platform.events.wait(1, 5000));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(counting.calls.filter((call) => call === "events.lastSeq")).toEqual([]);
    await append();
    expect(await Promise.all([keeper.promise, ...waits.map((w) => w.promise)])).toEqual(Array(101).fill(true));
    expect(counting.calls.filter((call) => call === "events.lastSeq").length).toBeLessThanOrEqual(2);
  });
});

describe("readers at one position share their reads of the log", () => {
  it("reads the log once for every caller asking the same at once, and afresh once that read is over", async () => {
    const store = createMemoryStore();
    const calls = { after: 0, lastSeq: 0 };
    const log = {
      ...store.events,
      after: (...args: Parameters<typeof store.events.after>) => (calls.after++, store.events.after(...args)),
      lastSeq: () => (calls.lastSeq++, store.events.lastSeq()),
    };
    const reads = createSharedLogReads({ ...store, events: log });
    await store.transaction((tx) => tx.events.append({
      type: "element.deleted", time: new Date().toISOString(), initid: 1, id: 1, name: null, structure: "X", revision: 0, state: null, actor: "a",
    }));
    const windows = await Promise.all(Array.from({ length: 20 }, () => reads.window(0, 10, {})));
    expect(calls).toEqual({ after: 1, lastSeq: 1 });
    expect(windows.every((w) => w.horizon === 1 && w.events.length === 1)).toBe(true);
    // Another position, or another filter, is another read.
    await Promise.all([reads.window(1, 10, {}), reads.window(0, 10, { types: ["element.created"] })]);
    expect(calls).toEqual({ after: 3, lastSeq: 3 });
    // Shared until the next turn of the event loop, then read afresh.
    await reads.window(0, 10, {});
    expect(calls).toEqual({ after: 3, lastSeq: 3 });
    await new Promise((resolve) => setTimeout(resolve, 0));
    await reads.window(0, 10, {});
    expect(calls).toEqual({ after: 4, lastSeq: 4 });
  });

  it("readers woken by one commit read the change clock and the events' elements once, and each sees the event as their rights let them", async () => {
    const counting = countingStore(createMemoryStore());
    const { platform, principal } = await seededPlatform(counting.store);
    const [admin, bob, carol] = [await principal("admin"), await principal("bob"), await principal("carol")];
    const start = (await platform.events.read(admin, {})).last;
    await platform.elements.update(admin, "ART_HELLO", { values: { ar_title: "Shared" } });
    await platform.elements.update(admin, "AUTHOR_ADA", { values: { au_name: "Ada" } });
    await new Promise((resolve) => setTimeout(resolve, 0));
    counting.reset();
    const readers = Array.from({ length: 30 }, (_, i) => [admin, bob, carol][i % 3]!);
    const pages = await Promise.all(readers.map((reader) => platform.events.follow(reader, { after: start })));
    const calls = (name: string) => counting.calls.filter((call) => call === name).length;
    expect([calls("changes.read"), calls("elements.byIds"), calls("events.after")]).toEqual([1, 1, 1]);
    // carol has no role: ARTICLE's profile grants her nothing; the others see both.
    expect(pages.map((page) => page.events.map((e) => e.name))).toEqual(readers.map((reader) => (reader === carol ? ["AUTHOR_ADA"] : ["ART_HELLO", "AUTHOR_ADA"])));
    expect(new Set(pages.map((page) => page.last)).size).toBe(1);
  });

  it("streams of readers with the same rights share one page, its events the same objects; other rights get their own", async () => {
    const { store, platform, as } = await invoicePlatform();
    const [audrey, clara, admin] = [await as("audrey"), await as("clara"), await as("admin")];
    const start = (await platform.events.read(admin, {})).last;
    await platform.elements.create(admin, { structure: "INVOICE", name: "INV_1", values: { inv_ref: "I1", inv_secret: "swordfish" } });
    await new Promise((resolve) => setTimeout(resolve, 0));
    // Each stream holds a principal of its own (one per request), equal in rights to the others of its account.
    const readers = [clara, await as("clara"), audrey, await as("audrey"), clara];
    const pages = await Promise.all(readers.map((reader) => platform.events.follow(reader, { after: start })));
    expect(pages[1]).toBe(pages[0]);
    expect(pages[4]).toBe(pages[0]);
    expect(pages[3]).toBe(pages[2]);
    expect(pages[2]).not.toBe(pages[0]);
    // Rights are still each reader's: clara's copy has no secret, audrey's has it.
    expect(pages[0]!.events.map((e) => Object.keys(e.changes ?? {}))).toEqual([["inv_ref"]]);
    expect(pages[2]!.events.map((e) => Object.keys(e.changes ?? {}))).toEqual([["inv_ref", "inv_secret"]]);
    // Another query is another page; once the read is over, the next one is read afresh, with the rights of then.
    expect(await platform.events.follow(clara, { after: start, types: ["element.created"] })).not.toBe(pages[0]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    await store.transaction((tx) => tx.catalog.saveProfile({ name: "PRF_INVOICE", grants: { view: ["role:auditor"], edit: ["role:auditor"] } }));
    expect((await platform.events.follow(clara, { after: start })).events).toEqual([]);
  });

  it("rightsKey: equal for principals of equal rights, different when roles, groups or the account differ", () => {
    const account = { id: 7, login: "x", displayName: "X", passwordHash: null, roles: ["a"], groups: [], locale: "en", rights: [], disabled: false } as const;
    const principal = (roles: string[], groups: string[] = [], id = 7) => ({ account: { ...account, id }, roles: new Set(roles), groups: new Set(groups), isAdmin: false });
    expect(rightsKey(principal(["a", "b"]))).toBe(rightsKey(principal(["b", "a"])));
    expect(rightsKey(principal(["a"]))).not.toBe(rightsKey(principal(["a", "b"])));
    expect(rightsKey(principal(["a"], ["g"]))).not.toBe(rightsKey(principal(["a"])));
    // A profile's `owner` grant holds for one account only.
    expect(rightsKey(principal(["a"], [], 8))).not.toBe(rightsKey(principal(["a"])));
  });

  it("many readers following the log while it is written each see every event once, in order", async () => {
    const { platform, principal } = await seededPlatform();
    const admin = await principal("admin");
    const start = (await platform.events.read(admin, {})).last;
    const readers = Array.from({ length: 30 }, () => ({ position: start, seqs: [] as number[] }));
    // As a stream does, a turn of the event loop between two rounds.
    const nextTurn = () => new Promise((resolve) => setTimeout(resolve, 0));
    const follow = async (reader: (typeof readers)[number]) => {
      const page = await platform.events.follow(admin, { after: reader.position, slice: 3 });
      reader.seqs.push(...page.events.map((e) => e.seq));
      reader.position = page.last;
    };
    for (let round = 0; round < 12; round++) {
      await nextTurn();
      // Writes land while the readers' reads run: some readers join a read that began before them.
      await Promise.all([
        ...readers.slice(0, 20).map(follow),
        platform.elements.update(admin, "ART_HELLO", { values: { ar_words: String(round) } }),
        ...readers.slice(20).map(follow),
      ]);
    }
    for (let drained = false; !drained;) {
      await nextTurn();
      const before = readers.map((r) => r.position);
      await Promise.all(readers.map(follow));
      drained = readers.every((r, i) => r.position === before[i]);
    }
    const all = (await allEvents(platform, admin, { after: start })).map((e) => e.seq);
    expect(all).toHaveLength(12);
    for (const reader of readers) expect(reader.seqs).toEqual(all);
  });
});

/** INVOICE with a field hidden to all (inv_secret) that a field access layer shows auditors: audrey is one, clara a clerk only. */
async function invoicePlatform() {
  const store = createMemoryStore();
  const platform = createPlatform({ store, clock: tickingClock(), hasher: countingHasher() });
  await platform.bundles.import({
    accounts: {
      roles: [{ id: "auditor" }, { id: "clerk" }],
      users: [{ login: "admin", roles: ["admin"] }, { login: "audrey", roles: ["auditor", "clerk"] }, { login: "clara", roles: ["clerk"] }],
    },
    profiles: [{ name: "PRF_INVOICE", grants: { view: ["role:clerk"], edit: ["role:clerk"] } }],
    fieldAccesses: [{ name: "FAL_INVOICE", layers: [{ grant: "role:auditor", fields: { inv_secret: "R" } }] }],
    structures: [{
      name: "INVOICE", profile: "PRF_INVOICE", fieldAccess: "FAL_INVOICE", titleField: "inv_ref",
      fields: [
        { id: "inv_ref", type: "text" }, { id: "inv_secret", type: "text", visibility: "I" },
        { id: "inv_hidden_rows", type: "array", visibility: "I", fields: [{ id: "inv_row", type: "text" }] },
      ],
    }],
  }, { readFile: folder({}) });
  const as = async (login: string) => (await platform.accounts.principal(login))!;
  return { store, platform, as };
}
