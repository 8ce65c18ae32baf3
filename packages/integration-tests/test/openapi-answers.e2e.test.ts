import { connect } from "node:net";
import { createMemoryThrottleStore, type Store } from "@lineage/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seededPlatform } from "@lineage/core/testing";
import { startLiveServer, type LiveServer } from "../src/live-server.ts";
import { answerProblems, documentedFetch, expectDocumentedAnswer, expectDocumentedRawAnswer } from "../src/openapi-answers.ts";

/*
 * Answers the OpenAPI document did not describe (issue 23, item 6). Every answer here goes through
 * the checker of openapi-answers.ts (api.call, documentedFetch, raw answers): each test fails when the
 * document does not describe the status, the content type or the body the server gives.
 */

/** The seed, plus a Smart Structure without an icon, one of its elements and a search domain over it. */
async function seed(store: Store) {
  const seeded = await seededPlatform(store);
  await store.transaction(async (tx) => {
    await tx.catalog.saveStructure({ name: "MEMO", title: "Memo", titleField: "me_text", fields: [{ id: "me_text", type: "text" }] });
    await tx.search.saveDomain({ name: "memos", lang: "en", stem: "simple", configs: [{ structure: "MEMO", fields: [{ field: "me_text", weight: "A" }], files: [], callables: [] }] });
  });
  const admin = await seeded.principal("admin");
  await seeded.platform.elements.create(admin, { structure: "MEMO", name: "MEMO_ONE", values: { me_text: "No icon" } });
  return seeded;
}

const LIMITS = { maxBodyBytes: 4096, maxUploadBytes: 100 };
/** carol's login locks at her second failure; nobody else's is touched. One store for both nodes on PostgreSQL. */
const THROTTLE = { store: createMemoryThrottleStore(), freeFailures: 1, baseLockMs: 60_000, clientFreeFailures: 1_000, clientLimit: 1_000 };

let live: LiveServer<Awaited<ReturnType<typeof seed>>>;
beforeAll(async () => {
  live = await startLiveServer(seed, { limits: LIMITS, auth: { throttle: THROTTLE } });
});
afterAll(() => live.close());

const codeOf = (answer: { json?: any }) => answer.json?.messages?.[0]?.code as string | undefined;

/** Writes a request by hand on a new connection to the node and checks the answer read off the socket. */
function raw(request: string): Promise<{ status: number; text: string }> {
  const { port } = new URL(live.nodeUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", () => {});
    socket.setTimeout(5000, () => socket.destroy(new Error("no answer")));
    socket.on("close", () => {
      const answer = Buffer.concat(chunks);
      try {
        expectDocumentedRawAnswer(request, answer);
        resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(answer.toString("latin1"))?.[1]), text: answer.toString("utf8") });
      } catch (error) {
        reject(error as Error);
      }
    });
    socket.write(request);
  });
}
const ADMIN = `Basic ${Buffer.from("admin:admin-pw").toString("base64")}`;
const written = (line: string, headers: string[] = [], body = "") =>
  `${line}\r\nHost: x\r\nAuthorization: ${ADMIN}\r\nConnection: close\r\n${headers.map((h) => `${h}\r\n`).join("")}\r\n${body}`;

