import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPlatform, createScryptPasswordHasher, readImageHeader, type Platform, type Store } from "@lineage/core";
import { createJimpImages, createJimpProcessor } from "@lineage/adapter-images";
import { startLiveServer, withTwin, type LiveServer } from "../src/live-server.ts";
import { expectDocumentedAnswer } from "../src/openapi-answers.ts";

// Issue 19, items 1, 2, 3, 9 and 10, over a real server: creation in a structure's collection, a
// structure, the files of file fields (and the url and icon of file values), the URIs of
// sub-collections reached through a structure, and read-only fields in a PUT. Users: admin
// (English), alice (French, an editor), bob (English, a reader), carol (GET right only).

const temp = mkdtempSync(join(tmpdir(), "lineage-resources-e2e-"));
// No Images directory: the MIME-type icons of file values come from the built-in assets.
const images = createJimpImages({ imagesDir: undefined, cacheDir: join(temp, "cache"), processor: createJimpProcessor({ workers: 1 }) });

const encode = (text: string) => new TextEncoder().encode(text);
const upload = (name: string, mime: string, content: string) => ({ kind: "upload" as const, name, mime, content: encode(content) });

async function seed(store: Store) {
  const hasher = createScryptPasswordHasher({ N: 1024 });
  const platform: Platform = createPlatform({ store, hasher });
  await store.transaction(async (tx) => {
    await tx.accounts.saveRole({ id: "editor" });
    await tx.accounts.saveRole({ id: "reader" });
    await tx.accounts.saveGroup({ id: "newsroom", roles: ["editor"] });
    await tx.catalog.saveProfile({ name: "PRF_ARTICLE", grants: { view: ["role:editor", "role:reader"], edit: ["role:editor"], delete: ["role:editor"] } });
    await tx.catalog.saveProfile({ name: "PRF_REPORT", grants: { view: ["role:editor"], edit: ["role:editor"], create: ["user:bob"] } });
    await tx.catalog.saveLifecycle({
      name: "WFL_ARTICLE", firstState: "draft",
      states: [{ id: "draft", label: { en: "Draft", fr: "Brouillon" } }, { id: "published", label: "Published" }],
      transitions: [{ id: "publish", from: "draft", to: "published" }],
    });
    await tx.catalog.saveStructure({
      name: "ARTICLE", title: { en: "Article", fr: "Article" }, icon: "article.png", lifecycle: "WFL_ARTICLE", profile: "PRF_ARTICLE", titleField: "ar_title",
      fields: [
        { id: "ar_title", type: "text", label: { en: "Title", fr: "Titre" }, needed: true },
        { id: "ar_words", type: "int", label: { en: "Words", fr: "Mots" } },
        { id: "ar_stamp", type: "timestamp", label: { en: "Stamp", fr: "Horodatage" }, visibility: "R" },
        { id: "ar_secret", type: "text", visibility: "I" },
        { id: "ar_file", type: "file", label: { en: "Attachment", fr: "Pièce jointe" } },
        { id: "ar_files", type: "file", multiple: true },
        { id: "ar_links", type: "array", label: "Links", fields: [{ id: "ar_link_url", type: "text" }] },
      ],
    });
    await tx.catalog.saveStructure({
      name: "BRIEF", title: { en: "Report", fr: "Rapport" }, profile: "PRF_REPORT", titleField: "rp_title",
      fields: [{ id: "rp_title", type: "text" }, { id: "rp_file", type: "file" }],
    });
  });
  const admin = await platform.accounts.add({ login: "admin", password: "admin-pw", roles: ["admin"] });
  await platform.accounts.add({ login: "alice", password: "alice-pw", groups: ["newsroom"], locale: "fr" });
  await platform.accounts.add({ login: "bob", password: "bob-pw", roles: ["reader"] });
  await platform.accounts.add({ login: "carol", password: "carol-pw", rights: ["GET"] });
  const system = await platform.accounts.principalOf(admin);
  const hello = await platform.elements.create(system, {
    structure: "ARTICLE", name: "ART_HELLO",
    values: { ar_title: "Hello", ar_stamp: "2026-03-04T05:06:07", ar_file: upload("first draft.txt", "text/plain", "version one") },
  });
  // Revision 0 keeps the first file; the latest revision holds a PDF with a name in French.
  await platform.revisions.revise(system, hello);
  await platform.elements.update(system, "ART_HELLO", { values: { ar_file: upload("compte rendu été.pdf", "application/pdf", "%PDF-1.4 latest") } });
  const report = await platform.elements.create(system, { structure: "BRIEF", name: "REP_ONE", values: { rp_title: "One", rp_file: upload("r.txt", "text/plain", "report") } });
  return withTwin({ platform, store, hasher, hello, report });
}

