import { describe, expect, it } from "vitest";
import { LineageError, mayCreateUnder, mimeIconUri, type Principal } from "./internals.ts";
import { checkBundle } from "../src/bundle/bundle-problems.ts";
import { createMemoryStore } from "../src/testing/index.ts";
import { baseBundle, FILES, folder, testPlatform } from "../src/testing/bundle-helpers.ts";
import { seededPlatform } from "../src/testing/seeded-platform.ts";

// The resources issue 19 adds (creation in a structure's collection, a structure, the files of
// file fields) and the PUT and URI rules it fixes, as the core answers them: no I/O but the memory store.

async function errorOf(fn: () => unknown): Promise<LineageError> {
  try {
    await fn();
  } catch (error) {
    if (error instanceof LineageError) return error;
    throw error;
  }
  throw new Error("expected an error");
}

const text = (content: string) => new TextEncoder().encode(content);
const upload = (name: string, mime: string, content: string) => ({ kind: "upload" as const, name, mime, content: text(content) });

/** The seeded platform, with a structure of file fields under a profile only editors may view and only admin may create in. */
async function withFiles() {
  const seed = await seededPlatform();
  await seed.store.transaction(async (tx) => {
    await tx.catalog.saveProfile({ name: "PRF_REPORT", grants: { view: ["role:editor"], edit: ["role:editor"], create: [] } });
    await tx.catalog.saveStructure({
      name: "BRIEF", title: { en: "Report", fr: "Rapport" }, profile: "PRF_REPORT", titleField: "rp_title",
      fields: [
        { id: "rp_title", type: "text", label: { en: "Title", fr: "Titre" } },
        { id: "rp_file", type: "file", label: { en: "File", fr: "Fichier" } },
        { id: "rp_more", type: "file", multiple: true },
        { id: "rp_rows", type: "array", fields: [{ id: "rp_row_file", type: "file" }] },
        { id: "rp_hidden", type: "file", visibility: "I" },
      ],
    });
  });
  const admin = await seed.principal("admin");
  const report = await seed.platform.elements.create(admin, {
    structure: "BRIEF", name: "REP_ONE",
    values: {
      rp_title: "One", rp_file: upload("minutes \"final\".pdf", "application/pdf", "%PDF-1.4 one"),
      rp_more: [upload("a.txt", "text/plain", "a"), upload("b.bin", "model/x-thing", "b")],
      rp_row_file: [upload("row.txt", "text/plain", "row")], rp_hidden: upload("secret.txt", "text/plain", "secret"),
    },
  });
  return { ...seed, admin, report };
}

describe("creating an element through the API (POST on a structure's collection)", () => {
  it("creates it owned by the caller, in the first state, with the history line in the caller's language", async () => {
    const { platform, principal } = await seededPlatform();
    const alice = await principal("alice");
    const created = await platform.elements.createByApi(alice, "ARTICLE", { values: { ar_title: "Nouveau", ar_words: "12" } });
    expect(created.revision).toMatchObject({ revision: 0, structure: "ARTICLE", title: "Nouveau", owner: alice.account.id, state: "draft", values: { ar_words: 12 } });
    const [line] = (await platform.revisions.history(alice, String(created.revision.initid))).history[0]?.messages ?? [];
    expect(line).toMatchObject({ code: "CREATE", level: "info", comment: "Créé par l'API", uname: "alice" });
    const admin = await principal("admin");
    const other = await platform.elements.createByApi(admin, "AUTHOR", { values: { AU_NAME: "Grace" }, caseInsensitive: true });
    expect((await platform.revisions.history(admin, String(other.revision.initid))).history[0]?.messages[0]?.comment).toBe("Created by API");
  });

  it("answers 404 CRUD0200 for an unknown structure and 403 API0204 without the create grant", async () => {
    const { platform, principal } = await seededPlatform();
    const unknown = await errorOf(async () => platform.elements.createByApi(await principal("admin"), "NOPE", { values: {} }));
    expect([unknown.code, unknown.status, unknown.reason]).toEqual(["CRUD0200", 404, "Family not found"]);
    const refused = await errorOf(async () => platform.elements.createByApi(await principal("bob"), "ARTICLE", { values: { ar_title: "x" } }));
    expect([refused.code, refused.status, refused.message]).toEqual(["API0204", 403, 'Document creation "ARTICLE" access deny']);
  });

  it("refuses bad values as PUT does, naming the field, and writes nothing", async () => {
    const { platform, principal, store } = await seededPlatform();
    const admin = await principal("admin");
    const before = (await store.elements.list({ status: "alive", orderBy: [], limit: null, offset: 0 })).length;
    const cases: Array<[Record<string, unknown>, string, number, string]> = [
      [{}, "VALUE0002", 400, "ar_title"],
      [{ ar_title: "t", ar_words: "ten" }, "VALUE0001", 400, "ar_words"],
      [{ ar_title: "t", nope: 1 }, "CRUD0218", 400, "nope"],
      [{ ar_title: "t", ar_secret: "x" }, "CRUD0218", 400, "ar_secret"],
      [{ ar_title: "t", ar_stamp: "2026-01-01T00:00:00" }, "ROUTES0107", 500, "ar_stamp"],
      [{ ar_title: "t", ar_links: [] }, "ROUTES0107", 500, "ar_links"],
    ];
    for (const [values, code, status, field] of cases) {
      const error = await errorOf(() => platform.elements.createByApi(admin, "ARTICLE", { values }));
      expect([error.code, error.status, error.message]).toEqual([code, status, expect.stringContaining(field)]);
    }
    expect((await store.elements.list({ status: "alive", orderBy: [], limit: null, offset: 0 })).length).toBe(before);
  });
});

