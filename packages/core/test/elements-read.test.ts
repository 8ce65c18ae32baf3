import { describe, expect, it } from "vitest";
import { LineageError } from "./internals.ts";
import { seededPlatform } from "../src/testing/seeded-platform.ts";

const codeOf = async (fn: () => unknown) => {
  try {
    await fn();
  } catch (error) {
    if (error instanceof LineageError) return error.code;
    throw error;
  }
  return "no error";
};

describe("reading one element", () => {
  it("resolves initid, any revision id and logical name to the latest revision", async () => {
    const { platform, hello, principal } = await seededPlatform();
    const admin = await principal("admin");
    const next = await platform.revisions.revise(admin, hello, { comment: "second" });
    for (const ref of [String(hello.initid), String(next.id), "ART_HELLO"]) {
      const reading = await platform.elements.read(admin, ref);
      expect(reading.revision.id).toBe(next.id);
      expect(reading.data.document.properties).toMatchObject({ id: next.id, initid: hello.initid, revision: 1, status: "alive" });
    }
  });

  it("renders default properties in the original's order, with the state", async () => {
    const { platform, hello, principal } = await seededPlatform();
    const { data } = await platform.elements.read(await principal("admin"), "ART_HELLO");
    expect(Object.keys(data.document.properties ?? {})).toEqual(["id", "title", "icon", "initid", "name", "revision", "state", "status"]);
    expect(data.document.properties).toMatchObject({
      title: "Hello", icon: "/api/v2/images/assets/sizes/24x24c/article.png", name: "ART_HELLO",
      state: { reference: "draft", stateLabel: "Draft", activity: "Writing", displayValue: "Writing", color: "#AAAAAA" },
    });
    expect(data.document.uri).toBe(`/api/v2/smart-elements/${hello.initid}.json`);
  });

  it("renders values per type and never discloses visibility I", async () => {
    const { platform, principal } = await seededPlatform();
    const { data } = await platform.elements.read(await principal("admin"), "ART_HELLO");
    const attributes = data.document.attributes ?? {};
    expect(attributes.ar_category).toEqual({ value: "tech", displayValue: "Technology", exists: true });
    expect(attributes.ar_tags).toEqual([{ value: "tech", displayValue: "Technology", exists: true }, { value: "ai", displayValue: "Technology/Artificial intelligence", exists: true }]);
    expect(attributes.ar_words).toEqual({ value: 120, displayValue: "120" });
    expect(attributes.ar_date).toEqual({ value: "2026-03-04", displayValue: "03/04/2026" });
    expect(attributes.ar_author).toMatchObject({ displayValue: "Ada Lovelace", familyRelation: "AUTHOR" });
    expect(attributes.ar_link_url).toEqual([{ value: "https://example.org", displayValue: "https://example.org" }, { value: "https://example.com", displayValue: "https://example.com" }]);
    expect(attributes.ar_body).toEqual({ value: null, displayValue: null });
    expect(attributes).not.toHaveProperty("ar_secret");
    expect(attributes).not.toHaveProperty("ar_links");
    expect(JSON.stringify(data)).not.toContain("hidden");
  });

  it("translates to the reader's locale", async () => {
    const { platform, principal } = await seededPlatform();
    const { data } = await platform.elements.read(await principal("alice"), "ART_HELLO", { fields: "document.attributes.ar_category,document.attributes.ar_date,document.attributes.ar_score,document.properties.state" });
    expect(data.document.attributes?.ar_category).toEqual({ value: "tech", displayValue: "Technologie", exists: true });
    expect(data.document.attributes?.ar_date).toEqual({ value: "2026-03-04", displayValue: "04/03/2026" });
    // A double shows a decimal point whatever the reader's language, as the original's API does.
    expect(data.document.attributes?.ar_score).toEqual({ value: 3.5, displayValue: "3.5" });
    expect(data.document.properties?.state).toMatchObject({ stateLabel: "Brouillon" });
  });

  it("describes the structure without visibility I fields", async () => {
    const { platform, principal } = await seededPlatform();
    const { data } = await platform.elements.read(await principal("alice"), "ART_HELLO", { fields: "family.structure" });
    const structure = data.family?.structure ?? {};
    expect(structure.ar_title).toMatchObject({ id: "ar_title", label: "Titre", type: "text", needed: true, logicalOrder: 1 });
    expect(structure.ar_links?.content?.ar_link_url).toMatchObject({ type: "text" });
    expect(structure).not.toHaveProperty("ar_secret");
    expect(data.document).not.toHaveProperty("properties");
  });

  it("answers the spec's codes: unknown, deleted, wrong family, forbidden", async () => {
    const { platform, principal } = await seededPlatform();
    const admin = await principal("admin");
    expect(await codeOf(() => platform.elements.read(admin, "NOPE"))).toBe("ROUTES0100");
    expect(await codeOf(() => platform.elements.read(admin, "99999"))).toBe("ROUTES0100");
    expect(await codeOf(() => platform.elements.read(admin, "ART_HELLO", { family: "AUTHOR" }))).toBe("ROUTES0104");
    expect(await codeOf(() => platform.elements.read(admin, "ART_HELLO", { family: "NOPE" }))).toBe("ROUTES0105");
    expect(await codeOf(async () => platform.elements.read(await principal("carol"), "ART_HELLO"))).toBe("ROUTES0101");
    await platform.elements.delete(admin, "ART_HELLO");
    expect(await codeOf(() => platform.elements.read(admin, "ART_HELLO"))).toBe("ROUTES0102");
  });

  it("parses fields: unknown property, unknown entry, unknown or array attribute", async () => {
    const { platform, principal } = await seededPlatform();
    const admin = await principal("admin");
    expect(await codeOf(() => platform.elements.read(admin, "ART_HELLO", { fields: "document.properties.nope" }))).toBe("CRUD0202");
    expect(await codeOf(() => platform.elements.read(admin, "ART_HELLO", { fields: "document.nope" }))).toBe("ROUTES0103");
    expect(await codeOf(() => platform.elements.read(admin, "ART_HELLO", { fields: "document.attributes.nope" }))).toBe("CRUD0502");
    expect(await codeOf(() => platform.elements.read(admin, "ART_HELLO", { fields: "document.attributes.ar_secret" }))).toBe("CRUD0502");
    expect(await codeOf(() => platform.elements.read(admin, "ART_HELLO", { fields: "document.attributes.ar_links" }))).toBe("CRUD0507");
    const all = await platform.elements.read(admin, "ART_HELLO", { fields: "document.properties.all" });
    expect(all.data.document.properties).toMatchObject({ fromname: "ARTICLE", locked: 0, doctype: "F", owner: String(admin.account.id) });
  });

  it("gives document.properties.all the original's properties, with what this platform has (its empty answers for what it has none of)", async () => {
    const { platform, principal, hello, clock } = await seededPlatform();
    const [admin, alice, bob] = [await principal("admin"), await principal("alice"), await principal("bob")];
    const all = async (who = admin, ref = "ART_HELLO") => (await platform.elements.read(who, ref, { fields: "document.properties.all" })).data.document.properties!;
    const properties = await all();
    const article = await platform.structures.read(admin, "ARTICLE", { fields: "document.properties" });
    const createdBy = { id: admin.account.id, title: "admin", icon: "/api/v2/images/assets/sizes/24x24c/se-iuser.png" };
    expect(properties).toEqual({
      id: hello.id, title: "Hello", affected: { id: 0, title: "" }, allocated: null,
      cdate: "2026-01-01T10:00:00", confidential: null, createdBy, creationDate: "2026-01-01T10:00:00", cvid: null, doctype: "F", domainid: "", dprofid: 0,
      family: { title: "Article", name: "ARTICLE", id: article.data.document.properties!.id, icon: "/api/v2/images/assets/sizes/24x24c/article.png" },
      fromid: article.data.document.properties!.id, fromname: "ARTICLE", fromtitle: "Article", icon: "/api/v2/images/assets/sizes/24x24c/article.png",
      initid: hello.initid, lastModificationDate: "2026-01-01T10:00:00", lmodify: "N", locked: 0, mdate: "2026-01-01T10:00:00", name: "ART_HELLO",
      note: { id: 0, title: "" }, owner: String(admin.account.id), postitid: null, prelid: null, profid: "PRF_ARTICLE",
      revdate: Date.parse("2026-01-01T10:00:00Z") / 1000, revision: 0,
      revisionData: { isModified: false, id: hello.id, number: 0, createdBy },
      security: {
        lock: { id: 0 }, readOnly: false, fixed: false,
        profil: { id: "PRF_ARTICLE", icon: "/api/v2/images/assets/sizes/24x24c/doc.png", type: "linked", activated: true, title: "PRF_ARTICLE" },
        confidentiality: "public",
      },
      state: { reference: "draft", stateLabel: "Draft", activity: "Writing", displayValue: "Writing", color: "#AAAAAA" },
      status: "alive", tags: null, type: "document", usage: "normal", usefor: "N", version: null, viewController: { id: 0, title: "" },
      wid: "WFL_ARTICLE", workflow: { id: "WFL_ARTICLE", title: "WFL_ARTICLE", icon: "/api/v2/images/assets/sizes/24x24c/doc.png" },
    });
    // id and title first, then by name, as the original orders them.
    expect(Object.keys(properties).slice(0, 4)).toEqual(["id", "title", "affected", "allocated"]);
    // What may change with the reader: who may change it, and the languages of labels.
    expect((await all(bob)).security).toMatchObject({ readOnly: true });
    expect((await all(alice)).family).toMatchObject({ title: "Article" });

    clock.advance(60_000);
    await platform.elements.update(admin, "ART_HELLO", { values: { ar_words: 121 } });
    expect(await all()).toMatchObject({ lmodify: "Y", revisionData: { isModified: true }, cdate: "2026-01-01T10:00:00", mdate: "2026-01-01T10:01:02" });
    await platform.revisions.revise(admin, (await platform.elements.read(admin, "ART_HELLO")).revision);
    const fixed = (await platform.revisions.read(admin, "ART_HELLO", "0", { fields: "document.properties.all" })).data.revision.properties!;
    expect(fixed).toMatchObject({ status: "fixed", locked: -1, lmodify: "N", security: { lock: { id: -1, temporary: false }, readOnly: true, fixed: true } });

    // An element of a structure with no lifecycle and no profile.
    expect(await all(admin, "AUTHOR_ADA")).toMatchObject({
      workflow: { id: 0, title: "" }, wid: null, profid: null, security: { profil: { id: 0, title: "" } }, family: { name: "AUTHOR", title: "Author" },
    });
  });

  it("gives an ETag that changes with the reader, the rights and the element", async () => {
    const { platform, principal, clock } = await seededPlatform();
    const first = await platform.elements.read(await principal("admin"), "ART_HELLO");
    expect(first.etag).toMatch(/^"[A-Za-z0-9+/=]+"$/);
    expect((await platform.elements.read(await principal("admin"), "ART_HELLO")).etag).toBe(first.etag);
    expect((await platform.elements.read(await principal("alice"), "ART_HELLO")).etag).not.toBe(first.etag);
    clock.advance(5);
    await platform.elements.update(await principal("admin"), "ART_HELLO", { values: { ar_words: 7 } });
    expect((await platform.elements.read(await principal("admin"), "ART_HELLO")).etag).not.toBe(first.etag);
  });
});

