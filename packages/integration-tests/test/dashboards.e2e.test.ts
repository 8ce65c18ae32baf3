import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DashboardServer, Store } from "@lineage/core";
import { createSupersetServer, type SupersetServerOptions } from "@lineage/adapter-superset";
import { seededPlatform } from "@lineage/core/testing";
import { fakeDashboard, startFakeSuperset, type FakeSuperset } from "@lineage/adapter-superset/testing";
import { startLiveServer, withDashboards, type LiveServer } from "../src/live-server.ts";

// The Dashboards routes (api-v2.md, Dashboards) over a real server on SQLite,
// reading a stand-in Superset (real HTTP on loopback, Superset's API v1 shapes).

type Seed = Awaited<ReturnType<typeof seededPlatform>>;

const EMBEDDED = "5b1f0f4e-8c3a-4d7e-9a61-2f0c3b7d9e10";
const GONE = "8f0c2a9e-1111-2222-3333-444455556666";
const uuidOf = (id: number) => `00000000-0000-4000-8000-${String(id).padStart(12, "0")}`;

const BOB: [string, string] = ["bob", "bob-pw"];
const ALICE: [string, string] = ["alice", "alice-pw"];
const CAROL: [string, string] = ["carol", "carol-pw"];
const DORA: [string, string] = ["dora", "dora-pw"];
const LOGIN = "POST /api/v1/security/login";
const LIST = "GET /api/v1/dashboard/";

/** The seeded platform, reading the dashboard server given (none: DASH0100), plus role dashboard-admin (dora) and four registered dashboards. */
async function seedDashboards(store: Store, dashboards: DashboardServer | undefined): Promise<Seed> {
  const seeded = await seededPlatform(store);
  const seed = dashboards ? withDashboards(seeded, dashboards) : seeded;
  await store.accounts.saveRole({ id: "dashboard-admin", label: { en: "Dashboard administrators", fr: "Administrateurs des tableaux de bord" } });
  await seed.platform.accounts.add({ login: "dora", password: "dora-pw", roles: ["dashboard-admin"], locale: "fr" });
  await store.catalog.saveDashboard({ slug: "sales", uuid: uuidOf(1), roles: ["reader"] });
  await store.catalog.saveDashboard({ slug: "stock", uuid: EMBEDDED, roles: ["editor", "reader"] });
  await store.catalog.saveDashboard({ slug: "staff", uuid: uuidOf(3), roles: ["editor"] });
  await store.catalog.saveDashboard({ slug: "gone", uuid: GONE, roles: ["reader"] });
  return seed;
}

let superset: FakeSuperset;
const servers: LiveServer<Seed>[] = [];

async function lineage(dashboards?: DashboardServer) {
  const live = await startLiveServer((store) => seedDashboards(store, dashboards));
  servers.push(live);
  return live.api;
}
const superseted = (options: Partial<SupersetServerOptions> = {}) =>
  createSupersetServer({ url: superset.url, username: "lineage", password: "superset-pw", cacheMs: 0, timeoutMs: 1000, ...options });

let api: LiveServer<Seed>["api"];

beforeAll(async () => {
  superset = await startFakeSuperset([
    fakeDashboard(1, "Sales"),
    fakeDashboard(2, "Stock", { published: false, embedded: EMBEDDED, changed_by: { first_name: "Grace", last_name: "Hopper" } }),
    fakeDashboard(3, "Staff", { slug: null, changed_on: "2024-03-03T05:06:07" }),
    fakeDashboard(4, "Unregistered"),
  ]);
  api = await lineage(superseted());
});

afterAll(async () => {
  for (const live of servers) await live.close();
  await superset.close();
});

const errorOf = (response: { status: number; json: any }) =>
  [response.status, response.json?.success, response.json?.messages?.[0]?.code, response.json?.messages?.[0]?.contentText];
const slugsOf = (response: { json: any }) => response.json.data.map((d: { slug: string }) => d.slug);

