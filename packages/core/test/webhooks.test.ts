import { describe, expect, it } from "vitest";
import {
  createPlatform, isLineageError, LineageError, RETRY_DELAYS_MS, RETRY_WINDOW_MS, retryDelay, settleAttempt, webhookMatches, webhookPayload,
  type ElementEvent, type SmartStructure,
} from "./internals.ts";
import { seededPlatform } from "../src/testing/index.ts";

async function errorOf(fn: () => Promise<unknown>): Promise<LineageError> {
  try {
    await fn();
  } catch (error) {
    if (isLineageError(error)) return error;
    throw error;
  }
  throw new Error("expected an error");
}

const HOUR = 3_600_000;

describe("the delivery schedule", () => {
  it("waits longer after each failed attempt, within the jitter, the last wait repeated", () => {
    expect(retryDelay(1, () => 0.5)).toBe(5000);
    expect(retryDelay(1, () => 0)).toBe(4000);
    expect(retryDelay(1, () => 0.999999)).toBe(6000);
    const medians = Array.from({ length: 9 }, (_, i) => retryDelay(i + 1, () => 0.5));
    for (let i = 1; i < RETRY_DELAYS_MS.length; i++) expect(medians[i]!).toBeGreaterThan(medians[i - 1]!);
    expect(medians.slice(RETRY_DELAYS_MS.length)).toEqual([10 * HOUR, 10 * HOUR, 10 * HOUR]);
  });

  it("delivers on any 2xx, retries anything else (a redirect included) for 24 hours at least, then fails", () => {
    const since = 1_000_000;
    expect(settleAttempt({ attempt: 1, since }, { statusCode: 204 }, since + 10, Math.random)).toMatchObject({ status: "delivered", statusCode: 204, error: null });
    expect(settleAttempt({ attempt: 1, since }, { statusCode: 302 }, since + 10, () => 0.5)).toEqual({
      status: "pending", nextAttemptAt: since + 10 + 5000, statusCode: 302, error: "answered 302 (redirects are not followed)", at: since + 10,
    });
    expect(settleAttempt({ attempt: 3, since }, { error: "timed out after 10 s" }, since + HOUR, () => 0.5))
      .toMatchObject({ status: "pending", statusCode: null, error: "timed out after 10 s" });
    // The shortest waits (every jitter at its least) still keep trying for the whole window.
    let at = since;
    let attempt = 1;
    for (; ; attempt++) {
      const next = settleAttempt({ attempt, since }, { statusCode: 500 }, at, () => 0);
      if (next.status === "failed") break;
      expect(next.status).toBe("pending");
      at = next.nextAttemptAt;
    }
    expect(at - since).toBeGreaterThanOrEqual(RETRY_WINDOW_MS);
    expect(attempt).toBeLessThan(20);
  });
});

describe("matching and payloads", () => {
  it("matches by types and structures, an empty list matching any", () => {
    const event = { type: "element.updated", structure: "ARTICLE" } as const;
    expect(webhookMatches({ types: [], structures: [] }, event)).toBe(true);
    expect(webhookMatches({ types: ["element.updated"], structures: ["ARTICLE"] }, event)).toBe(true);
    expect(webhookMatches({ types: ["element.created"], structures: [] }, event)).toBe(false);
    expect(webhookMatches({ types: [], structures: ["AUTHOR"] }, event)).toBe(false);
  });

  it("sends the event as an administrator sees it: fields invisible to all left out of changes", () => {
    const structure: SmartStructure = { id: 1, name: "ARTICLE", fields: [{ id: "ar_title", type: "text" }, { id: "ar_secret", type: "text", visibility: "I" }] };
    const event: ElementEvent = {
      seq: 3, type: "element.updated", time: "2026-11-27T10:00:00.000Z", initid: 5, id: 5, name: null, structure: "ARTICLE", revision: 0, state: null,
      actor: "alice", changes: { ar_title: { before: "A", after: "B" }, ar_secret: { before: "x", after: "y" } },
    };
    expect(JSON.parse(webhookPayload(event, { structure: () => structure }))).toEqual({ ...event, changes: { ar_title: { before: "A", after: "B" } } });
  });
});

