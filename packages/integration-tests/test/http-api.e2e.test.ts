import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seededPlatform } from "@lineage/core/testing";
import { startLiveServer, type LiveServer } from "../src/live-server.ts";

let live: LiveServer<Awaited<ReturnType<typeof seededPlatform>>>;
let api: LiveServer<Awaited<ReturnType<typeof seededPlatform>>>["api"];
let seed: Awaited<ReturnType<typeof seededPlatform>>;

beforeAll(async () => {
  // The login throttle relaxed, as in the other suites: after the wrong passwords below, the default
  // one would hold every later request of the same client for 250 ms (login-throttle.e2e.test.ts tests it).
  live = await startLiveServer(seededPlatform, { limits: { maxBodyBytes: 64 * 1024 }, auth: { throttle: { baseDelayMs: 1, maxDelayMs: 2 } } });
  ({ api, seed } = live);
});

afterAll(() => live.close());

const errorCode = (response: { json: any }) => response.json?.messages?.[0]?.code;

describe("authentication on /api/", () => {
  it("answers 401 with the envelope and a Basic challenge without credentials", async () => {
    const response = await api.call("GET", "/api/v2/smart-elements/", { as: null });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(/^Basic realm=/);
    expect(response.json).toMatchObject({ success: false, data: null, messages: [{ type: "error", code: "AUTH0401" }] });
  });

  it("answers 401 for wrong credentials and unknown schemes", async () => {
    expect((await api.call("GET", "/api/v2/smart-elements/", { as: ["admin", "nope"] })).status).toBe(401);
    expect((await api.call("GET", "/api/v2/smart-elements/", { as: ["ghost", "nope"] })).status).toBe(401);
    const bearer = await api.call("GET", "/api/v2/smart-elements/", { as: null, headers: { authorization: "Bearer abc" } });
    expect([bearer.status, errorCode(bearer)]).toEqual([401, "AUTH0402"]);
    const garbage = await api.call("GET", "/api/v2/smart-elements/", { as: null, headers: { authorization: "Basic %%%" } });
    expect(garbage.status).toBe(401);
  });

  it("checks the global right of the method", async () => {
    const response = await api.call("PUT", "/api/v2/smart-elements/AUTHOR_ADA", { as: ["carol", "carol-pw"], json: { document: { attributes: {} } } });
    expect([response.status, errorCode(response)]).toEqual([403, "CRUD0105"]);
  });
});

describe("the Smart Element collection", () => {
  it("lists with the envelope, no cache, and the spec's parameters", async () => {
    const response = await api.call("GET", "/api/v2/smart-elements/?slice=2&offset=1");
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("private, no-cache, must-revalidate");
    expect(response.headers.get("etag")).toBeNull();
    expect(response.json.success).toBe(true);
    expect(response.json.messages).toEqual([]);
    expect(response.json.data.requestParameters).toEqual({ slice: 2, offset: 1, length: 2, orderBy: "title asc, id desc" });
    expect(response.json.data.uri).toBe("/api/v2/smart-elements/");
    expect(response.json.data.documents[0]).toMatchObject({ properties: { title: "Apple pie" }, uri: expect.stringMatching(/^\/api\/v2\/smart-elements\/\d+\.json$/) });
  });

  it("answers 400 with the code for bad list parameters", async () => {
    for (const [query, code] of [["slice=abc", "ROUTES0139"], ["orderBy=ar_title", "CRUD0506"], ["fields=document.properties.nope", "CRUD0202"], ["offset=-3", "ROUTES0140"]]) {
      const response = await api.call("GET", `/api/v2/smart-elements/?${query}`);
      expect([response.status, errorCode(response)]).toEqual([400, code]);
    }
  });

  it("answers 501 for unavailable methods and 404 for unknown paths", async () => {
    for (const method of ["POST", "PUT", "DELETE"]) {
      const response = await api.call(method, "/api/v2/smart-elements/");
      expect([response.status, errorCode(response)]).toEqual([501, "CRUD0103"]);
    }
    expect((await api.call("POST", "/api/v2/smart-elements/ART_HELLO")).status).toBe(501);
    expect((await api.call("PUT", "/api/v2/smart-elements/ART_HELLO.xml")).status).toBe(501);
    expect((await api.call("DELETE", "/api/v2/smart-elements/ART_HELLO/revisions/")).status).toBe(501);
    const unknown = await api.call("GET", "/api/v2/nothing-here");
    expect([unknown.status, errorCode(unknown), unknown.json.success]).toEqual([404, "API0004", false]);
  });
});

