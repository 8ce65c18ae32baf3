import { describe, expect, it } from "vitest";
import { seededPlatform } from "@lineage/core/testing";
import { checkConfig, DEFAULT_RETENTION_DAYS, keepEvents } from "../src/index.ts";

describe("events.retentionDays in the configuration file", () => {
  it("takes a number of days above 0, fractions allowed", () => {
    expect(checkConfig({ events: { retentionDays: 7 } })).toEqual({ events: { retentionDays: 7 } });
    expect(checkConfig({ events: { retentionDays: 0.25 } })).toEqual({ events: { retentionDays: 0.25 } });
    expect(checkConfig({ events: {} })).toEqual({ events: {} });
  });

  it.each([
    [{ events: { retentionDays: 0 } }, /events\.retentionDays: must be a number of days above 0/],
    [{ events: { retentionDays: -1 } }, /events\.retentionDays: must be a number of days above 0/],
    [{ events: { retentionDays: "30" } }, /events\.retentionDays: /],
    [{ events: { retentionDays: Number.POSITIVE_INFINITY } }, /events\.retentionDays: /],
    [{ events: { keepDays: 3 } }, /events\.keepDays: Invalid key/],
  ])("refuses %j, naming the key", (config, message) => {
    expect(() => checkConfig(config)).toThrow(message);
  });
});

describe("keepEvents: what lineage serve runs", () => {
  it("prunes at once, then at every period, keeping 30 days unless told otherwise", async () => {
    expect(DEFAULT_RETENTION_DAYS).toBe(30);
    const { platform, principal, clock } = await seededPlatform();
    const admin = await principal("admin");
    const seeded = (await platform.events.read(admin, {})).events.length;
    clock.advance(2 * 86_400_000);
    await platform.elements.update(admin, "ART_HELLO", { values: { ar_words: "1" } });
    const kept = async () => (await platform.events.read(admin, {})).events.length;

    const thirtyDays = keepEvents(platform, { log: () => {} });
    await thirtyDays.stop();
    expect(await kept()).toBe(seeded + 1);

    const logged: string[] = [];
    const oneDay = keepEvents(platform, { retentionDays: 1, everyMs: 20, log: (message) => logged.push(message) });
    for (const giveUp = Date.now() + 2000; (await kept()) !== 1; await new Promise((resolve) => setTimeout(resolve, 10))) {
      expect(Date.now()).toBeLessThan(giveUp);
    }
    // Every period again: what ages meanwhile goes too.
    clock.advance(1.5 * 86_400_000);
    for (const giveUp = Date.now() + 2000; (await kept()) !== 0; await new Promise((resolve) => setTimeout(resolve, 10))) {
      expect(Date.now()).toBeLessThan(giveUp);
    }
    await oneDay.stop();
    expect(logged).toEqual([]);
  });

  it("tells a failed prune and goes on", async () => {
    const { platform } = await seededPlatform();
    const failing = { ...platform, events: { ...platform.events, prune: () => Promise.reject(new Error("database away")) } };
    const logged: string[] = [];
    const retention = keepEvents(failing, { everyMs: 10, log: (message) => logged.push(message) });
    await new Promise((resolve) => setTimeout(resolve, 60));
    await retention.stop();
    expect(logged.length).toBeGreaterThanOrEqual(2);
    expect(logged[0]).toMatch(/pruning the event log failed .*database away/);
  });
});
