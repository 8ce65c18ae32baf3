import { describe, expect, it } from "vitest";
import {
  LineageError, createPlatform, listDashboards, mayViewDashboard, readDashboard, seesDashboardOwners,
  type DashboardSources, type ServerDashboard,
} from "./internals.ts";
import { createMemoryDashboardServer, createMemoryStore, dashboardCatalogContract } from "../src/testing/index.ts";
import { principalOf } from "../src/accounts/principal.ts";
import type { Account } from "../src/accounts/account.ts";

dashboardCatalogContract("memory", () => createMemoryStore());

// Visibility and mapping of dashboards (api-v2.md, Dashboard), without I/O.

const SALES = "8f0c2a9e-1111-2222-3333-444455556666";
const STOCK = "8f0c2a9e-1111-2222-3333-444455556667";
const GONE = "8f0c2a9e-1111-2222-3333-444455556668";

const onServer = (id: number, uuid: string, title: string): ServerDashboard => ({
  id, uuids: [uuid], title, published: id % 2 === 1, changedOn: `2024-0${id}-05T13:15:31.442937`,
  changedByName: "Ada Admin", slug: `superset-${id}`, url: `http://superset.test/superset/dashboard/${id}/`,
});

async function setUp() {
  const store = createMemoryStore();
  await store.transaction(async (tx) => {
    await tx.accounts.saveRole({ id: "clerk", label: { en: "Clerks", fr: "Employés" } });
    await tx.accounts.saveRole({ id: "editor" });
    await tx.catalog.saveDashboard({ slug: "sales", uuid: SALES, roles: ["clerk"] });
    await tx.catalog.saveDashboard({ slug: "stock", uuid: STOCK.toUpperCase(), roles: ["editor", "clerk"] });
    await tx.catalog.saveDashboard({ slug: "gone", uuid: GONE, roles: ["clerk"] });
  });
  const server = createMemoryDashboardServer({ dashboards: [onServer(1, SALES, "Sales overview"), onServer(2, STOCK, "Inventory")] });
  const sources: DashboardSources = { catalog: store.catalog, roles: () => store.accounts.roles(), server };
  return { store, server, sources };
}

let nextId = 1;
function principal(roles: string[], locale = "en", groups: { id: string; roles: string[] }[] = []) {
  const account: Account = {
    id: nextId++, login: `user${nextId}`, displayName: "User", passwordHash: null, roles, groups: groups.map((g) => g.id), locale, rights: ["GET"], disabled: false,
  };
  return principalOf(account, groups);
}

describe("who sees which dashboard", () => {
  const entry = { slug: "sales", uuid: SALES, roles: ["clerk"] };
  it("a user sees a dashboard one of whose roles they hold, also through a group", () => {
    expect(mayViewDashboard(principal(["clerk"]), entry)).toBe(true);
    expect(mayViewDashboard(principal([], "en", [{ id: "shop", roles: ["clerk"] }]), entry)).toBe(true);
    expect(mayViewDashboard(principal(["editor"]), entry)).toBe(false);
    expect(mayViewDashboard(principal([]), { ...entry, roles: [] })).toBe(false);
  });

  it("admin and dashboard-admin see every dashboard; only dashboard-admin sees the owners", () => {
    expect(mayViewDashboard(principal(["admin"]), { ...entry, roles: [] })).toBe(true);
    expect(mayViewDashboard(principal(["dashboard-admin"]), { ...entry, roles: [] })).toBe(true);
    expect(seesDashboardOwners(principal(["dashboard-admin"]))).toBe(true);
    expect(seesDashboardOwners(principal(["admin"]))).toBe(false);
    expect(seesDashboardOwners(principal(["clerk"]))).toBe(false);
  });
});