describe("one Smart Element", () => {
  it("serves it by name, id and .json, with an ETag and 304", async () => {
    const byName = await api.call("GET", "/api/v2/smart-elements/ART_HELLO");
    expect(byName.status).toBe(200);
    expect(byName.json.data.document.properties).toMatchObject({ name: "ART_HELLO", title: "Hello" });
    const etag = byName.headers.get("etag") ?? "";
    expect(etag).toMatch(/^"[A-Za-z0-9+/=]+"$/);
    const byId = await api.call("GET", `/api/v2/smart-elements/${seed.hello.initid}.json`);
    expect(byId.json.data).toEqual(byName.json.data);
    const cached = await api.call("GET", "/api/v2/smart-elements/ART_HELLO", { headers: { "if-none-match": etag } });
    expect([cached.status, cached.text, cached.headers.get("etag")]).toEqual([304, "", etag]);
  });

  it("serves the family variant and refuses another family", async () => {
    expect((await api.call("GET", "/api/v2/smart-structures/ARTICLE/smart-elements/ART_HELLO")).status).toBe(200);
    const wrong = await api.call("GET", "/api/v2/smart-structures/AUTHOR/smart-elements/ART_HELLO");
    expect([wrong.status, errorCode(wrong)]).toEqual([404, "ROUTES0104"]);
  });

  it("answers the spec's errors", async () => {
    const missing = await api.call("GET", "/api/v2/smart-elements/NOPE");
    expect([missing.status, errorCode(missing), missing.json.messages[0].contentText]).toEqual([404, "ROUTES0100", 'Document "NOPE" not found']);
    const forbidden = await api.call("GET", "/api/v2/smart-elements/ART_HELLO", { as: ["carol", "carol-pw"] });
    expect([forbidden.status, errorCode(forbidden)]).toEqual([403, "ROUTES0101"]);
  });

  it("gives document.properties.all the original's properties, in the element and in lists, as the OpenAPI document describes them", async () => {
    const none = { id: 0, title: "" };
    const adminId = (await seed.principal("admin")).account.id;
    const createdBy = { id: adminId, title: "admin", icon: "/api/v2/images/assets/sizes/24x24c/se-iuser.png" };
    const one = await api.call("GET", "/api/v2/smart-elements/ART_HELLO?fields=document.properties.all");
    expect(one.status).toBe(200);
    const properties = one.json.data.document.properties;
    expect(properties).toMatchObject({
      affected: none, allocated: null, confidential: null, createdBy, cvid: null, dprofid: 0, lmodify: "N", note: none, owner: String(adminId),
      family: { name: "ARTICLE", title: "Article", icon: "/api/v2/images/assets/sizes/24x24c/article.png" }, postitid: null, prelid: null,
      revisionData: { isModified: false, id: seed.hello.id, number: 0, createdBy },
      security: { lock: { id: 0 }, readOnly: false, fixed: false, profil: { id: "PRF_ARTICLE", type: "linked" }, confidentiality: "public" },
      tags: null, type: "document", usage: "normal", usefor: "N", version: null, viewController: none, workflow: { id: "WFL_ARTICLE" },
      cdate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/), creationDate: properties.cdate, lastModificationDate: properties.mdate,
    });
    // Bob may read but not change: the same element is read-only to him.
    expect((await api.call("GET", "/api/v2/smart-elements/ART_HELLO?fields=document.properties.security", { as: ["bob", "bob-pw"] })).json.data.document.properties.security.readOnly).toBe(true);
    const list = await api.call("GET", "/api/v2/smart-structures/ARTICLE/smart-elements/?fields=document.properties.all&slice=2");
    expect(list.json.data.documents.map((item: any) => [item.properties.type, item.properties.createdBy.title])).toEqual([["document", "admin"], ["document", "admin"]]);
    const structure = await api.call("GET", "/api/v2/smart-structures/ARTICLE?fields=document.properties.all");
    expect(structure.json.data.document.properties).toMatchObject({ type: "family", family: { id: 0, name: "" }, createdBy: { id: 0, title: "", icon: "" }, security: { readOnly: true } });
  });

  it("answers a name holding U+0000 as an unknown element, the same on every store", async () => {
    // No store keeps U+0000 (PostgreSQL cannot): such a name names nothing, and is not an error of the server.
    const cases: Array<[string, number, string]> = [
      ["/api/v2/smart-elements/%E2%98%83%00", 404, "ROUTES0100"],
      ["/api/v2/smart-elements/%00", 404, "ROUTES0100"],
      ["/api/v2/smart-elements/ART%00HELLO.json", 404, "ROUTES0100"],
      ["/api/v2/smart-structures/ARTICLE/smart-elements/%E2%98%83%00", 404, "ROUTES0100"],
      ["/api/v2/smart-elements/%E2%98%83%00/revisions/", 404, "CRUD0200"],
      ["/api/v2/smart-elements/%E2%98%83%00/revisions/0", 404, "ROUTES0100"],
      ["/api/v2/smart-elements/%E2%98%83%00/history/", 404, "CRUD0200"],
      ["/api/v2/smart-elements/%E2%98%83%00/workflows/states/", 404, "CRUD0200"],
      ["/api/v2/trash/%E2%98%83%00", 404, "ROUTES0100"],
    ];
    for (const [path, status, code] of cases) {
      const response = await api.call("GET", path);
      expect([path, response.status, errorCode(response), response.json.success]).toEqual([path, status, code, false]);
    }
    const put = await api.call("PUT", "/api/v2/smart-elements/%E2%98%83%00", { json: { document: { attributes: { ar_title: { value: "x" } } } } });
    expect([put.status, errorCode(put)]).toEqual([404, "ROUTES0100"]);
    const del = await api.call("DELETE", "/api/v2/smart-elements/%E2%98%83%00");
    expect([del.status, errorCode(del)]).toEqual([404, "ROUTES0100"]);
  });

  it("answers XML for .xml, and honours Accept, the suffix and alt=html", async () => {
    const xml = await api.call("GET", "/api/v2/smart-elements/ART_HELLO.xml");
    expect(xml.headers.get("content-type")).toMatch(/^application\/xml/);
    expect(xml.text).toContain("<ar_title>Hello</ar_title>");
    // Visibility I: its tag says the reader may not see it, never its value.
    expect(xml.text).toContain('<ar_secret granted="false"/>');
    expect(xml.text).not.toContain("hidden");
    const refused = await api.call("GET", "/api/v2/smart-elements/ART_HELLO", { headers: { accept: "text/csv" } });
    expect([refused.status, errorCode(refused)]).toEqual([400, "API0006"]);
    expect((await api.call("GET", "/api/v2/smart-elements/ART_HELLO.json", { headers: { accept: "text/csv" } })).status).toBe(200);
    expect((await api.call("GET", "/api/v2/smart-elements/ART_HELLO.yaml")).status).toBe(400);
    const page = await api.call("GET", "/api/v2/smart-elements/ART_HELLO?alt=html");
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect(page.text).toMatch(/^<html><body><textarea>\{&quot;success&quot;:true/);
  });

  it("answers the original's CSV for .csv: //FAM, ORDER and DOC lines, ; separated, text/plain with inline", async () => {
    const csv = await api.call("GET", "/api/v2/smart-elements/ART_HELLO.csv");
    expect([csv.status, csv.headers.get("content-type")]).toEqual([200, "text/csv; charset=utf-8"]);
    expect(csv.headers.get("etag")).toBeTruthy();
    const lines = csv.text.split("\n");
    expect(lines[0]).toBe("//FAM;Article(ARTICLE);<specid>;<fldid>;Title;ar_category;ar_tags;ar_words;ar_score;ar_date;ar_stamp;ar_author;ar_body;ar_secret;ar_link_url;ar_link_rank");
    expect(lines[1]).toBe("ORDER;ARTICLE;;;ar_title;ar_category;ar_tags;ar_words;ar_score;ar_date;ar_stamp;ar_author;ar_body;ar_secret;ar_link_url;ar_link_rank");
    // Lists and rows one item per line in a quoted cell; a docid by its target's name; visibility I empty.
    expect(csv.text).toContain('DOC;ARTICLE;ART_HELLO;;Hello;tech;"tech\nai";120;3.5;2026-03-04;2026-03-04T05:06:07;AUTHOR_ADA;');
    expect(csv.text).toContain(';;"https://example.org\nhttps://example.com";"1\n2"\n');
    expect(csv.text).not.toContain("hidden");
    const inline = await api.call("GET", "/api/v2/smart-structures/ARTICLE/smart-elements/ART_HELLO.csv?inline");
    expect([inline.status, inline.headers.get("content-type"), inline.text]).toEqual([200, "text/plain; charset=utf-8", csv.text]);
    expect((await api.call("PUT", "/api/v2/smart-elements/ART_HELLO.csv", { json: { document: { attributes: {} } } })).status).toBe(501);
    expect((await api.call("GET", "/api/v2/smart-elements/ART_HELLO.csv", { as: ["carol", "carol-pw"] })).status).toBe(403);
  });

  it("leads the .html url of docid values to the console's page of the element, whatever Accept says; writes refuse it", async () => {
    const { initid } = seed.hello;
    for (const path of [`/api/v2/smart-elements/${initid}.html`, `/api/v2/smart-structures/ARTICLE/smart-elements/${initid}.html`]) {
      const redirect = await api.call("GET", path, { redirect: "manual", headers: { accept: "text/html" } });
      expect([redirect.status, redirect.headers.get("location")]).toEqual([302, `/console/elements/${initid}`]);
    }
    const named = await api.call("GET", "/api/v2/smart-elements/ART_HELLO.html", { redirect: "manual" });
    expect(named.headers.get("location")).toBe("/console/elements/ART_HELLO");
    // Followed: the page of the element, for whoever may view it.
    const followed = await api.call("GET", `/api/v2/smart-elements/${initid}.html`, { headers: { accept: "text/html" } });
    expect([followed.status, followed.headers.get("content-type")]).toEqual([200, "text/html; charset=utf-8"]);
    expect(followed.text).toContain("Hello");
    const refused = await api.call("GET", `/api/v2/smart-elements/${initid}.html`, { as: ["carol", "carol-pw"] });
    expect(refused.status).toBe(403);
    expect((await api.call("PUT", "/api/v2/smart-elements/ART_HELLO.html", { json: { document: { attributes: {} } } })).status).toBe(501);
    // The url of a docid value leads there.
    const url = (await api.call("GET", "/api/v2/smart-elements/ART_HELLO")).json.data.document.attributes.ar_author.url;
    expect((await api.call("GET", url, { redirect: "manual" })).headers.get("location")).toBe(`/console/elements/${seed.author.initid}`);
  });
});