describe("webhooks (platform.webhooks)", () => {
  it("registers a webhook for administrators only, with its secret shown once, after the last event", async () => {
    const { platform, principal, clock } = await seededPlatform();
    const admin = await principal("admin");
    expect((await errorOf(async () => platform.webhooks.create(await principal("alice"), { url: "https://a.example/" }))).code).toBe("ROUTES0131");
    expect((await errorOf(async () => platform.webhooks.list(await principal("alice")))).code).toBe("ROUTES0131");
    const created = await platform.webhooks.create(admin, { url: " https://hooks.example.com/x ", types: ["element.updated"], structures: ["ARTICLE"], description: "CRM" });
    expect(created).toMatchObject({ url: "https://hooks.example.com/x", types: ["element.updated"], structures: ["ARTICLE"], description: "CRM" });
    expect(created.id).toMatch(/^wh_[0-9a-f]{16}$/);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const [listed] = await platform.webhooks.list(admin);
    expect(listed).toEqual({
      id: created.id, url: created.url, types: created.types, structures: created.structures, description: "CRM", status: "active",
      createdAt: clock.now().toISOString(), lastDelivery: null,
    });
    expect(JSON.stringify(await platform.webhooks.list(admin))).not.toContain(created.secret);
    // Events before its creation are not its own.
    expect((await platform.webhooks.enqueue()).queued).toBe(0);
  });

  it("refuses a bad body with 400 WEBHOOK0400 naming what is wrong, and keeps nothing", async () => {
    const { platform, principal } = await seededPlatform();
    const admin = await principal("admin");
    const refused = async (body: unknown) => {
      const error = await errorOf(() => platform.webhooks.create(admin, body));
      expect(error.code).toBe("WEBHOOK0400");
      return error.message;
    };
    expect(await refused(null)).toMatch(/Invalid webhook/);
    expect(await refused({})).toMatch(/url/);
    expect(await refused({ url: "ftp://example.com/" })).toMatch(/http or https/);
    expect(await refused({ url: "not a url" })).toMatch(/http or https/);
    expect(await refused({ url: "https://a.example/", types: ["element.nope"] })).toMatch(/types: each must be one of element.created/);
    expect(await refused({ url: "https://a.example/", types: "element.created" })).toMatch(/types must be a list/);
    expect(await refused({ url: "https://a.example/", structures: ["NOPE"] })).toMatch(/structures: "NOPE" is not a known structure/);
    expect(await refused({ url: "https://a.example/", extra: 1 })).toMatch(/extra/);
    expect(await platform.webhooks.list(admin)).toEqual([]);
  });

  it("asks the destinations port about the URL", async () => {
    const { store, clock, principal } = await seededPlatform();
    const asked: string[] = [];
    const platform = createPlatform({
      store, clock, webhookDestinations: {
        async check(url) {
          asked.push(url);
          if (url.includes("127.0.0.1")) throw new LineageError("WEBHOOK0400", [`${url} is on a loopback network`]);
        },
      },
    });
    const admin = await principal("admin");
    expect((await errorOf(() => platform.webhooks.create(admin, { url: "http://127.0.0.1:9/" }))).message).toBe("Invalid webhook: http://127.0.0.1:9/ is on a loopback network");
    await platform.webhooks.create(admin, { url: "https://ok.example/" });
    expect(asked).toEqual(["http://127.0.0.1:9/", "https://ok.example/"]);
  });

  it("queues one delivery per matching event, claims it, and settles it; 404 WEBHOOK0404 for unknown ones", async () => {
    const { platform, principal, clock } = await seededPlatform();
    const admin = await principal("admin");
    const alice = await principal("alice");
    const all = await platform.webhooks.create(admin, { url: "https://all.example/" });
    const updates = await platform.webhooks.create(admin, { url: "https://updates.example/", types: ["element.updated"] });
    await platform.elements.update(alice, "ART_HELLO", { values: { ar_title: "Bonjour" } });
    await platform.elements.delete(alice, "ART_ZEBRA");
    expect((await platform.webhooks.enqueue()).queued).toBe(3);
    expect((await platform.webhooks.enqueue()).queued).toBe(0);
    const claimed = (await platform.webhooks.claim("node-a", 10)).sort((a, b) => a.url.localeCompare(b.url) || a.seq - b.seq);
    expect(claimed.map((c) => [c.url, JSON.parse(c.body).type])).toEqual([
      ["https://all.example/", "element.updated"], ["https://all.example/", "element.deleted"], ["https://updates.example/", "element.updated"],
    ]);
    const body = JSON.parse(claimed[0]!.body) as ElementEvent;
    expect(body).toMatchObject({ type: "element.updated", name: "ART_HELLO", actor: "alice", changes: { ar_title: { after: "Bonjour" } } });
    expect(claimed[0]!.secret).toBe(all.secret);
    clock.advance(1000);
    const settled = clock.now().toISOString();
    await platform.webhooks.settle("node-a", claimed[0]!, { statusCode: 200 });
    await platform.webhooks.settle("node-a", claimed[1]!, { statusCode: 503 });
    await platform.webhooks.settle("node-a", claimed[2]!, { error: "connection refused" });
    const deliveries = await platform.webhooks.deliveries(admin, all.id);
    expect(deliveries.map((d) => [d.type, d.status, d.attempts, d.lastStatusCode, d.lastError])).toEqual([
      ["element.deleted", "pending", 1, 503, "answered 503"], ["element.updated", "delivered", 1, 200, null],
    ]);
    expect(deliveries[1]).toMatchObject({ deliveredAt: settled, nextAttemptAt: null, attemptLog: [{ attempt: 1, node: "node-a", statusCode: 200 }] });
    expect(Date.parse(deliveries[0]!.nextAttemptAt!)).toBeGreaterThan(Date.parse(settled));
    const statuses = Object.fromEntries((await platform.webhooks.list(admin)).map((w) => [w.id, w.status]));
    expect(statuses).toEqual({ [all.id]: "failing", [updates.id]: "failing" });
    // A retry is due at once.
    const retried = await platform.webhooks.retry(admin, all.id, deliveries[0]!.id);
    expect(retried).toMatchObject({ status: "pending", nextAttemptAt: settled });
    expect((await platform.webhooks.claim("node-b", 10)).map((c) => [c.id, c.attempt])).toEqual([[deliveries[0]!.id, 2]]);
    expect((await errorOf(() => platform.webhooks.deliveries(admin, "wh_none"))).code).toBe("WEBHOOK0404");
    expect((await errorOf(() => platform.webhooks.retry(admin, all.id, "msg_none"))).code).toBe("WEBHOOK0404");
    expect((await errorOf(() => platform.webhooks.remove(admin, "wh_none"))).code).toBe("WEBHOOK0404");
    await platform.webhooks.remove(admin, all.id);
    expect((await platform.webhooks.list(admin)).map((w) => w.id)).toEqual([updates.id]);
  });
});
