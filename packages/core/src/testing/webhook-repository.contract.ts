import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Store } from "../ports/store.port.ts";
import type { DeliverySettlement, NewDelivery, Webhook } from "../webhooks/webhook.ts";

const T0 = Date.parse("2026-11-27T10:00:00.000Z");

/** A webhook, each property overridable. */
function webhook(overrides: Partial<Webhook> = {}): Webhook {
  return {
    id: "wh_1", url: "https://hooks.example.com/a", types: ["element.updated"], structures: ["ARTICLE"], description: "Été ☃",
    secret: "whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0", createdAt: T0, cursor: 10, failingSince: null, disabledAt: null, ...overrides,
  };
}

const delivery = (seq: number, initid = seq, id = `msg_${seq}`): NewDelivery => ({
  id, seq, initid, type: "element.updated", body: JSON.stringify({ seq, initid, title: "Été ☃" }),
});

const ok = (at: number): DeliverySettlement => ({ status: "delivered", nextAttemptAt: at, statusCode: 204, error: null, at });
const failed = (at: number, next: number): DeliverySettlement => ({ status: "pending", nextAttemptAt: next, statusCode: 500, error: "answered 500", at });

/**
 * The behaviour every store's webhook repository shares (the WebhookRepository port), as one
 * vitest suite; `open` must give an empty store, and is called once per test.
 *
 * @example
 * webhookRepositoryContract("memory", () => createMemoryStore());
 */