describe("GET /api/v2/dashboard/list", () => {
  it("gives a user the dashboards of their roles, in the spec's shape, without owners", async () => {
    const response = await api.call("GET", "/api/v2/dashboard/list", { as: BOB });
    expect(response.status).toBe(200);
    expect(response.json).toEqual({
      success: true,
      messages: [],
      data: [
        {
          uuid: uuidOf(1), title: "Sales", published: true, changed_on: "2024-03-01T05:06:07.123457", changed_by_name: "Ada Lovelace",
          slug: "sales", url: `${superset.url}/superset/dashboard/sales/`, domain: superset.url,
        },
        {
          uuid: EMBEDDED, title: "Stock", published: false, changed_on: "2024-03-02T05:06:07.123458", changed_by_name: "Grace Hopper",
          slug: "stock", url: `${superset.url}/superset/dashboard/stock/`, domain: superset.url,
        },
      ],
    });
    expect(slugsOf(await api.call("GET", "/api/v2/dashboard/list", { as: ALICE }))).toEqual(["staff", "stock"]);
    expect((await api.call("GET", "/api/v2/dashboard/list", { as: CAROL })).json).toEqual({ success: true, messages: [], data: [] });
  });

  it("gives dashboard-admin every registered dashboard with its owners (id, login, displayName); admin without owners", async () => {
    const dora = (await api.call("GET", "/api/v2/dashboard/list", { as: DORA })).json.data;
    expect(dora.map((d: { slug: string }) => d.slug)).toEqual(["sales", "staff", "stock"]);
    expect(dora[1]).toEqual({
      uuid: uuidOf(3), title: "Staff", published: true, changed_on: "2024-03-03T05:06:07.000000", changed_by_name: "Ada Lovelace",
      slug: "staff", url: `${superset.url}/superset/dashboard/3/`, domain: superset.url,
      owners: [{ id: "editor", login: "editor", displayName: "Editors" }],
    });
    expect(dora[2].owners).toEqual([{ id: "editor", login: "editor", displayName: "Editors" }, { id: "reader", login: "reader", displayName: "reader" }]);
    const admin = (await api.call("GET", "/api/v2/dashboard/list")).json.data;
    expect(admin.map((d: { slug: string; owners?: unknown }) => [d.slug, d.owners])).toEqual([["sales", undefined], ["staff", undefined], ["stock", undefined]]);
  });

  it("answers 501 to the other methods", async () => {
    for (const method of ["POST", "PUT", "DELETE"]) {
      expect(errorOf(await api.call(method, "/api/v2/dashboard/list"))).toEqual([501, false, "CRUD0103", `Method "${method}" is not available on "/api/v2/dashboard/list"`]);
    }
    expect(errorOf(await api.call("PUT", "/api/v2/dashboard/info?ref=sales"))[0]).toBe(501);
  });
});

describe("GET /api/v2/dashboard/info", () => {
  it("gives one dashboard by its slug; owners, without id, only to dashboard-admin", async () => {
    const bob = await api.call("GET", "/api/v2/dashboard/info?ref=stock", { as: BOB });
    expect(bob.json).toEqual({
      success: true, messages: [],
      data: {
        uuid: EMBEDDED, title: "Stock", published: false, changed_on: "2024-03-02T05:06:07.123458", changed_by_name: "Grace Hopper",
        slug: "stock", url: `${superset.url}/superset/dashboard/stock/`, domain: superset.url,
      },
    });
    const dora = await api.call("GET", "/api/v2/dashboard/info?ref=stock", { as: DORA });
    expect(dora.json.data.owners).toEqual([{ login: "editor", displayName: "Editors" }, { login: "reader", displayName: "reader" }]);
    expect((await api.call("GET", "/api/v2/dashboard/info?ref=stock")).json.data.owners).toBeUndefined();
  });

  it("answers 400 without ref, 404 for an unknown one or one the server lacks, 403 for a dashboard not theirs", async () => {
    const missing = [400, false, "DASH0001", "The dashboard reference is missing: give it as ?ref=<slug>"];
    expect(errorOf(await api.call("GET", "/api/v2/dashboard/info", { as: BOB }))).toEqual(missing);
    expect(errorOf(await api.call("GET", "/api/v2/dashboard/info?ref=", { as: BOB }))).toEqual(missing);
    expect(errorOf(await api.call("GET", "/api/v2/dashboard/info?ref=nope", { as: BOB }))).toEqual([404, false, "DASH0002", 'Dashboard "nope" not found']);
    expect(errorOf(await api.call("GET", "/api/v2/dashboard/info?ref=staff", { as: BOB }))).toEqual([403, false, "DASH0003", 'Dashboard "staff" access deny']);
    expect(errorOf(await api.call("GET", "/api/v2/dashboard/info?ref=gone", { as: BOB }))).toEqual([
      404, false, "DASH0004", `Dashboard "gone" (uuid ${GONE}) is not on the dashboard server`,
    ]);
  });
});

