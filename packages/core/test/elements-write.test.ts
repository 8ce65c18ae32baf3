import { describe, expect, it } from "vitest";
import { LineageError } from "../src/index.ts";
import { seededPlatform } from "./fixture.ts";

function errorOf(fn: () => unknown): LineageError {
  try {
    fn();
  } catch (error) {
    if (error instanceof LineageError) return error;
    throw error;
  }
  throw new Error("expected an error");
}

describe("updating an element", () => {
  it("changes the latest revision in place, recomputes the title, keeps R fields", async () => {
    const { platform, hello, principal } = await seededPlatform();
    const alice = principal("alice");
    const updated = platform.updateElement(alice, String(hello.initid), { values: { ar_title: "Bonjour", ar_words: "42", ar_stamp: "2030-01-01T00:00:00" } });
    expect(updated).toMatchObject({ id: hello.id, revision: 0, title: "Bonjour" });
    expect(updated.values).toMatchObject({ ar_words: 42, ar_stamp: "2026-03-04T05:06:07" });
    expect(platform.store.elements.byId(hello.id)?.title).toBe("Bonjour");
  });

  it("accepts form names case-insensitively", async () => {
    const { platform, principal } = await seededPlatform();
    const updated = platform.updateElement(principal("admin"), "ART_HELLO", { values: { AR_TITLE: "Upper" }, caseInsensitive: true });
    expect(updated.title).toBe("Upper");
  });

  it("refuses wrong types naming the field, and writes nothing", async () => {
    const { platform, principal, hello } = await seededPlatform();
    const admin = principal("admin");
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
      const error = errorOf(() => platform.updateElement(admin, "ART_HELLO", { values: { ar_words: 1, ...values } }));
      expect([error.code, error.message]).toEqual([code, expect.stringMatching(message)]);
      expect(error.status).toBe(400);
    }
    expect(platform.store.elements.byId(hello.id)?.values.ar_words).toBe(120);
    expect(platform.readHistory(admin, "ART_HELLO").history[0]?.messages).toHaveLength(1);
  });

  it("answers an array field with ROUTES0107 (500) as the spec says", async () => {
    const { platform, principal } = await seededPlatform();
    const error = errorOf(() => platform.updateElement(principal("admin"), "ART_HELLO", { values: { ar_links: [] } }));
    expect([error.code, error.status]).toEqual(["ROUTES0107", 500]);
  });

  it("checks the edit permission and the deleted state", async () => {
    const { platform, principal } = await seededPlatform();
    expect(errorOf(() => platform.updateElement(principal("bob"), "ART_HELLO", { values: {} })).code).toBe("CRUD0201");
    expect(errorOf(() => platform.updateElement(principal("admin"), "ARTICLE", { values: {} })).code).toBe("CRUD0213");
    platform.deleteElement(principal("admin"), "ART_HELLO");
    expect(errorOf(() => platform.updateElement(principal("admin"), "ART_HELLO", { values: {} })).code).toBe("ROUTES0102");
  });

  it("normalises timestamps with a zone to UTC", async () => {
    const { platform, principal } = await seededPlatform();
    const created = platform.createElement(principal("admin"), { structure: "ARTICLE", values: { ar_title: "T", ar_stamp: "2026-05-01T12:00:00+02:00" } });
    expect(created.values.ar_stamp).toBe("2026-05-01T10:00:00");
  });
});

describe("trash", () => {
  it("deletes the whole lineage, lists it in the trash, restores it", async () => {
    const { platform, hello, principal } = await seededPlatform();
    const admin = principal("admin");
    platform.reviseElement(admin, hello);
    const deleted = platform.deleteElement(admin, "ART_HELLO");
    expect(platform.store.elements.revisions(hello.initid).every((r) => r.status === "deleted")).toBe(true);
    expect(platform.writeResult(admin, deleted, 0).document).toMatchObject({ uri: `/api/v2/trash/${hello.initid}.json`, properties: { status: "deleted" } });
    expect(platform.listElements(admin, { slice: "all" }).documents.map((d) => d.properties?.name)).not.toContain("ART_HELLO");
    expect(platform.listTrash(admin).documents.map((d) => d.uri)).toEqual([`/api/v2/trash/${hello.initid}.json`]);
    expect(errorOf(() => platform.deleteElement(admin, "ART_HELLO")).code).toBe("ROUTES0102");
    expect(errorOf(() => platform.restoreElement(admin, "ART_HELLO", { document: { properties: { status: "deleted" } } })).code).toBe("CRUD0236");
    const restored = platform.restoreElement(admin, "ART_HELLO", { document: { properties: { status: "alive" } } });
    expect(restored.status).toBe("alive");
    expect(errorOf(() => platform.restoreElement(admin, "ART_HELLO", { document: { properties: { status: "alive" } } })).code).toBe("CRUD0237");
    expect(platform.readHistory(admin, "ART_HELLO").history[0]?.messages.map((m) => m.code)).toEqual(["RESTORE", "DELETE", "REVISION"]);
  });

  it("needs the delete permission", async () => {
    const { platform, principal } = await seededPlatform();
    expect(errorOf(() => platform.deleteElement(principal("bob"), "ART_HELLO")).code).toBe("ROUTES0110");
    expect(errorOf(() => platform.deleteElement(principal("carol"), "ART_HELLO")).code).toBe("ROUTES0101");
  });
});

describe("revisions", () => {
  it("refuses to revise a revision that is no longer the latest", async () => {
    const { platform, hello, principal } = await seededPlatform();
    platform.reviseElement(principal("admin"), hello);
    expect(errorOf(() => platform.reviseElement(principal("admin"), hello)).code).toBe("ROUTES0109");
    expect(platform.store.elements.revisions(hello.initid)).toHaveLength(2);
  });
});

describe("accounts", () => {
  it("authenticates with the right password only, and refuses duplicates", async () => {
    const { platform } = await seededPlatform();
    expect((await platform.authenticate("alice", "alice-pw"))?.roles.has("editor")).toBe(true);
    expect(await platform.authenticate("alice", "wrong")).toBeUndefined();
    expect(await platform.authenticate("nobody", "alice-pw")).toBeUndefined();
    await expect(platform.addUser({ login: "alice" })).rejects.toMatchObject({ code: "ACCOUNT0001" });
    await expect(platform.addUser({ login: "bad login" })).rejects.toMatchObject({ code: "ACCOUNT0002" });
  });
});
