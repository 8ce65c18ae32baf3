import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { LineageError } from "@lineage/core";
import { createSupersetServer, type SupersetServerOptions } from "../src/index.ts";
import { fakeDashboard, startFakeSuperset, type FakeSuperset } from "../src/testing/fake-superset.ts";

// The Superset adapter against a stand-in Superset on loopback (real HTTP).

let superset: FakeSuperset;
beforeEach(async () => {
  superset = await startFakeSuperset([
    fakeDashboard(1, "Sales"),
    fakeDashboard(2, "Stock", { published: false, embedded: "5b1f0f4e-8c3a-4d7e-9a61-2f0c3b7d9e10" }),
    fakeDashboard(3, "Staff", { slug: null, changed_by: null }),
    fakeDashboard(4, "Travel"),
    fakeDashboard(5, "Energy"),
  ]);
});
afterEach(() => superset.close());

const connect = (options: Partial<SupersetServerOptions> = {}) =>
  createSupersetServer({ url: `${superset.url}/`, username: "lineage", password: "superset-pw", ...options });
const LOGIN = "POST /api/v1/security/login";
const LIST = "GET /api/v1/dashboard/";
const failure = (promise: Promise<unknown>) =>
  promise.then(() => undefined, (error: LineageError) => [error.code, error.status, error.message]);