describe("the dashboard server", () => {
  it("is logged in to again, once, when its token expired", async () => {
    await api.call("GET", "/api/v2/dashboard/list", { as: BOB });
    const logins = superset.count(LOGIN);
    superset.expireTokens();
    expect((await api.call("GET", "/api/v2/dashboard/list", { as: BOB })).status).toBe(200);
    expect((await api.call("GET", "/api/v2/dashboard/info?ref=sales", { as: BOB })).status).toBe(200);
    expect(superset.count(LOGIN)).toBe(logins + 1);
  });

  it("gives 500 with a clear message when it refuses the login", async () => {
    superset.knobs.password = "rotated";
    superset.expireTokens();
    try {
      const refused = [500, false, "DASH0102", `The dashboard server ${superset.url} refused the login of "lineage": status 401: Not authorized`];
      expect(errorOf(await api.call("GET", "/api/v2/dashboard/list", { as: BOB }))).toEqual(refused);
      expect(errorOf(await api.call("GET", "/api/v2/dashboard/info?ref=sales", { as: BOB }))).toEqual(refused);
    } finally {
      superset.knobs.password = "superset-pw";
    }
    expect((await api.call("GET", "/api/v2/dashboard/list", { as: BOB })).status).toBe(200);
  });

  it("gives 500 instead of waiting for a slow server", async () => {
    superset.knobs.delayMs = 3000;
    try {
      expect(errorOf(await api.call("GET", "/api/v2/dashboard/list", { as: BOB }))).toEqual([
        500, false, "DASH0103", `The dashboard server ${superset.url} did not answer GET /api/v1/dashboard/ within 1000 ms`,
      ]);
    } finally {
      superset.knobs.delayMs = 0;
    }
  });

  it("gives 500 when its answer is not JSON", async () => {
    superset.knobs.brokenJson = true;
    try {
      expect(errorOf(await api.call("GET", "/api/v2/dashboard/info?ref=sales", { as: BOB }))).toEqual([
        500, false, "DASH0104", `The dashboard server ${superset.url} gave an unexpected answer to GET /api/v1/dashboard/: the body is not JSON (<html><body>502 Bad Gateway</body></html>)`,
      ]);
    } finally {
      superset.knobs.brokenJson = false;
    }
  });

  it("gives 500 when it is down", async () => {
    const dead = await startFakeSuperset();
    await dead.close();
    const down = await lineage(createSupersetServer({ url: dead.url, username: "lineage", password: "superset-pw" }));
    const unreachable = [500, false, "DASH0101", `Cannot reach the dashboard server ${dead.url}: connection refused (ECONNREFUSED)`];
    expect(errorOf(await down.call("GET", "/api/v2/dashboard/list", { as: BOB }))).toEqual(unreachable);
    expect(errorOf(await down.call("GET", "/api/v2/dashboard/info?ref=sales", { as: BOB }))).toEqual(unreachable);
  });

  it("gives 500 on both routes when none is configured", async () => {
    const none = await lineage();
    const unconfigured = [500, false, "DASH0100", 'No dashboard server is configured: set "dashboards" in the configuration file'];
    expect(errorOf(await none.call("GET", "/api/v2/dashboard/list", { as: BOB }))).toEqual(unconfigured);
    expect(errorOf(await none.call("GET", "/api/v2/dashboard/info?ref=sales", { as: BOB }))).toEqual(unconfigured);
    expect(errorOf(await none.call("GET", "/api/v2/dashboard/info", { as: BOB }))[2]).toBe("DASH0001");
  });

  it("is not asked again while its answers are fresh: pages listing dashboards log in once", async () => {
    const cached = await lineage(superseted({ cacheMs: 30_000 }));
    const [logins, lists] = [superset.count(LOGIN), superset.count(LIST)];
    await Promise.all([
      cached.call("GET", "/api/v2/dashboard/list", { as: BOB }),
      cached.call("GET", "/api/v2/dashboard/list", { as: ALICE }),
    ]);
    for (const as of [BOB, DORA]) expect((await cached.call("GET", "/api/v2/dashboard/list", { as })).status).toBe(200);
    expect((await cached.call("GET", "/api/v2/dashboard/info?ref=sales", { as: BOB })).json.data.title).toBe("Sales");
    expect([superset.count(LOGIN) - logins, superset.count(LIST) - lists]).toEqual([1, 1]);
  });
});