let live: LiveServer<Awaited<ReturnType<typeof seed>>>;
let api: LiveServer<Awaited<ReturnType<typeof seed>>>["api"];

beforeAll(async () => {
  live = await startLiveServer(seed, { images });
  api = live.api;
});

afterAll(async () => {
  await live.close();
  await images.close();
  rmSync(temp, { recursive: true, force: true });
});

const ADMIN: [string, string] = ["admin", "admin-pw"];
const ALICE: [string, string] = ["alice", "alice-pw"];
const BOB: [string, string] = ["bob", "bob-pw"];
const codeOf = (answer: { status: number; json: any }) => [answer.status, answer.json?.messages?.[0]?.code];
const COLLECTION = "/api/v2/smart-structures/ARTICLE/smart-elements/";

/** A GET whose body is kept as bytes (files are not text), checked against the OpenAPI document. */
async function download(path: string, options: { as?: [string, string]; headers?: Record<string, string> } = {}) {
  const response = await fetch(`${live.url}${path}`, { headers: { authorization: api.basic(...(options.as ?? ADMIN)), ...options.headers } });
  const bytes = new Uint8Array(await response.arrayBuffer());
  const text = new TextDecoder().decode(bytes);
  expectDocumentedAnswer({ method: "GET", url: path, status: response.status, contentType: response.headers.get("content-type"), body: text });
  let json: any;
  try { json = JSON.parse(text); } catch { json = undefined; }
  return { status: response.status, headers: response.headers, bytes, text, json };
}

async function countArticles(): Promise<number> {
  return (await api.call("GET", `${COLLECTION}?slice=all`)).json.data.requestParameters.length;
}

async function historyComments(ref: string, as: [string, string] = ADMIN): Promise<string[]> {
  const history = (await api.call("GET", `/api/v2/smart-elements/${ref}/history/`, { as })).json.data.history;
  return history.flatMap((revision: any) => revision.messages.map((message: any) => message.comment));
}

