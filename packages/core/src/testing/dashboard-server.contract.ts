import { afterEach, describe, expect, it } from "vitest";
import type { DashboardServer } from "../ports/dashboard-server.port.ts";

/** A dashboard the server under test must hold, as the contract sets it up. */
export interface DashboardSeed {
  readonly id: number;
  readonly title: string;
  readonly slug: string | null;
  readonly published: boolean;
  /** The dashboard's own uuid. */
  readonly uuid: string;
  /** The uuid of its embedding, when it is embedded. */
  readonly embedded?: string;
}

/** A server holding the seeds, and how to make it fail. */
export interface DashboardServerUnderTest {
  readonly server: DashboardServer;
  /** Makes every later call fail as a real server can (down, refusing the login, answering garbage). */
  fail(): void | Promise<void>;
  close?(): void | Promise<void>;
}

const SEEDS: readonly DashboardSeed[] = [
  { id: 1, title: "Sales", slug: "sales", published: true, uuid: "00000000-0000-4000-8000-000000000001" },
  { id: 2, title: "Stock", slug: "stock", published: false, uuid: "00000000-0000-4000-8000-000000000002", embedded: "5b1f0f4e-8c3a-4d7e-9a61-2f0c3b7d9e10" },
  { id: 3, title: "Staff", slug: null, published: true, uuid: "00000000-0000-4000-8000-000000000003" },
];

/**
 * The behaviour every DashboardServer shares: every dashboard listed as the server holds it, found
 * by id, slug, its uuid or its embedding's (case aside), nothing found by what names none, and
 * failures as LineageErrors of the DASH01xx codes. `open` is called once per test with the
 * dashboards the server must hold.
 * @example
 * dashboardServerContract("memory", (seeds) => { const server = createMemoryDashboardServer({ dashboards: seeds.map(toServerDashboard) }); ... });
 */
export function dashboardServerContract(
  name: string, open: (seeds: readonly DashboardSeed[]) => DashboardServerUnderTest | Promise<DashboardServerUnderTest>,
): void {
  describe(`DashboardServer contract: ${name}`, () => {
    const opened: DashboardServerUnderTest[] = [];
    const start = async (seeds: readonly DashboardSeed[] = SEEDS) => {
      const underTest = await open(seeds);
      opened.push(underTest);
      return underTest;
    };
    afterEach(async () => {
      for (const underTest of opened.splice(0)) await underTest.close?.();
    });

    it("lists every dashboard it holds, as it holds them", async () => {
      const { server } = await start();
      const listed = [...(await server.list())].sort((a, b) => a.id - b.id);
      expect(listed.map((d) => [d.id, d.title, d.slug, d.published])).toEqual(SEEDS.map((s) => [s.id, s.title, s.slug, s.published]));
      for (const dashboard of listed) {
        expect(dashboard.changedOn, "ISO 8601 without a zone").toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?$/);
        expect(typeof dashboard.changedByName).toBe("string");
        expect(dashboard.url.startsWith(server.address), `${dashboard.url} on ${server.address}`).toBe(true);
        expect(dashboard.url).toMatch(/^https?:\/\/[^/]+/);
      }
      // Its uuids name it, and nothing else (a server may list the embedding's only when asked for it).
      for (const dashboard of listed) {
        const seed = SEEDS.find((s) => s.id === dashboard.id);
        for (const uuid of dashboard.uuids) expect([seed?.uuid, seed?.embedded]).toContain(uuid.toLowerCase());
      }
    });

    it("lists nothing when it holds nothing", async () => {
      const { server } = await start([]);
      expect(await server.list()).toEqual([]);
      expect(await server.dashboard({ id: 1 })).toBeUndefined();
    });

    it("finds a dashboard by id, by slug, by its uuid or its embedding's uuid, in any case", async () => {
      const { server } = await start();
      expect((await server.dashboard({ id: 2 }))?.title).toBe("Stock");
      expect((await server.dashboard({ slug: "sales" }))?.id).toBe(1);
      expect((await server.dashboard({ uuid: "00000000-0000-4000-8000-000000000003" }))?.title).toBe("Staff");
      expect((await server.dashboard({ uuid: "5B1F0F4E-8C3A-4D7E-9A61-2F0C3B7D9E10" }))?.id).toBe(2);
      const listed = await server.list();
      expect(await server.dashboard({ id: 1 })).toEqual(listed.find((d) => d.id === 1));
    });

    it("finds nothing by what names no dashboard", async () => {
      const { server } = await start();
      expect(await server.dashboard({ id: 42 })).toBeUndefined();
      expect(await server.dashboard({ slug: "nope" })).toBeUndefined();
      expect(await server.dashboard({ slug: "Sales" }), "slugs are matched exactly").toBeUndefined();
      expect(await server.dashboard({ uuid: "00000000-0000-4000-8000-000000000099" })).toBeUndefined();
    });

    it("fails with a LineageError of the DASH01xx codes when the server fails", async () => {
      const underTest = await start();
      await underTest.fail();
      for (const call of [() => underTest.server.list(), () => underTest.server.dashboard({ id: 1 })]) {
        await expect(call()).rejects.toMatchObject({ name: "LineageError", code: expect.stringMatching(/^DASH01\d\d$/) });
      }
    });
  });
}