describe("writing", () => {
  it("PUTs JSON, urlencoded (case-insensitive) and multipart with a file", async () => {
    const json = await api.call("PUT", "/api/v2/smart-elements/ART_ZEBRA", { json: { document: { attributes: { ar_words: { value: 12 }, ar_tags: [{ value: "tech" }, { value: "food" }] } } } });
    expect(json.status).toBe(200);
    expect(json.json.data.document.attributes.ar_words).toEqual({ value: 12, displayValue: "12" });
    expect(json.json.data.duration).toMatch(/^\d+\.\d{4}$/);
    const form = await api.call("PUT", "/api/v2/smart-elements/ART_ZEBRA", { body: new URLSearchParams({ AR_TITLE: "Zebra 2", Ar_Words: "13" }), headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(form.json.data.document.properties.title).toBe("Zebra 2");
    const multipart = new FormData();
    multipart.set("ar_title", "Zebra 3");
    const put = await api.call("PUT", "/api/v2/smart-elements/ART_ZEBRA", { body: multipart });
    expect([put.status, put.json.data.document.properties.title]).toEqual([200, "Zebra 3"]);
  });

  it("refuses bad bodies with a 4xx envelope and writes nothing", async () => {
    const before = (await api.call("GET", "/api/v2/smart-elements/ART_HELLO")).json.data;
    const cases: Array<[RequestInit["body"], Record<string, string>, number, string]> = [
      ["{not json", { "content-type": "application/json" }, 400, "API0009"],
      ["[]", { "content-type": "application/json" }, 400, "ROUTES0106"],
      [JSON.stringify({ document: { attributes: { ar_words: 5 } } }), { "content-type": "application/json" }, 400, "ROUTES0108"],
      [JSON.stringify({ document: { attributes: { ar_words: { value: "five" } } } }), { "content-type": "application/json" }, 400, "VALUE0001"],
      [JSON.stringify({ document: { attributes: { nope: { value: 1 } } } }), { "content-type": "application/json" }, 400, "CRUD0218"],
      // No store can keep U+0000 everywhere (PostgreSQL cannot): refused alike on every store.
      [JSON.stringify({ document: { attributes: { ar_title: { value: "nul\u0000here" } } } }), { "content-type": "application/json" }, 400, "VALUE0001"],
      ["[".repeat(100) + "]".repeat(100), { "content-type": "application/json" }, 400, "API0009"],
      ["x", { "content-type": "text/csv" }, 400, "API0012"],
      ["x".repeat(70 * 1024), { "content-type": "application/json" }, 413, "API0010"],
    ];
    for (const [body, headers, status, code] of cases) {
      const response = await api.call("PUT", "/api/v2/smart-elements/ART_HELLO", { body, headers });
      expect([response.status, errorCode(response)]).toEqual([status, code]);
    }
    expect((await api.call("GET", "/api/v2/smart-elements/ART_HELLO")).json.data).toEqual(before);
  });

  it("honours X-HTTP-Method-Override for PUT and DELETE only", async () => {
    const put = await api.call("POST", "/api/v2/smart-elements/ART_ZEBRA", { headers: { "x-http-method-override": "PUT" }, json: { document: { attributes: { ar_words: { value: 99 } } } } });
    expect([put.status, put.json.data.document.attributes.ar_words.value]).toEqual([200, 99]);
    const refused = await api.call("POST", "/api/v2/smart-elements/ART_ZEBRA", { headers: { "x-http-method-override": "PATCH" } });
    expect([refused.status, errorCode(refused)]).toEqual([400, "API0008"]);
  });

  it("deletes to the trash, serves the trash, restores", async () => {
    const id = seed.apple.initid;
    const deleted = await api.call("POST", `/api/v2/smart-elements/${id}`, { headers: { "x-http-method-override": "DELETE" } });
    expect([deleted.status, deleted.json.data.document.properties.status, deleted.json.data.document.uri]).toEqual([200, "deleted", `/api/v2/trash/${id}.json`]);
    const gone = await api.call("GET", `/api/v2/smart-elements/${id}`);
    expect([gone.status, errorCode(gone), gone.json.messages[0].uri]).toEqual([404, "ROUTES0102", `/api/v2/trash/${id}.json`]);
    expect((await api.call("DELETE", `/api/v2/smart-elements/${id}`)).status).toBe(404);
    const trash = await api.call("GET", "/api/v2/trash/");
    expect(trash.json.data.documents.map((d: any) => d.uri)).toContain(`/api/v2/trash/${id}.json`);
    expect((await api.call("GET", `/api/v2/trash/${id}.json`)).json.data.document.properties.status).toBe("deleted");
    const notDeleted = await api.call("GET", "/api/v2/trash/ART_HELLO");
    expect([notDeleted.status, errorCode(notDeleted)]).toEqual([404, "ROUTES0112"]);
    expect((await api.call("GET", `/api/v2/trash/${id}/revisions/`)).json.data.revisions).toHaveLength(1);
    const badRestore = await api.call("PUT", `/api/v2/trash/${id}`, { json: { document: { properties: { status: "zombie" } } } });
    expect([badRestore.status, errorCode(badRestore)]).toEqual([400, "CRUD0236"]);
    const restored = await api.call("PUT", `/api/v2/trash/${id}`, { json: { document: { properties: { status: "alive" } } } });
    expect([restored.status, restored.json.data.document.properties.status]).toEqual([200, "alive"]);
    const history = await api.call("GET", `/api/v2/smart-elements/${id}/history/`);
    expect(history.json.data.history[0].messages.map((m: any) => m.code)).toEqual(["RESTORE", "DELETE", "CREATE"]);
  });
});

describe("revisions", () => {
  it("lists and reads revisions in the three variants, with ETags", async () => {
    await seed.platform.revisions.revise(await seed.principal("admin"), (await seed.store.elements.latest(seed.author.initid))!, { comment: "r1" });
    const list = await api.call("GET", "/api/v2/smart-elements/AUTHOR_ADA/revisions/");
    expect(list.json.data.revisions.map((r: any) => [r.properties.revision, r.properties.status])).toEqual([[1, "alive"], [0, "fixed"]]);
    expect(list.json.data.uri).toBe("/api/v2/smart-elements/AUTHOR_ADA/revisions/");
    expect(list.headers.get("etag")).toBeTruthy();
    const family = await api.call("GET", "/api/v2/smart-structures/AUTHOR/smart-elements/AUTHOR_ADA/revisions/0.json");
    expect(family.json.data.revision.properties).toMatchObject({ revision: 0, status: "fixed" });
    const etag = family.headers.get("etag") ?? "";
    expect((await api.call("GET", "/api/v2/smart-elements/AUTHOR_ADA/revisions/0", { headers: { "if-none-match": etag } })).status).toBe(304);
    const missing = await api.call("GET", "/api/v2/smart-elements/NOPE/revisions/");
    expect([missing.status, errorCode(missing)]).toEqual([404, "CRUD0200"]);
  });
});

describe("files", () => {
  it("stores a multipart upload in the vault and serves its value", async () => {
    await seed.store.catalog.saveStructure({ name: "GALLERY", titleField: "ga_title", fields: [
      { id: "ga_title", type: "text" }, { id: "ga_picture", type: "image" }, { id: "ga_notes", type: "file", multiple: true },
    ] });
    await seed.platform.elements.create(await seed.principal("admin"), { structure: "GALLERY", name: "GAL_ONE", values: { ga_title: "One" } });
    const png = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex");
    const form = new FormData();
    form.set("GA_PICTURE", new File([png], "dot.png", { type: "image/png" }));
    form.append("ga_notes[]", new File(["first"], "a.txt", { type: "text/plain" }));
    form.append("ga_notes[]", new File(["second"], "b.txt", { type: "text/plain" }));
    const response = await api.call("PUT", "/api/v2/smart-elements/GAL_ONE", { body: form });
    expect(response.status).toBe(200);
    const picture = response.json.data.document.attributes.ga_picture;
    expect(picture).toMatchObject({ value: expect.stringMatching(/^image\/png\|\d+\|dot\.png$/), displayValue: "dot.png", mime: "image/png", size: png.length });
    const vaultId = Number(picture.value.split("|")[1]);
    expect(Buffer.from((await seed.store.vault.read(vaultId)) ?? [])).toEqual(png);
    expect(response.json.data.document.attributes.ga_notes.map((note: any) => note.displayValue)).toEqual(["a.txt", "b.txt"]);
    const text = new FormData();
    text.set("ga_picture", new File(["not an image"], "x.txt", { type: "text/plain" }));
    const refused = await api.call("PUT", "/api/v2/smart-elements/GAL_ONE", { body: text });
    expect([refused.status, errorCode(refused)]).toEqual([400, "VALUE0001"]);
  });
});