describe("the answer checker", () => {
  it("refuses an undocumented status, an undocumented content type and a body that breaks the schema", async () => {
    const real = await live.api.call("GET", "/api/v2/smart-elements/ART_HELLO");
    const answer = { method: "GET", url: "/api/v2/smart-elements/ART_HELLO", status: 200, contentType: "application/json", body: real.text };
    expect(answerProblems(answer)).toEqual([]);

    expect(answerProblems({ ...answer, status: 418 })).toEqual([expect.stringMatching(/^status 418 is not documented \(documented: 200, 302, 304, 400, /)]);
    expect(answerProblems({ ...answer, contentType: "application/yaml" })).toEqual([expect.stringMatching(/^content type application\/yaml is not documented for 200/)]);
    const broken = { ...real.json, data: { document: { ...real.json.data.document, uri: 42 } } };
    expect(answerProblems({ ...answer, body: JSON.stringify(broken) })).toEqual([expect.stringMatching(/^\/data\/document\/uri must be string/)]);
    expect(answerProblems({ ...answer, body: JSON.stringify({ ...real.json, success: "yes" }) })).toEqual([expect.stringMatching(/^\/success must be equal to constant/)]);
    expect(answerProblems({ ...answer, status: 404, body: real.text })).toEqual([expect.stringMatching(/^\/success must be equal to constant/), expect.stringMatching(/^\/data must be null/)]);
    const refusal = (code: string) => JSON.stringify({ success: false, messages: [{ type: "error", contentText: "x", code }], data: null });
    expect(answerProblems({ ...answer, status: 404, body: refusal("ROUTES0100") })).toEqual([]);
    expect(answerProblems({ ...answer, status: 404, body: refusal("DASH0002") })).toEqual([expect.stringMatching(/^code DASH0002 is not documented for 404 \(documented: .*ROUTES0100/)]);
    expect(answerProblems({ ...answer, status: 304, body: "" })).toEqual([]);
    expect(answerProblems({ ...answer, status: 304, body: real.text })).toEqual([expect.stringMatching(/documented without a body/)]);
    // A path the document does not describe may only be refused, with the envelope.
    expect(answerProblems({ method: "GET", url: "/api/v2/nowhere", status: 200, contentType: "application/json", body: "{}" })).not.toEqual([]);
    expect(answerProblems({ method: "GET", url: "/api/v2/nowhere", status: 404, contentType: "text/plain", body: "Not found" })).not.toEqual([]);

    expect(() => expectDocumentedAnswer({ ...answer, status: 418 }))
      .toThrow(/GET \/api\/v2\/smart-elements\/ART_HELLO \(418, application\/json\) does not match \/api\/v2\/openapi\.json, operation GET \/api\/v2\/smart-elements\/\{docid\}:\n- status 418 is not documented/);
    expect(() => expectDocumentedAnswer({ ...answer, body: JSON.stringify(broken) })).toThrow(/- \/data\/document\/uri must be string .*\(schema /);
  });
});

describe("answers of Smart Elements", () => {
  it("icon: the default icon when the Smart Structure has none", async () => {
    const memo = await live.api.call("GET", "/api/v2/smart-elements/MEMO_ONE");
    expect([memo.status, memo.json.data.document.properties.icon]).toEqual([200, "/api/v2/images/assets/sizes/24x24c/doc.png"]);
    const list = await live.api.call("GET", "/api/v2/smart-structures/MEMO/smart-elements/");
    expect(list.json.data.documents.map((item: any) => item.properties.icon)).toEqual(["/api/v2/images/assets/sizes/24x24c/doc.png"]);
  });

  it("list items without properties when fields leaves them out", async () => {
    const list = await live.api.call("GET", "/api/v2/smart-elements/?fields=document.attributes.ar_title&slice=2");
    expect(list.status).toBe(200);
    expect(list.json.data.documents[0]).not.toHaveProperty("properties");
  });

  it("304 to If-None-Match, the XML export and alt=html", async () => {
    for (const path of ["/api/v2/smart-elements/ART_HELLO", "/api/v2/smart-elements/ART_HELLO/revisions/", "/api/v2/smart-elements/ART_HELLO/revisions/0"]) {
      const first = await live.api.call("GET", path);
      const again = await live.api.call("GET", path, { headers: { "if-none-match": first.headers.get("etag") ?? "" } });
      expect([again.status, again.text], path).toEqual([304, ""]);
    }
    const xml = await live.api.call("GET", "/api/v2/smart-elements/ART_HELLO.xml");
    expect([xml.status, xml.headers.get("content-type")]).toEqual([200, "application/xml; charset=utf-8"]);
    const page = await live.api.call("GET", "/api/v2/smart-elements/NOPE?alt=html");
    expect([page.status, page.headers.get("content-type")]).toEqual([404, "text/html; charset=utf-8"]);
  });

  it("a PUT on an array field: 500 ROUTES0107, as the spec's error table says (not 400 ROUTES0127)", async () => {
    const put = await live.api.call("PUT", "/api/v2/smart-elements/ART_HELLO", { json: { document: { attributes: { ar_links: { value: [] } } } } });
    expect([put.status, codeOf(put)]).toEqual([500, "ROUTES0107"]);
    const document = (await live.api.call("GET", "/api/v2/openapi.json")).json;
    const responses = document.paths["/api/v2/smart-elements/{docid}"].put.responses;
    expect(Object.keys(responses["500"].content["application/json"].examples)).toContain("ROUTES0107");
    expect(Object.keys(responses["400"].content["application/json"].examples)).not.toContain("ROUTES0127");
  });

  it("unknown fields: 400 ROUTES0103 or CRUD0202 on every route that takes fields", async () => {
    const routes = ["/api/v2/smart-elements/", "/api/v2/smart-elements/ART_HELLO", "/api/v2/smart-elements/ART_HELLO/revisions/",
      "/api/v2/smart-elements/ART_HELLO/revisions/0", "/api/v2/smart-structures/ARTICLE/smart-elements/", "/api/v2/trash/",
      "/api/v2/fullsearch/domains/memos/smart-elements/"];
    for (const route of routes) {
      for (const [fields, code] of [["document.nope", "ROUTES0103"], ["document.properties.nope", "CRUD0202"]] as const) {
        const answer = await live.api.call("GET", `${route}?fields=${fields}`);
        expect([answer.status, codeOf(answer)], `${route}?fields=${fields}`).toEqual([400, code]);
      }
    }
  });

  it("unknown fields on a write: 400 ROUTES0103 before anything is written", async () => {
    const words = async () => (await live.api.call("GET", "/api/v2/smart-elements/MEMO_ONE?fields=document.attributes.me_text")).json.data.document.attributes.me_text.value;
    const put = await live.api.call("PUT", "/api/v2/smart-elements/MEMO_ONE?fields=document.nope", { json: { document: { attributes: { me_text: { value: "Changed" } } } } });
    expect([put.status, codeOf(put), await words()]).toEqual([400, "ROUTES0103", "No icon"]);
    const deleted = await live.api.call("DELETE", "/api/v2/smart-elements/MEMO_ONE?fields=document.nope");
    expect([deleted.status, codeOf(deleted), (await live.api.call("GET", "/api/v2/smart-elements/MEMO_ONE")).status]).toEqual([400, "ROUTES0103", 200]);
    await live.api.call("DELETE", "/api/v2/smart-elements/MEMO_ONE");
    const restore = await live.api.call("PUT", "/api/v2/trash/MEMO_ONE?fields=document.properties.nope", { json: { document: { properties: { status: "alive" } } } });
    expect([restore.status, codeOf(restore), (await live.api.call("GET", "/api/v2/smart-elements/MEMO_ONE")).status]).toEqual([400, "CRUD0202", 404]);
    expect((await live.api.call("PUT", "/api/v2/trash/MEMO_ONE", { json: { document: { properties: { status: "alive" } } } })).status).toBe(200);
  });

  it("If-Match naming a stale ETag: 412 CRUD0238 on PUT, DELETE, restore and the lifecycle POSTs", async () => {
    const stale = { "if-match": '"stale"' };
    const answers = [
      await live.api.call("PUT", "/api/v2/smart-elements/ART_ZEBRA", { headers: stale, json: { document: { attributes: { ar_words: { value: 3 } } } } }),
      await live.api.call("DELETE", "/api/v2/smart-elements/ART_ZEBRA", { headers: stale }),
      await live.api.call("POST", "/api/v2/smart-elements/ART_ZEBRA/workflows/transitions/publish", { headers: stale, json: {} }),
      await live.api.call("POST", "/api/v2/smart-elements/ART_ZEBRA/workflows/states/published", { headers: stale, json: {} }),
    ];
    expect(answers.map((answer) => [answer.status, codeOf(answer)])).toEqual(Array(4).fill([412, "CRUD0238"]));
    await live.api.call("DELETE", "/api/v2/smart-elements/ART_ZEBRA");
    const restore = await live.api.call("PUT", "/api/v2/trash/ART_ZEBRA", { headers: stale, json: { document: { properties: { status: "alive" } } } });
    expect([restore.status, codeOf(restore)]).toEqual([412, "CRUD0238"]);
    expect((await live.api.call("PUT", "/api/v2/trash/ART_ZEBRA", { json: { document: { properties: { status: "alive" } } } })).status).toBe(200);
  });
});

describe("refusals of any route", () => {
  it("a refused X-HTTP-Method-Override: 400 API0008 on the POSTs", async () => {
    for (const path of ["/api/v2/smart-elements/ART_HELLO/workflows/transitions/publish", "/api/admin/fullsearch/domains/", "/api/v2/images/assets/original/a.png"]) {
      const answer = await live.api.call("POST", path, { headers: { "x-http-method-override": "PATCH" }, json: {} });
      expect([answer.status, codeOf(answer)], path).toEqual([400, "API0008"]);
    }
  });

  it("a token used outside its routes: 403 AUTH0403", async () => {
    const token = await live.seed.platform.tokens.create("bob", ["GET /api/v2/enumerates/*"]);
    for (const path of ["/api/v2/smart-elements/ART_HELLO", "/api/v2/smart-elements/", "/api/v2/dashboard/list"]) {
      const answer = await live.api.call("GET", path, { as: null, headers: { authorization: `Token ${token}` } });
      expect([answer.status, codeOf(answer)], path).toEqual([403, "AUTH0403"]);
    }
  });

  it("an unknown enumerate: 404 ENUM0404", async () => {
    const answer = await live.api.call("GET", "/api/v2/enumerates/NOPE/");
    expect([answer.status, codeOf(answer)]).toEqual([404, "ENUM0404"]);
  });

  it("a file over the upload limit: 413 API0102; a body over the body limit: 413 API0010", async () => {
    const form = new FormData();
    form.append("ar_title", new Blob(["x".repeat(200)]), "big.txt");
    const upload = await live.api.call("PUT", "/api/v2/smart-elements/ART_HELLO", { body: form });
    expect([upload.status, codeOf(upload)]).toEqual([413, "API0102"]);
    for (const [method, path] of [["PUT", "/api/v2/smart-elements/ART_HELLO"], ["DELETE", "/api/v2/smart-elements/ART_HELLO"], ["POST", "/api/v2/smart-elements/ART_HELLO/workflows/transitions/publish"]]) {
      const big = await live.api.call(method!, path!, { json: { comment: "x".repeat(5000) } });
      expect([big.status, codeOf(big)], `${method} ${path}`).toEqual([413, "API0010"]);
    }
  });

  it("Expect other than 100-continue: 417 API0107, a malformed Host: 400 API0104, on any route", async () => {
    for (const line of ["GET /api/v2/smart-elements/ART_HELLO HTTP/1.1", "GET /health HTTP/1.1", "GET /login HTTP/1.1", "POST /logout HTTP/1.1", "GET /api/v2/openapi.json HTTP/1.1"]) {
      const expectation = await raw(written(line, ["Expect: x"]));
      expect(expectation.status, line).toBe(417);
      expect(expectation.text).toContain('"code":"API0107"');
      const host = await raw(written(line).replace("Host: x", "Host: a b"));
      expect(host.status, line).toBe(400);
      expect(host.text).toContain('"code":"API0104"');
    }
  });

  it("too many failures on a login: 429 AUTH0429 on /api/, the page again on /login", async () => {
    for (let failure = 0; failure < 2; failure++) {
      const wrong = await live.api.call("GET", "/api/v2/smart-elements/ART_HELLO", { as: ["carol", "wrong"] });
      expect([wrong.status, codeOf(wrong)]).toEqual([401, "AUTH0401"]);
    }
    const locked = await live.api.call("GET", "/api/v2/smart-elements/ART_HELLO", { as: ["carol", "carol-pw"] });
    expect([locked.status, codeOf(locked), locked.headers.get("retry-after")]).toEqual([429, "AUTH0429", expect.stringMatching(/^\d+$/)]);
    const { cookie, csrf } = await loginForm();
    const page = await postLogin(cookie, { login: "carol", password: "carol-pw", csrf });
    expect([page.status, page.headers.get("content-type")]).toEqual([429, expect.stringMatching(/^text\/html/)]);
  });
});

/** The login form's cookie and form token. */
async function loginForm(): Promise<{ cookie: string; csrf: string }> {
  const form = await documentedFetch(`${live.url}/login`);
  const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? "";
  return { cookie: form.headers.getSetCookie().map((line) => line.split(";")[0]).join("; "), csrf };
}
const postLogin = (cookie: string, fields: Record<string, string>, path = "/login") => documentedFetch(`${live.url}${path}`, {
  method: "POST", redirect: "manual", headers: { cookie, "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields).toString(),
});

describe("the login pages", () => {
  it("POST /login: 303 logged in, 401 wrong password, 403 expired form (pages), 413 API0010 form too large (envelope)", async () => {
    const { cookie, csrf } = await loginForm();
    expect((await postLogin(cookie, { login: "bob", password: "bob-pw", csrf })).status).toBe(303);
    expect((await postLogin(cookie, { login: "nobody", password: "x", csrf })).status).toBe(401);
    expect((await postLogin(cookie, { login: "bob", password: "bob-pw", csrf: "forged" })).status).toBe(403);
    const large = await postLogin(cookie, { login: "bob", password: "x".repeat(20_000), csrf });
    expect([large.status, ((await large.json()) as any).messages[0].code]).toEqual([413, "API0010"]);
  });

  it("POST /logout with a wrong form token: 403 AUTH0403 envelope; GET / without a session: 302 to the form", async () => {
    const { cookie, csrf } = await loginForm();
    const login = await postLogin(cookie, { login: "bob", password: "bob-pw", csrf });
    const session = login.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ");
    const refused = await postLogin(session, { csrf: "wrong" }, "/logout");
    expect([refused.status, ((await refused.json()) as any).messages[0].code]).toEqual([403, "AUTH0403"]);
    const home = await documentedFetch(`${live.url}/`, { redirect: "manual" });
    expect([home.status, home.headers.get("location")]).toEqual([302, "/login?return=%2F"]);
  });
});
