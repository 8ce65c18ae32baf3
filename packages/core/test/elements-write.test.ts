import { describe, expect, it } from "vitest";
import { createPlatform, LineageError } from "./internals.ts";
import { countingStore } from "../src/testing/counting-store.ts";
import { seededPlatform } from "../src/testing/seeded-platform.ts";

async function errorOf(fn: () => unknown): Promise<LineageError> {
  try {
    await fn();
  } catch (error) {
    if (error instanceof LineageError) return error;
    throw error;
  }
  throw new Error("expected an error");
}

const codeOf = async (fn: () => unknown) => (await errorOf(fn)).code;

describe("updating an element", () => {
  it("changes the latest revision in place, recomputes the title", async () => {
    const { platform, hello, principal, store } = await seededPlatform();
    const alice = await principal("alice");
    const updated = await platform.elements.update(alice, String(hello.initid), { values: { ar_title: "Bonjour", ar_words: "42" } });
    expect(updated.revision).toMatchObject({ id: hello.id, revision: 0, title: "Bonjour" });
    expect(updated.revision.values).toMatchObject({ ar_words: 42, ar_stamp: "2026-03-04T05:06:07" });
    expect((await store.elements.byId(hello.id))?.title).toBe("Bonjour");
  });

  it("refuses a read-only field with 500 ROUTES0107 naming it, and writes nothing of the request", async () => {
    const { platform, hello, principal, store } = await seededPlatform();
    const alice = await principal("alice");
    for (const values of [{ ar_title: "Bonjour", ar_stamp: "2030-01-01T00:00:00" }, { AR_STAMP: "2026-03-04T05:06:07", ar_title: "Bonjour" }]) {
      const error = await errorOf(() => platform.elements.update(alice, "ART_HELLO", { values, caseInsensitive: true }));
      expect([error.code, error.status, error.message]).toEqual(["ROUTES0107", 500, expect.stringContaining('attribute "ar_stamp"')]);
      expect(error.data).toEqual({ id: "ar_stamp", index: -1, err: 'Smart field "ar_stamp" is read-only' });
    }
    expect(await store.elements.byId(hello.id)).toMatchObject({ title: "Hello", modifiedAt: hello.modifiedAt, values: { ar_stamp: "2026-03-04T05:06:07" } });
    expect((await platform.revisions.history(alice, "ART_HELLO")).history[0]?.messages).toHaveLength(1);
  });

  it("accepts form names case-insensitively", async () => {
    const { platform, principal } = await seededPlatform();
    const updated = await platform.elements.update(await principal("admin"), "ART_HELLO", { values: { AR_TITLE: "Upper" }, caseInsensitive: true });
    expect(updated.revision.title).toBe("Upper");
  });

  it("refuses wrong types naming the field, and writes nothing", async () => {
    const { platform, principal, hello, store } = await seededPlatform();
    const admin = await principal("admin");
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ ar_words: "ten" }, "VALUE0001", /ar_words/],
      [{ ar_words: 1.5 }, "VALUE0001", /ar_words/],
      [{ ar_score: "1,5" }, "VALUE0001", /ar_score/],
      [{ ar_category: "nope" }, "VALUE0001", /"nope" is not a key of enumerate "CATEGORIES"/],
      [{ ar_tags: ["tech", "zzz"] }, "VALUE0001", /ar_tags/],
      [{ ar_date: "2026-02-30" }, "VALUE0001", /ar_date/],
      [{ ar_date: "yesterday" }, "VALUE0001", /ar_date/],
      [{ ar_author: "ART_ZEBRA" }, "VALUE0001", /not of structure "AUTHOR"/],
      [{ ar_author: "12345" }, "VALUE0001", /ar_author/],
      [{ ar_title: { nested: true } }, "VALUE0001", /ar_title/],
      [{ ar_title: "" }, "VALUE0002", /ar_title/],
      [{ nope: 1 }, "CRUD0218", /nope/],
      [{ ar_secret: "x" }, "CRUD0218", /ar_secret/],
      [{ ar_link_url: "not a list" }, "VALUE0001", /ar_link_url/],
    ];
    for (const [values, code, message] of cases) {
      const error = await errorOf(() => platform.elements.update(admin, "ART_HELLO", { values: { ar_words: 1, ...values } }));
      expect([error.code, error.message]).toEqual([code, expect.stringMatching(message)]);
      expect(error.status).toBe(400);
    }
    expect((await store.elements.byId(hello.id))?.values.ar_words).toBe(120);
    expect((await platform.revisions.history(admin, "ART_HELLO")).history[0]?.messages).toHaveLength(1);
  });

  it("answers an array field with ROUTES0107 (500) as the spec says", async () => {
    const { platform, principal } = await seededPlatform();
    const error = await errorOf(async () => platform.elements.update(await principal("admin"), "ART_HELLO", { values: { ar_links: [] } }));
    expect([error.code, error.status]).toEqual(["ROUTES0107", 500]);
  });

  it("checks the edit permission and the deleted state", async () => {
    const { platform, principal } = await seededPlatform();
    const [admin, bob] = [await principal("admin"), await principal("bob")];
    expect(await codeOf(() => platform.elements.update(bob, "ART_HELLO", { values: {} }))).toBe("CRUD0201");
    expect(await codeOf(() => platform.elements.update(admin, "ARTICLE", { values: {} }))).toBe("CRUD0213");
    await platform.elements.delete(admin, "ART_HELLO");
    expect(await codeOf(() => platform.elements.update(admin, "ART_HELLO", { values: {} }))).toBe("ROUTES0102");
  });

  it("normalises timestamps with a zone to UTC", async () => {
    const { platform, principal } = await seededPlatform();
    const created = await platform.elements.create(await principal("admin"), { structure: "ARTICLE", values: { ar_title: "T", ar_stamp: "2026-05-01T12:00:00+02:00" } });
    expect(created.values.ar_stamp).toBe("2026-05-01T10:00:00");
  });
});