describe("item 1: POST on a structure's collection creates an element", () => {
  it("creates from a JSON body: 201 with the element, its ETag and Location, owned by the caller, history in the caller's language", async () => {
    const created = await api.call("POST", COLLECTION, { as: ALICE, json: { document: { attributes: { ar_title: { value: "Nouvel article" }, ar_words: { value: 250 } } } } });
    expect(created.status).toBe(201);
    const document = created.json.data.document;
    expect(document.properties).toMatchObject({ title: "Nouvel article", revision: 0, status: "alive", state: { reference: "draft", stateLabel: "Brouillon" } });
    expect(document.attributes.ar_words).toEqual({ value: 250, displayValue: "250" });
    expect(created.json.data.duration).toBeUndefined();
    expect(created.headers.get("location")).toBe(document.uri);
    const read = await api.call("GET", document.uri, { as: ALICE });
    expect(read.headers.get("etag")).toBe(created.headers.get("etag"));
    const history = (await api.call("GET", `/api/v2/smart-elements/${document.properties.initid}/history/`, { as: ALICE })).json.data.history;
    expect(history[0].messages).toEqual([expect.objectContaining({ uname: "alice", level: "info", code: "CREATE", comment: "Créé par l'API" })]);
    const owners = await api.call("GET", `/api/v2/smart-elements/?fields=document.properties.owner&slice=all`, { as: ALICE });
    const ownerOf = (title: string) => owners.json.data.documents.find((item: any) => item.properties.title === title).properties.owner;
    expect(ownerOf("Nouvel article")).not.toBe(ownerOf("Hello"));
    const english = await api.call("POST", COLLECTION, { as: ADMIN, json: { document: { attributes: { ar_title: { value: "In English" } } } } });
    expect(await historyComments(String(english.json.data.document.properties.initid))).toEqual(["Created by API"]);
  });

  it("creates from a form, field names case-insensitive, and from multipart with a file", async () => {
    const form = await api.call("POST", COLLECTION, {
      as: ALICE, headers: { "content-type": "application/x-www-form-urlencoded" }, body: "AR_TITLE=From+a+form&ar_words=7",
    });
    expect([form.status, form.json.data.document.properties.title, form.json.data.document.attributes.ar_words.value]).toEqual([201, "From a form", 7]);
    const body = new FormData();
    body.append("ar_title", "With a file");
    body.append("ar_file", new Blob([encode("attached bytes")], { type: "text/plain" }), "notes.txt");
    const multipart = await api.call("POST", COLLECTION, { as: ALICE, body });
    expect(multipart.status).toBe(201);
    const value = multipart.json.data.document.attributes.ar_file;
    expect(value).toMatchObject({ fileName: "notes.txt", mime: "text/plain" });
    const file = await download(value.url, { as: ALICE });
    expect([file.status, file.text]).toEqual([200, "attached bytes"]);
  });

  it("answers 404 for an unknown structure, 403 API0204 without the create grant, 403 CRUD0105 without the POST right", async () => {
    const body = { document: { attributes: { rp_title: { value: "x" } } } };
    expect(codeOf(await api.call("POST", "/api/v2/smart-structures/NOPE/smart-elements/", { json: body }))).toEqual([404, "CRUD0200"]);
    const refused = await api.call("POST", COLLECTION, { as: BOB, json: { document: { attributes: { ar_title: { value: "x" } } } } });
    expect(codeOf(refused)).toEqual([403, "API0204"]);
    expect(refused.json.messages[0].contentText).toBe('Document creation "ARTICLE" access deny');
    // BRIEF's profile grants create to bob alone: alice, who may edit reports, may not create one.
    expect(codeOf(await api.call("POST", "/api/v2/smart-structures/BRIEF/smart-elements/", { as: ALICE, json: body }))).toEqual([403, "API0204"]);
    expect((await api.call("POST", "/api/v2/smart-structures/BRIEF/smart-elements/", { as: BOB, json: body })).status).toBe(201);
    expect(codeOf(await api.call("POST", COLLECTION, { as: ["carol", "carol-pw"], json: body }))).toEqual([403, "CRUD0105"]);
  });

  it("refuses a missing needed value, a bad value, an unknown or read-only field naming it, and writes nothing", async () => {
    const before = await countArticles();
    const cases: Array<[Record<string, unknown>, number, string, string]> = [
      [{ ar_words: { value: 3 } }, 400, "VALUE0002", "ar_title"],
      [{ ar_title: { value: "t" }, ar_words: { value: "three" } }, 400, "VALUE0001", "ar_words"],
      [{ ar_title: { value: "t" }, ar_nope: { value: 1 } }, 400, "CRUD0218", "ar_nope"],
      [{ ar_title: { value: "t" }, ar_secret: { value: "s" } }, 400, "CRUD0218", "ar_secret"],
      [{ ar_title: { value: "t" }, ar_stamp: { value: "2026-01-01T00:00:00" } }, 500, "ROUTES0107", "ar_stamp"],
    ];
    for (const [attributes, status, code, field] of cases) {
      const answer = await api.call("POST", COLLECTION, { as: ALICE, json: { document: { attributes } } });
      expect([...codeOf(answer), answer.json.exceptionMessage]).toEqual([status, code, expect.stringContaining(field)]);
    }
    expect(codeOf(await api.call("POST", COLLECTION, { as: ALICE, json: { document: {} } }))).toEqual([400, "ROUTES0106"]);
    expect(await countArticles()).toBe(before);
  });

  it("leaves POST on /api/v2/smart-elements/ and other methods on a structure unavailable (501)", async () => {
    expect(codeOf(await api.call("POST", "/api/v2/smart-elements/", { json: { document: { attributes: {} } } }))).toEqual([501, "CRUD0103"]);
    expect(codeOf(await api.call("PUT", "/api/v2/smart-structures/ARTICLE", { json: {} }))).toEqual([501, "CRUD0103"]);
    expect(codeOf(await api.call("DELETE", COLLECTION))).toEqual([501, "CRUD0103"]);
  });
});