describe("the Superset adapter", () => {
  it("lists every dashboard, page after page, with the address as domain", async () => {
    superset.knobs.maxPageSize = 2;
    const server = connect();
    expect(server.address).toBe(superset.url);
    const all = await server.list();
    expect(all.map((d) => d.id)).toEqual([1, 2, 3, 4, 5]);
    expect(superset.count(LIST)).toBe(3);
    expect(all[0]).toEqual({
      id: 1, uuids: ["00000000-0000-4000-8000-000000000001"], title: "Sales", published: true, changedOn: "2024-03-01T05:06:07.123457",
      changedByName: "Ada Lovelace", slug: "sales", url: `${superset.url}/superset/dashboard/sales/`,
    });
    expect(all[2]).toMatchObject({ slug: null, changedByName: "", url: `${superset.url}/superset/dashboard/3/` });
  });

  it("reads older Superset answers (changed_by_name)", async () => {
    superset.knobs.legacyNames = true;
    expect((await connect().list())[0]?.changedByName).toBe("Ada Lovelace");
  });

  it("finds a dashboard by id, slug, its uuid or its embedding's uuid", async () => {
    const server = connect();
    expect((await server.dashboard({ id: 2 }))?.title).toBe("Stock");
    expect((await server.dashboard({ slug: "travel" }))?.id).toBe(4);
    expect(await server.dashboard({ id: 42 })).toBeUndefined();
    expect(await server.dashboard({ slug: "nope" })).toBeUndefined();
    expect((await server.dashboard({ uuid: "00000000-0000-4000-8000-000000000005" }))?.title).toBe("Energy");
    superset.knobs.listUuids = false;
    const fresh = connect();
    expect(await fresh.dashboard({ uuid: "5B1F0F4E-8C3A-4D7E-9A61-2F0C3B7D9E10" })).toMatchObject({
      id: 2, uuids: ["5b1f0f4e-8c3a-4d7e-9a61-2f0c3b7d9e10"], title: "Stock", published: false,
    });
    expect(await fresh.dashboard({ uuid: "00000000-0000-4000-8000-000000000099" })).toBeUndefined();
    // The embeddings were looked up once, for every listed dashboard.
    expect(superset.count("GET /api/v1/dashboard/2/embedded")).toBe(1);
    expect(superset.count("GET /api/v1/dashboard/5/embedded")).toBe(1);
  });

  it("logs in once, keeps answers for cacheMs, and shares one login among concurrent callers", async () => {
    let now = 0;
    const server = connect({ now: () => now });
    await Promise.all([server.list(), server.list(), server.dashboard({ slug: "sales" })]);
    await server.list();
    expect([superset.count(LOGIN), superset.count(LIST)]).toEqual([1, 1]);
    now += 31_000;
    await server.list();
    expect([superset.count(LOGIN), superset.count(LIST)]).toEqual([1, 2]);

    // With no cache, an answer on its way is still shared, and one login serves different requests.
    const uncached = connect({ cacheMs: 0 });
    await Promise.all([uncached.list(), uncached.list(), uncached.dashboard({ id: 1 }), uncached.dashboard({ slug: "sales" })]);
    expect([superset.count(LOGIN), superset.count(LIST)]).toEqual([2, 3]);
    await uncached.list();
    expect([superset.count(LOGIN), superset.count(LIST)]).toEqual([2, 4]);
  });

  it("logs in again, once, when the token expired", async () => {
    const server = connect({ cacheMs: 0 });
    await server.list();
    superset.expireTokens();
    const [all, one, other] = await Promise.all([server.list(), server.dashboard({ id: 1 }), server.dashboard({ slug: "stock" })]);
    expect([all.length, one?.title, other?.title]).toEqual([5, "Sales", "Stock"]);
    expect(superset.count(LOGIN)).toBe(2);
    // Each request was refused once with the old token, then answered with the new one.
    expect([superset.count(LIST), superset.count("GET /api/v1/dashboard/1"), superset.count("GET /api/v1/dashboard/stock")]).toEqual([3, 2, 2]);
  });

  it("says the login was refused, with the server's words, and tries again next time", async () => {
    superset.knobs.password = "changed";
    const server = connect({ cacheMs: 0 });
    const refused = ["DASH0102", 500, `The dashboard server ${superset.url} refused the login of "lineage": status 401: Not authorized`];
    expect(await failure(server.list())).toEqual(refused);
    expect(await failure(server.dashboard({ id: 1 }))).toEqual(refused);
    expect(superset.count(LOGIN)).toBe(2);
    superset.knobs.password = "superset-pw";
    expect(await server.list()).toHaveLength(5);
    expect(await failure(connect({ provider: "oauth" }).list())).toEqual([
      "DASH0102", 500, `The dashboard server ${superset.url} refused the login of "lineage": status 400: {"provider":["Must be one of: db, ldap."]}`,
    ]);
  });

  it("says the server cannot be reached when it is down", async () => {
    await superset.close();
    expect(await failure(connect().list())).toEqual([
      "DASH0101", 500, `Cannot reach the dashboard server ${superset.url}: connection refused (ECONNREFUSED)`,
    ]);
  });

  it("gives up on a slow server after timeoutMs", async () => {
    superset.knobs.delayMs = 2000;
    expect(await failure(connect({ timeoutMs: 150 }).list())).toEqual([
      "DASH0103", 500, `The dashboard server ${superset.url} did not answer POST /api/v1/security/login within 150 ms`,
    ]);
  });

  it("says an answer is not JSON or not of the expected shape", async () => {
    superset.knobs.brokenJson = true;
    expect(await failure(connect().list())).toEqual([
      "DASH0104", 500, `The dashboard server ${superset.url} gave an unexpected answer to GET /api/v1/dashboard/: the body is not JSON (<html><body>502 Bad Gateway</body></html>)`,
    ]);
    superset.knobs.brokenJson = false;
    superset.dashboards.push({ ...fakeDashboard(6, "Broken"), changed_on: "never" });
    expect(await failure(connect().list())).toEqual([
      "DASH0104", 500, `The dashboard server ${superset.url} gave an unexpected answer to GET /api/v1/dashboard/: dashboard 6 has no readable changed_on`,
    ]);
  });

  it("refuses a connection that is not an http(s) address", () => {
    expect(() => createSupersetServer({ url: "ftp://bi.example", username: "u", password: "p" })).toThrow(/absolute http\(s\) address/);
  });
});