describe("lists", () => {
  it("sorts by title asc then id desc, pages, and echoes the parameters", async () => {
    const { platform, principal } = await seededPlatform();
    const page = await platform.elements.list(await principal("admin"), {});
    expect(page.requestParameters).toEqual({ slice: 10, offset: 0, length: 4, orderBy: "title asc, id desc" });
    expect(page.documents.map((d) => d.properties?.title)).toEqual(["Ada Lovelace", "Apple pie", "Hello", "Zebra crossing"]);
    const second = await platform.elements.list(await principal("admin"), { slice: "2", offset: "1", orderBy: "title:desc" });
    expect(second.documents.map((d) => d.properties?.title)).toEqual(["Hello", "Apple pie"]);
    expect((await platform.elements.list(await principal("admin"), { slice: "all" })).requestParameters.slice).toBe("ALL");
  });

  it("shows only what the caller may view", async () => {
    const { platform, principal } = await seededPlatform();
    const carol = await platform.elements.list(await principal("carol"), { slice: "all" });
    expect(carol.documents.map((d) => d.properties?.title)).toEqual(["Ada Lovelace"]);
    expect(carol.requestParameters.length).toBe(1);
  });

  it("refuses bad slice, offset and order", async () => {
    const { platform, principal } = await seededPlatform();
    const admin = await principal("admin");
    for (const [query, code] of [
      [{ slice: "abc" }, "ROUTES0139"], [{ slice: "-5" }, "ROUTES0139"], [{ slice: "99999999999999" }, "ROUTES0139"],
      [{ offset: "x" }, "ROUTES0140"], [{ offset: "-1" }, "ROUTES0140"],
      [{ orderBy: "title:up" }, "CRUD0501"], [{ orderBy: "ar_title" }, "CRUD0506"], [{ orderBy: "nope:asc" }, "CRUD0506"],
    ] as const) {
      expect(await codeOf(() => platform.elements.list(admin, query))).toBe(code);
    }
  });

  it("sorts a structure's list by a field and renders missing list attributes empty", async () => {
    const { platform, principal } = await seededPlatform();
    const page = await platform.elements.list(await principal("admin"), { family: "ARTICLE", orderBy: "ar_title:desc", fields: "document.properties.title,document.attributes.ar_title,document.attributes.nope,document.attributes.ar_secret" });
    expect(page.documents.map((d) => d.properties?.title)).toEqual(["Zebra crossing", "Hello", "Apple pie"]);
    expect(page.documents[0]?.attributes).toEqual({ ar_title: { value: "Zebra crossing", displayValue: "Zebra crossing" }, nope: { value: null, displayValue: "" }, ar_secret: { value: null, displayValue: "" } });
  });
});