describe("the create grant", () => {
  const principal = (login: string, roles: string[] = [], isAdmin = false): Principal => ({
    account: { id: 9, login, displayName: login, passwordHash: null, roles, groups: [], locale: "en", rights: ["GET", "PUT", "POST", "DELETE"], disabled: false },
    roles: new Set(roles), groups: new Set(), isAdmin,
  });

  it("is the profile's create entries, else its edit entries; admin and structures without profile allow anyone", () => {
    const editOnly = { name: "P", grants: { edit: ["role:editor"] } };
    const explicit = { name: "P", grants: { edit: ["role:editor"], create: ["user:zoe"] } };
    expect(mayCreateUnder(editOnly, principal("ed", ["editor"]))).toBe(true);
    expect(mayCreateUnder(editOnly, principal("zoe"))).toBe(false);
    expect(mayCreateUnder(explicit, principal("ed", ["editor"]))).toBe(false);
    expect(mayCreateUnder(explicit, principal("zoe"))).toBe(true);
    expect(mayCreateUnder({ name: "P", grants: { create: [] } }, principal("root", [], true))).toBe(true);
    expect(mayCreateUnder(undefined, principal("anyone"))).toBe(true);
  });
});

describe("the create grant in a bundle", () => {
  it("is accepted, checked like the other grants, and decides who may create", async () => {
    const bundle = baseBundle();
    bundle.profiles[0].grants.create = ["user:bob"];
    const platform = testPlatform();
    await platform.bundles.import(bundle, { readFile: folder(FILES) });
    expect((await platform.store.catalog.profile("PRF_NOTE"))?.grants.create).toEqual(["user:bob"]);
    const [alice, bob] = [(await platform.accounts.principal("alice"))!, (await platform.accounts.principal("bob"))!];
    expect((await errorOf(() => platform.elements.createByApi(alice, "NOTE", { values: { no_title: "x" } }))).code).toBe("API0204");
    expect((await platform.elements.createByApi(bob, "NOTE", { values: { no_title: "By Bob" } })).revision.title).toBe("By Bob");
    bundle.profiles[0].grants.create = ["bob"];
    const { problems } = await checkBundle(bundle, { store: createMemoryStore(), readFile: folder(FILES) });
    expect(problems).toContainEqual(expect.objectContaining({ path: "$.profiles[0].grants.create[0]" }));
  });
});

