import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seededPlatform } from "@lineage/core/testing";
import { startLiveServer, type LiveServer } from "../src/live-server.ts";
import { documentedFetch } from "../src/openapi-answers.ts";

type Seed = Awaited<ReturnType<typeof seededPlatform>>;
const fastThrottle = { baseDelayMs: 1, maxDelayMs: 2 };
const code = (response: { json: any }) => response.json?.messages?.[0]?.code;

/** A GET with any Host header (fetch may not set it). */
function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("html mode (the default)", () => {
  let live: LiveServer<Seed>;
  let base: string;
  beforeAll(async () => {
    live = await startLiveServer(seededPlatform, { auth: { throttle: fastThrottle } });
    base = live.api.baseUrl;
  });
  afterAll(() => live.close());

  const page = (path: string, init: RequestInit = {}) => documentedFetch(`${base}${path}`, { redirect: "manual", ...init });
  const cookiesOf = (response: Response) => Object.fromEntries(response.headers.getSetCookie().map((c) => {
    const [pair] = c.split(";");
    const eq = pair!.indexOf("=");
    return [pair!.slice(0, eq), pair!.slice(eq + 1)];
  }));
  async function loginForm(returnTo = "/") {
    const response = await page(`/login?return=${encodeURIComponent(returnTo)}`);
    const html = await response.text();
    const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? "";
    return { response, html, csrf, cookie: `lineage-login-csrf=${cookiesOf(response)["lineage-login-csrf"]}` };
  }
  async function logIn(login: string, password: string, returnTo = "/") {
    const form = await loginForm(returnTo);
    return page("/login", {
      method: "POST",
      headers: { cookie: form.cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ login, password, csrf: form.csrf, return: returnTo }).toString(),
    });
  }

  describe("/api/ without credentials", () => {
    it("answers 401 with the envelope and a Basic challenge, never the form", async () => {
      const response = await live.api.call("GET", "/api/v2/smart-elements/", { as: null, headers: { accept: "text/html,*/*" } });
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toMatch(/^Basic realm="Lineage"/);
      expect(response.json).toMatchObject({ success: false, data: null, messages: [{ code: "AUTH0401" }] });
    });
  });

  describe("basic", () => {
    it("authenticates on every request, also with authtype=basic", async () => {
      expect((await live.api.call("GET", "/api/v2/smart-elements/", { as: ["bob", "bob-pw"] })).status).toBe(200);
      expect((await live.api.call("GET", "/api/v2/smart-elements/?authtype=basic", { as: ["bob", "bob-pw"] })).status).toBe(200);
    });

    it("answers 401 with a challenge to a wrong password and an unknown login alike", async () => {
      const wrong = await live.api.call("GET", "/api/v2/smart-elements/", { as: ["bob", "nope"] });
      const ghost = await live.api.call("GET", "/api/v2/smart-elements/", { as: ["ghost", "nope"] });
      for (const response of [wrong, ghost]) {
        expect([response.status, code(response)]).toEqual([401, "AUTH0401"]);
        expect(response.headers.get("www-authenticate")).toMatch(/^Basic/);
      }
      expect(wrong.text).toBe(ghost.text);
    });

    it("refuses an unknown scheme or authtype with 401 AUTH0402", async () => {
      const bearer = await live.api.call("GET", "/api/v2/smart-elements/", { as: null, headers: { authorization: "Bearer abc" } });
      expect([bearer.status, code(bearer)]).toEqual([401, "AUTH0402"]);
      const apache = await live.api.call("GET", "/api/v2/smart-elements/?authtype=apache", { as: ["bob", "bob-pw"] });
      expect([apache.status, code(apache)]).toEqual([401, "AUTH0402"]);
    });

    it("then checks the global right of the method: 403 CRUD0105", async () => {
      const response = await live.api.call("PUT", "/api/v2/smart-elements/ART_HELLO", { as: ["carol", "carol-pw"], json: { document: { attributes: {} } } });
      expect([response.status, code(response)]).toEqual([403, "CRUD0105"]);
    });
  });

  describe("open (tokens)", () => {
    it("authenticates by header, query variable and form variable, as the token's user", async () => {
      const token = await live.seed.platform.tokens.create("alice", ["GET,PUT /api/v2/smart-elements/*"]);
      const byHeader = await live.api.call("GET", "/api/v2/smart-elements/ART_HELLO.json", { as: null, headers: { authorization: `Token ${token}` } });
      expect(byHeader.status).toBe(200);
      const byQuery = await live.api.call("GET", `/api/v2/smart-elements/ART_HELLO.json?ank-authorization=${token}`, { as: null });
      expect(byQuery.status).toBe(200);
      const byForm = await live.api.call("PUT", "/api/v2/smart-elements/ART_ZEBRA", {
        as: null,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ "ank-authorization": token, ar_words: "7" }).toString(),
      });
      expect(byForm.status).toBe(200);
      // The same request as bob, whom the profile lets read only: the token's user is who acts.
      const bobs = await live.seed.platform.tokens.create("bob", ["GET,PUT /api/v2/smart-elements/*"]);
      const asBob = await live.api.call("PUT", "/api/v2/smart-elements/ART_ZEBRA", {
        as: null,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ "ank-authorization": bobs, ar_words: "8" }).toString(),
      });
      expect(asBob.status).toBe(403);
    });

    it("takes a token in the query before the Authorization header's scheme (original-notes.md 2.13)", async () => {
      const token = await live.seed.platform.tokens.create("alice", ["GET /api/v2/smart-elements/*"]);
      const both = await live.api.call("GET", `/api/v2/smart-elements/ART_HELLO.json?ank-authorization=${token}`, { as: ["bob", "not bob's password"] });
      expect(both.status).toBe(200);
    });

    it("lets a token for a collection's members list the collection, with or without its trailing slash", async () => {
      const token = await live.seed.platform.tokens.create("alice", ["GET /api/v2/smart-elements/*"]);
      for (const path of ["/api/v2/smart-elements", "/api/v2/smart-elements/"]) {
        const listed = await live.api.call("GET", path, { as: null, headers: { authorization: `Token ${token}` } });
        expect(listed.status, path).toBe(200);
      }
    });

    it("answers 403 AUTH0403 outside the token's routes and methods, 401 to an unknown token", async () => {
      const token = await live.seed.platform.tokens.create("admin", ["GET /api/v2/smart-elements/{docid}[.json]"]);
      const call = (method: string, path: string, t = token) => live.api.call(method, path, { as: null, headers: { authorization: `Token ${t}` } });
      expect((await call("GET", "/api/v2/smart-elements/ART_HELLO")).status).toBe(200);
      const wrongPath = await call("GET", "/api/v2/trash/");
      expect([wrongPath.status, code(wrongPath)]).toEqual([403, "AUTH0403"]);
      expect((await call("DELETE", "/api/v2/smart-elements/ART_HELLO")).status).toBe(403);
      const unknown = await call("GET", "/api/v2/smart-elements/ART_HELLO", "0".repeat(40));
      expect([unknown.status, code(unknown)]).toEqual([401, "AUTH0401"]);
    });

    it("runs with the user's rights: carol's token cannot PUT (CRUD0105)", async () => {
      const token = await live.seed.platform.tokens.create("carol", ["* /api/v2/*"]);
      const response = await live.api.call("PUT", "/api/v2/smart-elements/ART_HELLO", { as: null, headers: { authorization: `Token ${token}` }, json: { document: { attributes: {} } } });
      expect([response.status, code(response)]).toEqual([403, "CRUD0105"]);
    });

    it("expires: 401 once its time is over", async () => {
      const token = await live.seed.platform.tokens.create("bob", ["GET /api/v2/*"], { expiration: 30 });
      const call = () => live.api.call("GET", "/api/v2/smart-elements/", { as: null, headers: { authorization: `Token ${token}` } });
      expect((await call()).status).toBe(200);
      live.seed.clock.advance(30_000);
      expect((await call()).status).toBe(401);
    });

    it("lets exactly one of two concurrent uses of a oneshot token through", async () => {
      const token = await live.seed.platform.tokens.create("bob", ["GET /api/v2/*"], { expiration: -1, oneshot: true });
      const statuses = await Promise.all([1, 2, 3, 4].map(() =>
        live.api.call("GET", "/api/v2/smart-elements/", { as: null, headers: { authorization: `Token ${token}` } }).then((r) => r.status)));
      expect(statuses.sort()).toEqual([200, 401, 401, 401]);
    });
  });

  describe("token administration", () => {
    it("lists tokens without secrets and revokes them, for admins only", async () => {
      const token = await live.seed.platform.tokens.create("bob", ["GET /api/v2/*"], { expiration: -1, oneshot: false, description: "to revoke" });
      const list = await live.api.call("GET", "/api/v2/authent/tokens/");
      expect(list.status).toBe(200);
      const entry = list.json.data.tokens.find((t: { description: string }) => t.description === "to revoke");
      expect(entry).toMatchObject({ login: "bob", oneshot: false, expiresAt: null });
      expect(list.text).not.toContain(token);
      const asBob = await live.api.call("GET", "/api/v2/authent/tokens/", { as: ["bob", "bob-pw"] });
      expect([asBob.status, code(asBob)]).toEqual([403, "ROUTES0131"]);
      expect((await live.api.call("DELETE", `/api/v2/authent/tokens/${entry.id}`, { as: ["bob", "bob-pw"] })).status).toBe(403);
      expect((await live.api.call("DELETE", `/api/v2/authent/tokens/${entry.id}`)).json.data).toEqual({ id: entry.id, revoked: true });
      const again = await live.api.call("DELETE", `/api/v2/authent/tokens/${entry.id}`);
      expect([again.status, code(again)]).toEqual([404, "AUTH0404"]);
      expect((await live.api.call("GET", "/api/v2/smart-elements/", { as: null, headers: { authorization: `Token ${token}` } })).status).toBe(401);
      expect((await live.api.call("POST", "/api/v2/authent/tokens/")).status).toBe(501);
    });
  });

  describe("the login form and sessions", () => {
    it("sends a protected page to the login form, which comes back to it", async () => {
      const home = await page("/");
      expect(home.status).toBe(302);
      expect(home.headers.get("location")).toBe("/login?return=%2F");
      const form = await loginForm("/");
      expect(form.response.status).toBe(200);
      expect(form.html).toContain('<label for="login">');
      expect(form.html).toContain('<label for="password">');
      const loggedIn = await logIn("alice", "alice-pw", "/?tab=2");
      expect(loggedIn.status).toBe(303);
      expect(loggedIn.headers.get("location")).toBe("/?tab=2");
      const setCookie = loggedIn.headers.getSetCookie().find((c) => c.startsWith("lineage-session="))!;
      expect(setCookie).toMatch(/; HttpOnly/);
      expect(setCookie).toMatch(/; SameSite=Strict/);
      expect(setCookie).not.toMatch(/; Secure|; Domain=/);
    });

    it("serves pages and the API to the session, until logout", async () => {
      const loggedIn = await logIn("alice", "alice-pw");
      const cookie = `lineage-session=${cookiesOf(loggedIn)["lineage-session"]}`;
      const home = await page("/", { headers: { cookie } });
      const html = await home.text();
      expect(home.status).toBe(200);
      expect(html).toContain("<code>alice</code>");
      expect((await live.api.call("GET", "/api/v2/smart-elements/", { as: null, headers: { cookie } })).status).toBe(200);
      // A changing request that another site sent with the cookie is refused.
      const forged = await live.api.call("PUT", "/api/v2/smart-elements/ART_HELLO", { as: null, headers: { cookie, origin: "https://evil.example" }, json: { document: { attributes: {} } } });
      expect([forged.status, code(forged)]).toEqual([403, "AUTH0403"]);
      // Logout needs the session's form token.
      expect((await page("/logout", { method: "POST", headers: { cookie, "content-type": "application/x-www-form-urlencoded" }, body: "csrf=wrong" })).status).toBe(403);
      const csrf = /name="csrf" value="([^"]+)"/.exec(html)![1]!;
      const out = await page("/logout", { method: "POST", headers: { cookie, "content-type": "application/x-www-form-urlencoded" }, body: `csrf=${encodeURIComponent(csrf)}` });
      expect([out.status, out.headers.get("location")]).toEqual([303, "/login?loggedout=1"]);
      expect((await live.api.call("GET", "/api/v2/smart-elements/", { as: null, headers: { cookie } })).status).toBe(401);
      expect((await page("/", { headers: { cookie } })).status).toBe(302);
    });

    it("shows the form again with one message for a wrong password or an unknown login", async () => {
      const wrong = await logIn("alice", "nope");
      const ghost = await logIn("ghost", "nope");
      for (const response of [wrong, ghost]) {
        expect(response.status).toBe(401);
        expect(response.headers.getSetCookie().some((c) => c.startsWith("lineage-session="))).toBe(false);
        expect(await response.text()).toContain("Username and/or password is incorrect.");
      }
    });

    it("refuses a form without its CSRF token, and never redirects off the site", async () => {
      const noCsrf = await page("/login", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "login=alice&password=alice-pw" });
      expect(noCsrf.status).toBe(403);
      const offsite = await logIn("alice", "alice-pw", "//evil.example/x");
      expect(offsite.headers.get("location")).toBe("/console/");
    });

    it("expires an idle session", async () => {
      const loggedIn = await logIn("bob", "bob-pw");
      const cookie = `lineage-session=${cookiesOf(loggedIn)["lineage-session"]}`;
      expect((await page("/", { headers: { cookie } })).status).toBe(200);
      live.seed.clock.advance(3 * 3600_000);
      expect((await page("/", { headers: { cookie } })).status).toBe(302);
    });
  });
});