describe("revisions and history", () => {
  it("lists revisions newest first with fixed old ones, and reads one", async () => {
    const { platform, hello, principal } = await seededPlatform();
    const admin = await principal("admin");
    await platform.revisions.revise(admin, hello, { state: "published", comment: "published" });
    const list = await platform.revisions.list(admin, "ART_HELLO");
    expect(list.data.requestParameters.orderBy).toBe("revision desc, id desc");
    expect(list.data.revisions.map((r) => [r.properties?.revision, r.properties?.status])).toEqual([[1, "alive"], [0, "fixed"]]);
    expect(list.data.revisions[1]?.uri).toBe(`/api/v2/smart-elements/${hello.initid}/revisions/0.json`);
    const zero = await platform.revisions.read(admin, "ART_HELLO", "0");
    expect(zero.data.revision.properties).toMatchObject({ id: hello.id, revision: 0, status: "fixed", state: { reference: "draft" } });
    expect(zero.data.revision.properties?.state).not.toHaveProperty("activity");
    expect(await codeOf(() => platform.revisions.read(admin, "ART_HELLO", "7"))).toBe("ROUTES0100");
    expect(await codeOf(() => platform.revisions.list(admin, "NOPE"))).toBe("CRUD0200");
    await platform.elements.delete(admin, "ART_HELLO");
    expect(await codeOf(() => platform.revisions.list(admin, "ART_HELLO"))).toBe("CRUD0219");
    expect((await platform.revisions.list(admin, "ART_HELLO", { trash: true })).data.revisions).toHaveLength(2);
  });

  it("records create, modify, revision and delete in the history", async () => {
    const { platform, hello, principal, clock, store } = await seededPlatform();
    const admin = await principal("admin");
    clock.advance(10);
    await platform.elements.update(admin, "ART_HELLO", { values: { ar_words: 3 } });
    clock.advance(10);
    await platform.revisions.revise(admin, (await store.elements.latest(hello.initid))!, { comment: "v1" });
    clock.advance(10);
    await platform.elements.delete(admin, "ART_HELLO");
    const history = await platform.revisions.history(admin, "ART_HELLO");
    expect(history.history.map((h) => h.properties.revision)).toEqual([1, 0]);
    expect(history.history[0]?.messages.map((m) => m.code)).toEqual(["DELETE", "REVISION"]);
    expect(history.history[1]?.messages.map((m) => m.code)).toEqual(["MODIFY", "CREATE"]);
    expect(history.history[0]?.properties.owner).toEqual({ id: String(hello.owner), title: "admin" });
    expect((await platform.revisions.history(admin, "ART_HELLO", { revision: "0" })).history).toHaveLength(1);
  });
});