describe("reading a structure", () => {
  it("answers its properties and its fields' definitions in the reader's language, never a field of visibility I", async () => {
    const { platform, principal } = await seededPlatform();
    const alice = await principal("alice");
    const { data } = await platform.structures.read(alice, "ARTICLE");
    expect(data.document).toMatchObject({
      uri: "/api/v2/smart-structures/ARTICLE.json",
      properties: { title: "Article", icon: "/api/v2/images/assets/sizes/24x24c/article.png", name: "ARTICLE", revision: 0, status: "alive" },
      attributes: {},
    });
    expect(Object.keys(data.document.properties ?? {}).slice(0, 2)).toEqual(["id", "title"]);
    expect(data.family?.structure.ar_title).toMatchObject({ label: "Titre", type: "text", needed: true, visibility: "W" });
    expect(data.family?.structure.ar_stamp?.visibility).toBe("R");
    expect(data.family?.structure.ar_links?.content?.ar_link_rank).toMatchObject({ type: "int" });
    expect(Object.keys(data.family?.structure ?? {})).not.toContain("ar_secret");
    const english = await platform.structures.read(await principal("bob"), "ARTICLE", { fields: "document.properties.title,family.structure" });
    expect(english.data.family?.structure.ar_title?.label).toBe("Title");
    expect(english.data.document.attributes).toBeUndefined();
  });

  it("gives document.properties.all the original's properties of a family, with what this platform has", async () => {
    const { platform, principal } = await seededPlatform();
    const alice = await principal("alice");
    const properties = (await platform.structures.read(alice, "ARTICLE", { fields: "document.properties.all" })).data.document.properties;
    const none = { id: 0, title: "" };
    expect(properties).toMatchObject({
      affected: none, allocated: null, confidential: null, createdBy: { id: 0, title: "", icon: "" }, cvid: null, doctype: "C", dprofid: 0,
      family: { title: "", name: "", id: 0, icon: "/api/v2/images/assets/sizes/24x24c/doc.png" }, fromid: 0, lmodify: "N", locked: 0,
      note: none, owner: "0", postitid: null, prelid: null, profid: "PRF_ARTICLE", revision: 0,
      revisionData: { isModified: false, number: 0, createdBy: { id: 0, title: "", icon: "" } },
      security: { lock: { id: 0 }, readOnly: true, fixed: false, profil: { id: "PRF_ARTICLE", type: "linked" }, confidentiality: "public" },
      status: "alive", tags: null, type: "family", usage: "normal", usefor: "N", version: null, viewController: none,
      wid: "WFL_ARTICLE", workflow: { id: "WFL_ARTICLE", title: "WFL_ARTICLE" },
    });
  });

  it("answers 404 ROUTES0105 for an unknown structure, and an ETag per reader, language and definition", async () => {
    const { platform, principal, store } = await seededPlatform();
    const [alice, bob] = [await principal("alice"), await principal("bob")];
    const unknown = await errorOf(() => platform.structures.read(alice, "NOPE"));
    expect([unknown.code, unknown.status, unknown.userMessage]).toEqual(["ROUTES0105", 404, 'Family "NOPE" not found']);
    const first = (await platform.structures.read(alice, "ARTICLE")).etag;
    expect((await platform.structures.read(alice, "ARTICLE")).etag).toBe(first);
    expect((await platform.structures.read(bob, "ARTICLE")).etag).not.toBe(first);
    const stored = await store.catalog.structure("ARTICLE");
    await store.transaction((tx) => tx.catalog.saveStructure({ ...stored!, title: "Story" }));
    expect((await platform.structures.read(alice, "ARTICLE")).etag).not.toBe(first);
  });
});