describe("item 2: GET /api/v2/smart-structures/<name>", () => {
  it("answers its properties and its fields' definitions in the caller's language, never a field of visibility I", async () => {
    const french = await api.call("GET", "/api/v2/smart-structures/ARTICLE", { as: ALICE });
    expect(french.status).toBe(200);
    const { document, family } = french.json.data;
    expect(document).toMatchObject({
      uri: "/api/v2/smart-structures/ARTICLE.json", attributes: {},
      properties: { name: "ARTICLE", title: "Article", icon: "/api/v2/images/assets/sizes/24x24c/article.png", revision: 0, status: "alive" },
    });
    expect(family.structure.ar_title).toMatchObject({ id: "ar_title", label: "Titre", type: "text", needed: true, multiple: false, visibility: "W", logicalOrder: 1 });
    expect(family.structure.ar_stamp).toMatchObject({ label: "Horodatage", visibility: "R" });
    expect(family.structure.ar_file.label).toBe("Pièce jointe");
    expect(family.structure.ar_links.content.ar_link_url).toMatchObject({ type: "text" });
    expect(Object.keys(family.structure)).not.toContain("ar_secret");
    expect(french.text).not.toContain("ar_secret");
    const english = await api.call("GET", "/api/v2/smart-structures/ARTICLE.json", { as: BOB });
    expect([english.json.data.family.structure.ar_title.label, english.json.data.family.structure.ar_file.label]).toEqual(["Title", "Attachment"]);
    const report = await api.call("GET", "/api/v2/smart-structures/BRIEF?fields=document.properties.title", { as: ALICE });
    expect(report.json.data).toEqual({ document: { uri: "/api/v2/smart-structures/BRIEF.json", properties: { id: expect.any(Number), title: "Rapport" } } });
  });

  it("carries an ETag per language, 304 with If-None-Match; 404 ROUTES0105 for an unknown structure", async () => {
    const first = await api.call("GET", "/api/v2/smart-structures/ARTICLE", { as: ALICE });
    const etag = first.headers.get("etag") ?? "";
    expect(etag).toMatch(/^"[A-Za-z0-9+/=]+"$/);
    expect((await api.call("GET", "/api/v2/smart-structures/ARTICLE", { as: ALICE, headers: { "if-none-match": etag } })).status).toBe(304);
    expect((await api.call("GET", "/api/v2/smart-structures/ARTICLE", { as: BOB, headers: { "if-none-match": etag } })).status).toBe(200);
    const unknown = await api.call("GET", "/api/v2/smart-structures/NOPE");
    expect(codeOf(unknown)).toEqual([404, "ROUTES0105"]);
    expect(unknown.json.messages[0].contentText).toBe('Family "NOPE" not found');
  });
});