describe("configured modes", () => {
  let live: LiveServer<Seed>;
  let base: string;
  beforeAll(async () => {
    live = await startLiveServer(seededPlatform, {
      auth: {
        throttle: fastThrottle,
        // An administrator host name gets HTTP Basic; every other host the login form.
        mode: (request) => (request.header("host")?.startsWith("admin.") ? "basic" : "html"),
        sessionCookie: { samesite: "lax", secure: true, hostonly: false },
      },
    });
    base = live.api.baseUrl;
  });
  afterAll(() => live.close());

  it("picks the authenticator per request from the Host header", async () => {
    const admin = await rawGet(`${base}/`, { host: "admin.local" });
    expect(admin.status).toBe(401);
    expect(admin.headers["www-authenticate"]).toMatch(/^Basic/);
    const other = await rawGet(`${base}/`, { host: "www.local" });
    expect([other.status, other.headers.location]).toEqual([302, "/login?return=%2F"]);
    const basic = `Basic ${Buffer.from("bob:bob-pw").toString("base64")}`;
    const withBasic = await rawGet(`${base}/`, { host: "admin.local", authorization: basic });
    expect(withBasic.status).toBe(200);
    expect(withBasic.body).toContain("<code>bob</code>");
  });

  it("sets the session cookie with the configured flags", async () => {
    const form = await documentedFetch(`${base}/login`);
    const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())![1]!;
    const csrfCookie = form.headers.getSetCookie()[0]!.split(";")[0]!;
    const response = await documentedFetch(`${base}/login`, {
      method: "POST", redirect: "manual",
      headers: { cookie: csrfCookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ login: "bob", password: "bob-pw", csrf }).toString(),
    });
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith("lineage-session="))!;
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).toMatch(/; Secure/);
    expect(cookie).toMatch(/; Domain=127\.0\.0\.1/);
    expect(cookie).toMatch(/; HttpOnly/);
  });
});

describe("open mode with a guest home page", () => {
  let live: LiveServer<Seed>;
  beforeAll(async () => {
    live = await startLiveServer(seededPlatform, { auth: { mode: "open", useIndexAsGuest: true, throttle: fastThrottle } });
  });
  afterAll(() => live.close());

  it("still honours Basic on /api/ and challenges with Basic", async () => {
    expect((await live.api.call("GET", "/api/v2/smart-elements/", { as: ["bob", "bob-pw"] })).status).toBe(200);
    const none = await live.api.call("GET", "/api/v2/smart-elements/", { as: null });
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toMatch(/^Basic/);
  });

  it("greets guests on the home page, and token holders by name", async () => {
    const guest = await documentedFetch(`${live.api.baseUrl}/`);
    expect(guest.status).toBe(200);
    expect(await guest.text()).toContain("browsing as a guest");
    const token = await live.seed.platform.tokens.create("bob", ["GET /*"]);
    const holder = await documentedFetch(`${live.api.baseUrl}/?ank-authorization=${token}`);
    expect(await holder.text()).toContain("<code>bob</code>");
  });
});