describe("trash", () => {
  it("deletes the whole lineage, lists it in the trash, restores it", async () => {
    const { platform, hello, principal, store } = await seededPlatform();
    const admin = await principal("admin");
    await platform.revisions.revise(admin, hello);
    const deleted = await platform.elements.delete(admin, "ART_HELLO");
    expect((await store.elements.revisions(hello.initid)).every((r) => r.status === "deleted")).toBe(true);
    expect(deleted.data.document).toMatchObject({ uri: `/api/v2/trash/${hello.initid}.json`, properties: { status: "deleted" } });
    expect((await platform.elements.list(admin, { slice: "all" })).documents.map((d) => d.properties?.name)).not.toContain("ART_HELLO");
    expect((await platform.trash.list(admin)).documents.map((d) => d.uri)).toEqual([`/api/v2/trash/${hello.initid}.json`]);
    expect(await codeOf(() => platform.elements.delete(admin, "ART_HELLO"))).toBe("ROUTES0102");
    expect(await codeOf(() => platform.trash.restore(admin, "ART_HELLO", { document: { properties: { status: "deleted" } } }))).toBe("CRUD0236");
    const restored = await platform.trash.restore(admin, "ART_HELLO", { document: { properties: { status: "alive" } } });
    expect(restored.revision.status).toBe("alive");
    expect(await codeOf(() => platform.trash.restore(admin, "ART_HELLO", { document: { properties: { status: "alive" } } }))).toBe("CRUD0237");
    expect((await platform.revisions.history(admin, "ART_HELLO")).history[0]?.messages.map((m) => m.code)).toEqual(["RESTORE", "DELETE", "REVISION"]);
  });

  it("needs the delete permission", async () => {
    const { platform, principal } = await seededPlatform();
    expect(await codeOf(async () => platform.elements.delete(await principal("bob"), "ART_HELLO"))).toBe("ROUTES0110");
    expect(await codeOf(async () => platform.elements.delete(await principal("carol"), "ART_HELLO"))).toBe("ROUTES0101");
  });
});