describe("item 3: the files of file fields", () => {
  it("gives file values the url of the files route and the icon of their type, both served", async () => {
    const { initid } = live.seed.hello;
    const value = (await api.call("GET", "/api/v2/smart-elements/ART_HELLO", { as: ALICE })).json.data.document.attributes.ar_file;
    expect(value).toMatchObject({
      value: expect.stringMatching(/^application\/pdf\|\d+\|compte rendu été\.pdf$/), displayValue: "compte rendu été.pdf", mime: "application/pdf",
      url: `/api/v2/smart-elements/${initid}/files/ar_file/-1/compte%20rendu%20%C3%A9t%C3%A9.pdf?inline=true`,
      icon: "/api/v2/images/assets/sizes/20x20c/mime/png/mime-pdf.png",
    });
    const file = await download(value.url, { as: ALICE });
    expect([file.status, file.text, file.headers.get("content-type")]).toEqual([200, "%PDF-1.4 latest", "application/pdf"]);
    expect(file.headers.get("content-disposition")).toBe(`inline; filename="compte rendu ete.pdf"; filename*=UTF-8''compte%20rendu%20%C3%A9t%C3%A9.pdf`);
    expect(file.headers.get("x-content-type-options")).toBe("nosniff");
    const icon = await download(value.icon, { as: ALICE });
    expect([icon.status, icon.headers.get("content-type")]).toEqual([200, "image/png"]);
    expect(readImageHeader(icon.bytes)).toMatchObject({ width: 20, height: 20 });
    // A type known by its top-level type only: the original's icon outside mime/png/, served too.
    const text = (await api.call("GET", "/api/v2/smart-elements/REP_ONE", { as: ALICE })).json.data.document.attributes.rp_file;
    expect(text).toMatchObject({ mime: "text/plain", icon: "/api/v2/images/assets/sizes/20x20c/mime-txt.png" });
    const textIcon = await download(text.icon, { as: ALICE });
    expect([textIcon.status, textIcon.headers.get("content-type"), readImageHeader(textIcon.bytes)?.width]).toEqual([200, "image/png", 20]);
  });

  it("serves the stored file as an attachment by default, with a strong ETag and 304, whatever name or Accept the URL gives", async () => {
    const { initid } = live.seed.hello;
    const path = `/api/v2/smart-elements/ART_HELLO/files/ar_file/-1/anything`;
    const file = await download(path, { as: BOB, headers: { accept: "application/pdf" } });
    expect([file.status, file.text]).toEqual([200, "%PDF-1.4 latest"]);
    expect(file.headers.get("content-disposition")).toMatch(/^attachment; filename="compte rendu ete\.pdf"/);
    const etag = file.headers.get("etag") ?? "";
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    const again = await download(`/api/v2/smart-elements/${initid}/files/ar_file/-1/x.pdf`, { as: BOB, headers: { "if-none-match": etag } });
    expect([again.status, again.bytes.length, again.headers.get("etag")]).toEqual([304, 0, etag]);
    const viaStructure = await download(`/api/v2/smart-structures/ARTICLE/smart-elements/ART_HELLO/files/ar_file/-1/x.pdf`, { as: BOB });
    expect(viaStructure.text).toBe("%PDF-1.4 latest");
  });

  it("serves the file one revision holds, linked from that revision's values", async () => {
    const old = (await api.call("GET", "/api/v2/smart-elements/ART_HELLO/revisions/0")).json.data.revision.attributes.ar_file;
    expect(old.url).toBe(`/api/v2/smart-elements/${live.seed.hello.initid}/revisions/0/files/ar_file/-1/first%20draft.txt?inline=true`);
    const file = await download(old.url);
    expect([file.status, file.text, file.headers.get("content-type")]).toEqual([200, "version one", "text/plain"]);
    expect((await download("/api/v2/smart-structures/ARTICLE/smart-elements/ART_HELLO/revisions/0/files/ar_file/-1/f")).text).toBe("version one");
    expect(codeOf(await download("/api/v2/smart-elements/ART_HELLO/revisions/9/files/ar_file/-1/f"))).toEqual([404, "CRUD0221"]);
  });

  it("checks rights like the element and answers what cannot be served with the envelope", async () => {
    const cases: Array<[string, [string, string], number, string]> = [
      ["/api/v2/smart-elements/REP_ONE/files/rp_file/-1/r.txt", BOB, 403, "CRUD0201"],
      ["/api/v2/smart-elements/NOPE/files/ar_file/-1/f.pdf", ADMIN, 404, "CRUD0200"],
      ["/api/v2/smart-elements/ART_HELLO/files/ar_secret/-1/f.pdf", ADMIN, 404, "ROUTES0116"],
      ["/api/v2/smart-elements/ART_HELLO/files/ar_nope/-1/f.pdf", ADMIN, 404, "ROUTES0116"],
      ["/api/v2/smart-elements/ART_HELLO/files/ar_files/0/f.pdf", ADMIN, 404, "ROUTES0118"],
      ["/api/v2/smart-elements/ART_HELLO/files/ar_title/-1/f.pdf", ADMIN, 400, "ROUTES0124"],
      ["/api/v2/smart-elements/ART_HELLO/files/ar_file/0/f.pdf", ADMIN, 400, "ROUTES0122"],
      ["/api/v2/smart-structures/BRIEF/smart-elements/ART_HELLO/files/ar_file/-1/f.pdf", ADMIN, 404, "CRUD0220"],
    ];
    for (const [path, as, status, code] of cases) {
      const answer = await download(path, { as });
      expect([path, ...codeOf(answer), answer.headers.get("content-type")]).toEqual([path, status, code, "application/json"]);
    }
    expect(codeOf(await api.call("PUT", "/api/v2/smart-elements/ART_HELLO/files/ar_file/-1/f.pdf", { json: {} }))).toEqual([501, "CRUD0103"]);
  });
});