describe("file values and the files of file fields", () => {
  it("carry the url of the files route (the revision's once fixed) and the icon of their type", async () => {
    const { platform, admin, report } = await withFiles();
    const { data } = await platform.elements.read(admin, "REP_ONE");
    const values = data.document.attributes ?? {};
    const base = `/api/v2/smart-elements/${report.initid}`;
    expect(values.rp_file).toMatchObject({
      fileName: 'minutes "final".pdf', mime: "application/pdf",
      url: `${base}/files/rp_file/-1/minutes%20-final-.pdf?inline=true`, icon: "/api/v2/images/assets/sizes/20x20c/mime/png/mime-pdf.png",
    });
    expect(values.rp_more).toMatchObject([
      { url: `${base}/files/rp_more/0/a.txt?inline=true`, icon: "/api/v2/images/assets/sizes/20x20c/mime-txt.png" },
      { url: `${base}/files/rp_more/1/b.bin?inline=true`, icon: "" },
    ]);
    expect(values.rp_row_file).toMatchObject([{ url: `${base}/files/rp_row_file/0/row.txt?inline=true` }]);
    await platform.revisions.revise(admin, report);
    const old = await platform.revisions.read(admin, "REP_ONE", "0");
    expect(old.data.revision.attributes?.rp_file).toMatchObject({ url: `${base}/revisions/0/files/rp_file/-1/minutes%20-final-.pdf?inline=true` });
  });

  it("gives the MIME icon by exact type (under mime/png/), else by top-level type (at the root), at 20 pixels as the original links them", () => {
    expect(mimeIconUri("image/jpeg")).toBe("/api/v2/images/assets/sizes/20x20c/mime/png/mime-image.png");
    expect(mimeIconUri("image/png; charset=binary")).toBe("/api/v2/images/assets/sizes/20x20c/mime-image2.png");
    expect(mimeIconUri("text/plain")).toBe("/api/v2/images/assets/sizes/20x20c/mime-txt.png");
    expect(mimeIconUri("application/vnd.oasis.opendocument.text")).toBe("/api/v2/images/assets/sizes/20x20c/mime/png/mime-wordprocessing.png");
    expect(mimeIconUri("")).toBe("");
  });

  it("serves a field's file to those who may view the element, of the latest revision or of one revision", async () => {
    const { platform, admin, principal, report, store } = await withFiles();
    const alice = await principal("alice");
    const file = await platform.files.read(alice, "REP_ONE", "rp_file", "-1");
    expect([file.name, file.file.mime, new TextDecoder().decode(file.bytes), file.etag]).toEqual(['minutes "final".pdf', "application/pdf", "%PDF-1.4 one", `"${file.file.sha256}"`]);
    expect(new TextDecoder().decode((await platform.files.read(alice, String(report.initid), "rp_more", "1")).bytes)).toBe("b");
    await platform.elements.update(admin, "REP_ONE", { values: { rp_file: upload("new.txt", "text/plain", "two") } });
    expect((await platform.files.read(alice, "REP_ONE", "rp_file", "-1")).name).toBe("new.txt");
    await platform.revisions.revise(admin, (await store.elements.latest(report.initid))!);
    await platform.elements.update(admin, "REP_ONE", { values: { rp_file: upload("third.txt", "text/plain", "three") } });
    expect((await platform.files.read(alice, "REP_ONE", "rp_file", "-1", { revision: "0" })).name).toBe("new.txt");
    expect((await platform.files.read(alice, "REP_ONE", "rp_file", "-1", { family: "BRIEF" })).name).toBe("third.txt");
    // In the trash, the element keeps its files: its values, read from the trash, link to them.
    await platform.elements.delete(admin, "REP_ONE");
    expect((await platform.files.read(alice, "REP_ONE", "rp_file", "-1")).name).toBe("third.txt");
  });

  it("answers the original's codes for what cannot be served", async () => {
    const { platform, admin, principal } = await withFiles();
    const bob = await principal("bob");
    const cases: Array<[() => Promise<unknown>, string, number]> = [
      [() => platform.files.read(admin, "NOPE", "rp_file", "-1"), "CRUD0200", 404],
      [() => platform.files.read(bob, "REP_ONE", "rp_file", "-1"), "CRUD0201", 403],
      [() => platform.files.read(admin, "REP_ONE", "rp_file", "-1", { family: "ARTICLE" }), "CRUD0220", 404],
      [() => platform.files.read(admin, "REP_ONE", "rp_file", "-1", { revision: "7" }), "CRUD0221", 404],
      [() => platform.files.read(admin, "REP_ONE", "rp_hidden", "-1"), "ROUTES0116", 404],
      [() => platform.files.read(admin, "REP_ONE", "rp_title", "-1"), "ROUTES0124", 400],
      [() => platform.files.read(admin, "REP_ONE", "rp_more", "-1"), "ROUTES0121", 400],
      [() => platform.files.read(admin, "REP_ONE", "rp_file", "0"), "ROUTES0122", 400],
      [() => platform.files.read(admin, "REP_ONE", "rp_more", "5"), "ROUTES0118", 404],
      [() => platform.files.read(admin, "REP_ONE", "rp_more", "x"), "ROUTES0123", 400],
    ];
    for (const [read, code, status] of cases) {
      const error = await errorOf(read);
      expect([error.code, error.status]).toEqual([code, status]);
    }
  });
});

describe("URIs of sub-collections reached through a structure's collection", () => {
  it("are the plain smart-elements ones; the history is named by the logical name, else the initid", async () => {
    const { platform, principal, apple, hello } = await seededPlatform();
    const admin = await principal("admin");
    const revisions = await platform.revisions.list(admin, "ART_HELLO", { family: "ARTICLE" });
    expect(revisions.data.uri).toBe("/api/v2/smart-elements/ART_HELLO/revisions/");
    const history = await platform.revisions.history(admin, String(apple.initid), { family: "ARTICLE" });
    expect(history.uri).toBe(`/api/v2/smart-elements/${apple.initid}/history/`);
    const named = await platform.revisions.history(admin, String(hello.initid), { family: "ARTICLE" });
    expect(named.uri).toBe("/api/v2/smart-elements/ART_HELLO/history/");
    expect(named.history[0]?.uri).toBe("/api/v2/smart-elements/ART_HELLO/revisions/0.json");
  });
});