export function webhookRepositoryContract(name: string, open: () => Store | Promise<Store>): void {
  describe(`WebhookRepository contract: ${name}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await open();
    });
    afterEach(() => store.close());

    const claim = (node: string, now: number, limit = 10, leaseMs = 30_000) => store.webhooks.claim({ node, now, leaseUntil: now + leaseMs, limit });

    it("keeps a webhook as given, lists it with its latest delivery, removes it with its deliveries", async () => {
      expect(await store.webhooks.list()).toEqual([]);
      const hook = webhook();
      await store.webhooks.create(hook);
      await store.webhooks.create(webhook({ id: "wh_2", types: [], structures: [], description: "" }));
      expect(await store.webhooks.byId("wh_1")).toEqual(hook);
      expect(await store.webhooks.byId("wh_none")).toBeUndefined();
      expect((await store.webhooks.list()).map(({ webhook: w, last }) => [w.id, last])).toEqual([["wh_1", undefined], ["wh_2", undefined]]);
      expect(await store.webhooks.enqueue("wh_1", 10, 12, [delivery(11), delivery(12)], T0)).toBe(true);
      const [first] = await store.webhooks.list();
      expect(first!.webhook.cursor).toBe(12);
      expect(first!.last).toMatchObject({ id: "msg_12", webhookId: "wh_1", seq: 12, status: "pending", attempts: 0, createdAt: T0, nextAttemptAt: T0 });
      expect(await store.webhooks.remove("wh_1")).toBe(true);
      expect(await store.webhooks.remove("wh_1")).toBe(false);
      expect(await store.webhooks.deliveries("wh_1", 10)).toEqual([]);
      expect((await store.webhooks.list()).map(({ webhook: w }) => w.id)).toEqual(["wh_2"]);
    });

    it("moves a cursor once from a given seq: a stale enqueue adds nothing, a seq already queued is kept as it was", async () => {
      await store.webhooks.create(webhook());
      expect(await store.webhooks.enqueue("wh_1", 10, 11, [delivery(11)], T0)).toBe(true);
      expect(await store.webhooks.enqueue("wh_1", 10, 12, [delivery(11, 11, "msg_other"), delivery(12)], T0)).toBe(false);
      expect((await store.webhooks.byId("wh_1"))!.cursor).toBe(11);
      expect((await store.webhooks.deliveries("wh_1", 10)).map((d) => d.id)).toEqual(["msg_11"]);
      expect(await store.webhooks.enqueue("wh_1", 11, 20, [delivery(11, 11, "msg_again"), delivery(15)], T0)).toBe(true);
      expect((await store.webhooks.deliveries("wh_1", 10)).map((d) => d.id)).toEqual(["msg_15", "msg_11"]);
      // A cursor moves past events the webhook does not want, with no delivery.
      expect(await store.webhooks.enqueue("wh_1", 20, 30, [], T0)).toBe(true);
      expect((await store.webhooks.byId("wh_1"))!.cursor).toBe(30);
      expect(await store.webhooks.enqueue("wh_none", 0, 1, [delivery(1)], T0)).toBe(false);
    });

    it("claims due deliveries once, with their body, counting an attempt, and hands an expired lease to another node", async () => {
      await store.webhooks.create(webhook());
      await store.webhooks.enqueue("wh_1", 10, 12, [delivery(11), delivery(12)], T0);
      expect(await claim("a", T0 - 1)).toEqual([]);
      const claimed = await claim("a", T0);
      expect(claimed).toEqual([
        { id: "msg_11", webhookId: "wh_1", url: "https://hooks.example.com/a", secret: webhook().secret, seq: 11, body: delivery(11).body, attempt: 1, since: T0 },
        { id: "msg_12", webhookId: "wh_1", url: "https://hooks.example.com/a", secret: webhook().secret, seq: 12, body: delivery(12).body, attempt: 1, since: T0 },
      ]);
      expect(await claim("b", T0 + 1000)).toEqual([]);
      // Node a died: its lease expires, node b takes the delivery over, the same id for a second attempt.
      const taken = await claim("b", T0 + 30_000, 1);
      expect(taken.map((c) => [c.id, c.attempt])).toEqual([["msg_11", 2]]);
      const [msg11] = (await store.webhooks.deliveries("wh_1", 10)).filter((d) => d.id === "msg_11");
      expect(msg11!.attempts).toBe(2);
      expect(msg11!.attemptLog.map((a) => [a.attempt, a.node, a.startedAt, a.endedAt, a.error !== null])).toEqual([
        [1, "a", T0, T0 + 30_000, true], [2, "b", T0 + 30_000, null, false],
      ]);
      // Node a comes back late: its attempt is recorded, the delivery is no longer its own to settle.
      expect(await store.webhooks.settle("msg_11", 1, "a", ok(T0 + 31_000))).toBe(false);
      expect((await store.webhooks.delivery("wh_1", "msg_11"))!.status).toBe("pending");
      expect(await store.webhooks.settle("msg_11", 2, "b", ok(T0 + 32_000))).toBe(true);
      const done = (await store.webhooks.delivery("wh_1", "msg_11"))!;
      expect(done).toMatchObject({ status: "delivered", attempts: 2, lastStatusCode: 204, lastError: null, deliveredAt: T0 + 32_000, updatedAt: T0 + 32_000 });
      expect(done.attemptLog.map((a) => [a.attempt, a.statusCode, a.endedAt])).toEqual([[1, 204, T0 + 31_000], [2, 204, T0 + 32_000]]);
      expect(await store.webhooks.settle("msg_11", 2, "b", ok(T0 + 33_000))).toBe(false);
      expect(await store.webhooks.delivery("wh_2", "msg_11")).toBeUndefined();
      expect(await store.webhooks.delivery("wh_1", "msg_none")).toBeUndefined();
    });

    it("holds a later delivery of an element until the earlier one is settled, whatever its due time", async () => {
      await store.webhooks.create(webhook());
      await store.webhooks.enqueue("wh_1", 10, 14, [delivery(11, 5), delivery(12, 6), delivery(13, 5), delivery(14, 5)], T0);
      expect((await claim("a", T0)).map((c) => c.id)).toEqual(["msg_11", "msg_12"]);
      await store.webhooks.settle("msg_11", 1, "a", failed(T0 + 100, T0 + 5000));
      await store.webhooks.settle("msg_12", 1, "a", ok(T0 + 100));
      // msg_11 waits for its next try; msg_13 waits for msg_11.
      expect(await claim("a", T0 + 1000)).toEqual([]);
      expect((await claim("a", T0 + 5000)).map((c) => [c.id, c.attempt])).toEqual([["msg_11", 2]]);
      await store.webhooks.settle("msg_11", 2, "a", ok(T0 + 5100));
      expect((await claim("a", T0 + 5200)).map((c) => c.id)).toEqual(["msg_13"]);
      await store.webhooks.settle("msg_13", 1, "a", ok(T0 + 5300));
      expect((await claim("a", T0 + 5400)).map((c) => c.id)).toEqual(["msg_14"]);
    });

    it("gives each delivery to one of two claims made at once", async () => {
      await store.webhooks.create(webhook());
      await store.webhooks.enqueue("wh_1", 10, 50, Array.from({ length: 40 }, (_, i) => delivery(11 + i)), T0);
      const [a, b] = await Promise.all([claim("a", T0, 25), claim("b", T0, 25)]);
      const ids = [...a!, ...b!].map((c) => c.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toHaveLength(40);
    });

    it("marks a webhook failing and disabled, stops claiming a disabled one's deliveries, and enables it again at a retry", async () => {
      await store.webhooks.create(webhook());
      await store.webhooks.create(webhook({ id: "wh_2" }));
      await store.webhooks.enqueue("wh_1", 10, 12, [delivery(11), delivery(12, 11)], T0);
      await claim("a", T0, 1);
      await store.webhooks.settle("msg_11", 1, "a", failed(T0 + 10, T0 + 20));
      expect((await store.webhooks.byId("wh_1"))!.failingSince).toBe(T0 + 10);
      await claim("a", T0 + 20, 1);
      await store.webhooks.settle("msg_11", 2, "a", { status: "failed", nextAttemptAt: T0 + 30, statusCode: null, error: "timed out after 10 s", at: T0 + 30 });
      expect(await store.webhooks.byId("wh_1")).toMatchObject({ failingSince: T0 + 10, disabledAt: T0 + 30 });
      expect((await store.webhooks.delivery("wh_1", "msg_11"))).toMatchObject({ status: "failed", lastStatusCode: null, lastError: "timed out after 10 s" });
      await store.webhooks.enqueue("wh_2", 10, 11, [delivery(11, 11, "msg_w2")], T0);
      // wh_1 is disabled: msg_12 waits; wh_2's delivery goes.
      expect((await claim("a", T0 + 100)).map((c) => c.id)).toEqual(["msg_w2"]);
      expect(await store.webhooks.retry("wh_2", "msg_11", T0 + 200)).toBe(false);
      expect(await store.webhooks.retry("wh_1", "msg_11", T0 + 200)).toBe(true);
      expect(await store.webhooks.byId("wh_1")).toMatchObject({ disabledAt: null });
      expect(await store.webhooks.delivery("wh_1", "msg_11")).toMatchObject({ status: "pending", since: T0 + 200, nextAttemptAt: T0 + 200 });
      expect((await claim("a", T0 + 200)).map((c) => [c.id, c.attempt, c.since])).toEqual([["msg_11", 3, T0 + 200]]);
      await store.webhooks.settle("msg_11", 3, "a", ok(T0 + 300));
      expect((await store.webhooks.byId("wh_1"))!.failingSince).toBeNull();
      expect((await claim("a", T0 + 400)).map((c) => c.id)).toEqual(["msg_12"]);
    });

    it("settles several attempts at once, each as settle would", async () => {
      await store.webhooks.create(webhook());
      await store.webhooks.enqueue("wh_1", 10, 13, [delivery(11), delivery(12), delivery(13)], T0);
      await claim("a", T0);
      expect(await store.webhooks.settleAll("a", [
        { deliveryId: "msg_11", attempt: 1, settlement: ok(T0 + 10) },
        { deliveryId: "msg_12", attempt: 1, settlement: failed(T0 + 10, T0 + 5000) },
        { deliveryId: "msg_13", attempt: 2, settlement: ok(T0 + 10) },
      ])).toEqual([true, true, true]);
      expect(await store.webhooks.settleAll("b", [{ deliveryId: "msg_12", attempt: 1, settlement: ok(T0 + 20) }])).toEqual([false]);
      expect((await store.webhooks.deliveries("wh_1", 10)).map((d) => [d.id, d.status])).toEqual([["msg_13", "delivered"], ["msg_12", "pending"], ["msg_11", "delivered"]]);
      expect(await store.webhooks.settleAll("a", [])).toEqual([]);
    });

    it("leaves a webhook settled several times at once as those settlements one after the other would", async () => {
      await store.webhooks.create(webhook());
      await store.webhooks.enqueue("wh_1", 10, 16, [11, 12, 13, 14, 15, 16].map((seq) => delivery(seq, seq)), T0);
      await claim("a", T0);
      const settle = (id: number, settlement: DeliverySettlement) => ({ deliveryId: `msg_${id}`, attempt: 1, settlement });
      // Delivered, then two failures: failing since the first failure after the delivery.
      await store.webhooks.settleAll("a", [settle(11, ok(T0 + 10)), settle(12, failed(T0 + 20, T0 + 900)), settle(13, failed(T0 + 30, T0 + 900))]);
      expect(await store.webhooks.byId("wh_1")).toMatchObject({ failingSince: T0 + 20, disabledAt: null });
      // Failures only: failing since as before; one given up for good disables it at its time.
      await store.webhooks.settleAll("a", [
        settle(14, failed(T0 + 40, T0 + 900)), settle(15, { status: "failed", nextAttemptAt: T0 + 50, statusCode: 500, error: "answered 500", at: T0 + 50 }),
      ]);
      expect(await store.webhooks.byId("wh_1")).toMatchObject({ failingSince: T0 + 20, disabledAt: T0 + 50 });
      // A delivery last: no longer failing (disabled stays until a retry).
      await store.webhooks.settleAll("a", [settle(16, ok(T0 + 60))]);
      expect(await store.webhooks.byId("wh_1")).toMatchObject({ failingSince: null, disabledAt: T0 + 50 });
    });

    it("lists a webhook's deliveries newest first, at most the limit", async () => {
      await store.webhooks.create(webhook());
      await store.webhooks.enqueue("wh_1", 10, 15, [11, 12, 13, 14, 15].map((seq) => delivery(seq)), T0);
      expect((await store.webhooks.deliveries("wh_1", 3)).map((d) => d.seq)).toEqual([15, 14, 13]);
      expect((await store.webhooks.deliveries("wh_1", 3))[0]).toMatchObject({ webhookId: "wh_1", initid: 15, type: "element.updated", attemptLog: [] });
    });
  });
}