describe("revisions", () => {
  it("refuses to revise a revision that is no longer the latest", async () => {
    const { platform, hello, principal, store } = await seededPlatform();
    const admin = await principal("admin");
    await platform.revisions.revise(admin, hello);
    expect(await codeOf(() => platform.revisions.revise(admin, hello))).toBe("ROUTES0109");
    expect(await store.elements.revisions(hello.initid)).toHaveLength(2);
  });
});

describe("a write past its deadline", () => {
  const expired = { aborted: true };

  it("commits nothing and answers API0101, for every write use case", async () => {
    const { platform, store, hello, principal } = await seededPlatform();
    const admin = await principal("admin");
    const before = await store.changes.read();
    const writes: Array<[string, () => Promise<unknown>]> = [
      ["create", () => platform.elements.create(admin, { structure: "ARTICLE", name: "ART_LATE", values: { ar_title: "Late" }, deadline: expired })],
      ["update", () => platform.elements.update(admin, "ART_HELLO", { values: { ar_title: "Too late" }, deadline: expired })],
      ["delete", () => platform.elements.delete(admin, "ART_HELLO", { deadline: expired })],
    ];
    for (const [name, write] of writes) {
      const error = await errorOf(write);
      expect([name, error.code]).toEqual([name, "API0101"]);
    }
    expect(await store.elements.latestByName("ART_LATE")).toBeUndefined();
    expect(await store.elements.latest(hello.initid)).toMatchObject({ title: "Hello", status: "alive" });
    expect(await store.elements.history(hello.initid)).toHaveLength(1);
    expect(await store.changes.read()).toEqual(before);

    await platform.elements.delete(admin, "ART_HELLO");
    const restore = await errorOf(() => platform.trash.restore(admin, "ART_HELLO", { document: { properties: { status: "alive" } } }, { deadline: expired }));
    expect(restore.code).toBe("API0101");
    expect((await store.elements.latest(hello.initid))?.status).toBe("deleted");
  });

  it("commits when the deadline has not passed", async () => {
    const { platform, principal, store } = await seededPlatform();
    const updated = await platform.elements.update(await principal("admin"), "ART_HELLO", { values: { ar_title: "In time" }, deadline: { aborted: false } });
    expect((await store.elements.byId(updated.revision.id))?.title).toBe("In time");
  });

  it("is checked after the work, before the commit: a deadline passing during the transaction leaves nothing", async () => {
    const seed = await seededPlatform();
    const deadline = { aborted: false };
    // The request times out once the transaction has saved the element, before it commits.
    const { store } = countingStore(seed.store, (call) => {
      if (call === "elements.save") deadline.aborted = true;
    });
    const platform = createPlatform({ store, clock: seed.clock });
    const error = await errorOf(async () => platform.elements.update(await seed.principal("admin"), "ART_HELLO", { values: { ar_title: "Slow" }, deadline }));
    expect([deadline.aborted, error.code, error.status]).toEqual([true, "API0101", 503]);
    expect((await seed.store.elements.latest(seed.hello.initid))?.title).toBe("Hello");
    expect(await seed.store.elements.history(seed.hello.initid)).toHaveLength(1);
  });
});

describe("accounts", () => {
  it("authenticates with the right password only, and refuses duplicates", async () => {
    const { platform } = await seededPlatform();
    expect((await platform.accounts.authenticate("alice", "alice-pw"))?.roles.has("editor")).toBe(true);
    expect(await platform.accounts.authenticate("alice", "wrong")).toBeUndefined();
    expect(await platform.accounts.authenticate("nobody", "alice-pw")).toBeUndefined();
    await expect(platform.accounts.add({ login: "alice" })).rejects.toMatchObject({ code: "ACCOUNT0001" });
    await expect(platform.accounts.add({ login: "bad login" })).rejects.toMatchObject({ code: "ACCOUNT0002" });
  });
});