describe("item 9: URIs of sub-collections reached through a structure's collection", () => {
  it("are the plain /api/v2/smart-elements/ ones, the history named by the logical name", async () => {
    const { initid } = live.seed.hello;
    const revisions = await api.call("GET", "/api/v2/smart-structures/ARTICLE/smart-elements/ART_HELLO/revisions/");
    expect(revisions.json.data.uri).toBe("/api/v2/smart-elements/ART_HELLO/revisions/");
    expect(revisions.json.data.revisions.map((item: any) => item.uri)).toEqual([
      `/api/v2/smart-elements/${initid}/revisions/1.json`, `/api/v2/smart-elements/${initid}/revisions/0.json`,
    ]);
    const history = await api.call("GET", `/api/v2/smart-structures/ARTICLE/smart-elements/${initid}/history/`);
    expect(history.json.data.uri).toBe("/api/v2/smart-elements/ART_HELLO/history/");
    expect(history.json.data.history.map((item: any) => item.uri)).toEqual([
      "/api/v2/smart-elements/ART_HELLO/revisions/1.json", "/api/v2/smart-elements/ART_HELLO/revisions/0.json",
    ]);
  });
});

describe("item 10: a read-only field in a PUT", () => {
  it("is refused with 500 ROUTES0107 naming the field, in JSON and in a form, and nothing is written", async () => {
    const before = await api.call("GET", "/api/v2/smart-elements/ART_HELLO", { as: ALICE });
    const json = await api.call("PUT", "/api/v2/smart-elements/ART_HELLO", {
      as: ALICE, json: { document: { attributes: { ar_title: { value: "Changed" }, ar_stamp: { value: "2030-01-01T00:00:00" } } } },
    });
    expect(codeOf(json)).toEqual([500, "ROUTES0107"]);
    expect(json.json.messages[0]).toMatchObject({ contentText: "Document update failed", data: { id: "ar_stamp", index: -1 } });
    expect(json.json.exceptionMessage).toMatch(/attribute "ar_stamp"/);
    const form = await api.call("PUT", "/api/v2/smart-elements/ART_HELLO", {
      as: ALICE, headers: { "content-type": "application/x-www-form-urlencoded" }, body: "ar_title=Changed&AR_STAMP=2030-01-01T00%3A00%3A00",
    });
    expect(codeOf(form)).toEqual([500, "ROUTES0107"]);
    const after = await api.call("GET", "/api/v2/smart-elements/ART_HELLO", { as: ALICE });
    expect(after.headers.get("etag")).toBe(before.headers.get("etag"));
    expect(after.json.data.document.properties.title).toBe("Hello");
    expect(after.json.data.document.attributes.ar_stamp.value).toBe("2026-03-04T05:06:07");
  });

  it("still writes the other fields, with the history line in the writer's language", async () => {
    const put = await api.call("PUT", "/api/v2/smart-elements/REP_ONE", { as: ALICE, json: { document: { attributes: { rp_title: { value: "Un" } } } } });
    expect(put.status).toBe(200);
    await api.call("PUT", "/api/v2/smart-elements/REP_ONE", { as: ADMIN, json: { document: { attributes: { rp_title: { value: "One" } } } } });
    expect(await historyComments("REP_ONE")).toEqual(["Updated by API", "mise à jour par l'API", "Created"]);
  });
});