describe("listDashboards", () => {
  it("maps the server's data to the spec's object, ordered by title, without owners for a user", async () => {
    const { sources } = await setUp();
    expect(await listDashboards(sources, principal(["clerk"]))).toEqual([
      {
        uuid: STOCK.toUpperCase(), title: "Inventory", published: false, changed_on: "2024-02-05T13:15:31.442937",
        changed_by_name: "Ada Admin", slug: "stock", url: "http://superset.test/superset/dashboard/2/", domain: "http://superset.test",
      },
      {
        uuid: SALES, title: "Sales overview", published: true, changed_on: "2024-01-05T13:15:31.442937",
        changed_by_name: "Ada Admin", slug: "sales", url: "http://superset.test/superset/dashboard/1/", domain: "http://superset.test",
      },
    ]);
  });

  it("gives only the user's dashboards, and asks the server nothing when there are none", async () => {
    const { sources, server } = await setUp();
    expect((await listDashboards(sources, principal(["editor"]))).map((d) => d.slug)).toEqual(["stock"]);
    server.failure = new LineageError("DASH0101", ["http://superset.test", "connection refused"]);
    expect(await listDashboards(sources, principal(["reader"]))).toEqual([]);
    await expect(listDashboards(sources, principal(["editor"]))).rejects.toMatchObject({ code: "DASH0101", status: 500 });
  });

  it("shows dashboard-admin the owners with id, login and the label in its locale", async () => {
    const { sources } = await setUp();
    const [stock] = await listDashboards(sources, principal(["dashboard-admin"], "fr"));
    expect(stock?.owners).toEqual([{ id: "editor", login: "editor", displayName: "editor" }, { id: "clerk", login: "clerk", displayName: "Employés" }]);
    expect((await listDashboards(sources, principal(["admin"]))).map((d) => [d.slug, d.owners])).toEqual([["stock", undefined], ["sales", undefined]]);
  });

  it("answers DASH0100 when no dashboard server is configured", async () => {
    const { sources } = await setUp();
    await expect(listDashboards({ ...sources, server: undefined }, principal(["reader"]))).rejects.toMatchObject({
      code: "DASH0100", status: 500, message: 'No dashboard server is configured: set "dashboards" in the configuration file',
    });
  });
});

describe("readDashboard", () => {
  it("gives one dashboard by its platform slug, owners without id for dashboard-admin", async () => {
    const { sources } = await setUp();
    expect(await readDashboard(sources, principal(["clerk"]), "sales")).toMatchObject({ slug: "sales", uuid: SALES, title: "Sales overview" });
    expect((await readDashboard(sources, principal(["dashboard-admin"]), "sales")).owners).toEqual([{ login: "clerk", displayName: "Clerks" }]);
  });

  it("refuses a missing ref (400), an unknown one (404), one not theirs (403), one the server lacks (404)", async () => {
    const { sources } = await setUp();
    const clerk = principal(["clerk"]);
    const failure = (ref: string | undefined, who = clerk) => readDashboard(sources, who, ref).then(() => undefined, (e: LineageError) => [e.status, e.code, e.message]);
    expect(await failure(undefined)).toEqual([400, "DASH0001", "The dashboard reference is missing: give it as ?ref=<slug>"]);
    expect(await failure(" ")).toEqual([400, "DASH0001", "The dashboard reference is missing: give it as ?ref=<slug>"]);
    expect(await failure("nope")).toEqual([404, "DASH0002", 'Dashboard "nope" not found']);
    expect(await failure("sales", principal(["editor"]))).toEqual([403, "DASH0003", 'Dashboard "sales" access deny']);
    expect(await failure("gone")).toEqual([404, "DASH0004", `Dashboard "gone" (uuid ${GONE}) is not on the dashboard server`]);
  });
});

describe("bundles", () => {
  it("store their dashboards, report counts, and a second import changes nothing", async () => {
    const store = createMemoryStore();
    const platform = createPlatform({ store });
    const bundle = { accounts: { roles: [{ id: "clerk" }] }, dashboards: [{ slug: "sales", uuid: SALES, roles: ["clerk"] }, { slug: "open", uuid: STOCK }] };
    expect((await platform.bundles.import(bundle, { readFile: () => undefined })).dashboards).toEqual({ created: 2, updated: 0, unchanged: 0 });
    expect(await store.catalog.dashboards()).toEqual([{ slug: "open", uuid: STOCK, roles: [] }, { slug: "sales", uuid: SALES, roles: ["clerk"] }]);
    expect((await platform.bundles.import(bundle, { readFile: () => undefined })).dashboards).toEqual({ created: 0, updated: 0, unchanged: 2 });
    bundle.dashboards[0]!.roles = ["clerk", "admin"];
    expect((await platform.bundles.import(bundle, { readFile: () => undefined })).dashboards).toEqual({ created: 0, updated: 1, unchanged: 1 });
    expect((await store.catalog.dashboard("sales"))?.roles).toEqual(["clerk", "admin"]);
  });

  it("are refused with unknown roles, by JSON path, and nothing is stored", async () => {
    const store = createMemoryStore();
    const platform = createPlatform({ store });
    const bundle = { dashboards: [{ slug: "sales", uuid: SALES, roles: ["clerk"] }] };
    await expect(platform.bundles.import(bundle, { readFile: () => undefined })).rejects.toMatchObject({
      code: "BUNDLE0001", data: { problems: [{ path: "$.dashboards[0].roles[0]", message: 'unknown role "clerk"' }] },
    });
    expect(await store.catalog.dashboards()).toEqual([]);
  });
});
