import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AccessToken } from "../auth/access-token.ts";
import type { Session } from "../auth/session.ts";
import type { Store } from "../ports/store.port.ts";

export interface AuthStoreContractOptions {
  /** An empty store, once per test. */
  readonly open: () => Store | Promise<Store>;
  /** A second connection on the same data as `store` (another process would do the same), when the adapter has one. */
  readonly openTwin?: (store: Store) => Store | Promise<Store>;
}

/**
 * The behaviour of the sessions and tokens repositories every Store adapter
 * shares: storage by hash, expiry clean-up, and atomic oneshot consumption.
 * @example
 * authStoreContract("memory", { open: () => createMemoryStore() });
 */
export function authStoreContract(name: string, options: AuthStoreContractOptions): void {
  describe(`Auth store contract: ${name}`, () => {
    let store: Store;
    const opened: Store[] = [];
    beforeEach(async () => {
      store = await options.open();
      opened.push(store);
    });
    afterEach(async () => {
      for (const s of opened.splice(0).reverse()) await s.close();
    });

    const token = (overrides: Partial<AccessToken> = {}): AccessToken => ({
      id: "t1", hash: "h1", accountId: 7, routes: [{ pattern: "/api/v2/*", methods: ["GET"] }],
      expiresAt: null, oneshot: false, description: "ci", createdAt: "2024-01-01T00:00:00.000Z", ...overrides,
    });
    const session = (overrides: Partial<Session> = {}): Session => ({
      id: "s1", accountId: 7, csrfToken: "c1", createdAt: "2024-01-01T00:00:00.000Z",
      expiresAt: "2024-01-01T02:00:00.000Z", absoluteExpiresAt: "2024-01-02T00:00:00.000Z", ...overrides,
    });

    describe("tokens", () => {
      it("finds a token by hash and by id, with every field kept", async () => {
        const stored = token({ expiresAt: "2030-01-01T00:00:00.000Z", oneshot: true, routes: [{ pattern: "/a/{id:\\d+}", methods: ["GET", "PUT"] }] });
        await store.tokens.create(stored);
        expect(await store.tokens.byHash("h1")).toEqual(stored);
        expect(await store.tokens.byId("t1")).toEqual(stored);
        expect(await store.tokens.byHash("nope")).toBeUndefined();
      });

      it("lists tokens oldest first and revokes by id", async () => {
        await store.tokens.create(token());
        await store.tokens.create(token({ id: "t2", hash: "h2" }));
        expect((await store.tokens.list()).map((t) => t.id)).toEqual(["t1", "t2"]);
        expect(await store.tokens.delete("t1")).toBe(true);
        expect(await store.tokens.delete("t1")).toBe(false);
        expect((await store.tokens.list()).map((t) => t.id)).toEqual(["t2"]);
      });

      it("consumes a token exactly once", async () => {
        await store.tokens.create(token({ oneshot: true }));
        expect([await store.tokens.consume("h1"), await store.tokens.consume("h1")]).toEqual([true, false]);
        expect(await store.tokens.byHash("h1")).toBeUndefined();
      });

      it("consumes a token once when two consumptions run at the same time", async () => {
        await store.tokens.create(token({ oneshot: true }));
        const results = await Promise.all([store.tokens.consume("h1"), store.tokens.consume("h1")]);
        expect(results.filter(Boolean)).toHaveLength(1);
      });

      it("forgets expired tokens only", async () => {
        await store.tokens.create(token({ expiresAt: "2024-01-01T00:00:00.000Z" }));
        await store.tokens.create(token({ id: "t2", hash: "h2", expiresAt: "2030-01-01T00:00:00.000Z" }));
        await store.tokens.create(token({ id: "t3", hash: "h3", expiresAt: null }));
        expect(await store.tokens.deleteExpired("2025-01-01T00:00:00.000Z")).toBe(1);
        expect((await store.tokens.list()).map((t) => t.id)).toEqual(["t2", "t3"]);
      });

      it("rolls a token back with the transaction that created it", async () => {
        await expect(store.transaction(async (tx) => {
          await tx.tokens.create(token());
          throw new Error("abort");
        })).rejects.toThrow("abort");
        expect(await store.tokens.byId("t1")).toBeUndefined();
      });

      it.runIf(options.openTwin)("lets only one of two connections consume a oneshot token", async () => {
        await store.tokens.create(token({ oneshot: true }));
        const twin = await options.openTwin!(store);
        opened.push(twin);
        expect((await twin.tokens.byHash("h1"))?.id).toBe("t1");
        const results = await Promise.all([twin.tokens.consume("h1"), store.tokens.consume("h1")]);
        expect(results.filter(Boolean)).toHaveLength(1);
      });
    });

    describe("sessions", () => {
      it("creates, extends and deletes a session", async () => {
        await store.sessions.create(session());
        expect(await store.sessions.byId("s1")).toEqual(session());
        await store.sessions.extend("s1", "2024-01-01T03:00:00.000Z");
        expect((await store.sessions.byId("s1"))?.expiresAt).toBe("2024-01-01T03:00:00.000Z");
        expect(await store.sessions.delete("s1")).toBe(true);
        expect(await store.sessions.delete("s1")).toBe(false);
        expect(await store.sessions.byId("s1")).toBeUndefined();
      });

      it("refuses a second session of the same id", async () => {
        await store.sessions.create(session());
        await expect(store.sessions.create(session({ accountId: 8 }))).rejects.toThrow();
        expect((await store.sessions.byId("s1"))?.accountId).toBe(7);
      });

      it("forgets sessions past their idle or absolute expiry", async () => {
        await store.sessions.create(session());
        await store.sessions.create(session({ id: "s2", expiresAt: "2024-01-03T00:00:00.000Z" }));
        await store.sessions.create(session({ id: "s3", expiresAt: "2024-01-01T05:00:00.000Z", absoluteExpiresAt: "2024-01-05T00:00:00.000Z" }));
        expect(await store.sessions.deleteExpired("2024-01-01T04:00:00.000Z")).toBe(1);
        expect(await store.sessions.deleteExpired("2024-01-02T12:00:00.000Z")).toBe(2);
        expect(await store.sessions.byId("s3")).toBeUndefined();
      });

      it("ends every session of an account", async () => {
        await store.sessions.create(session());
        await store.sessions.create(session({ id: "s2" }));
        await store.sessions.create(session({ id: "s3", accountId: 8 }));
        expect(await store.sessions.deleteForAccount(7)).toBe(2);
        expect((await store.sessions.byId("s3"))?.accountId).toBe(8);
      });
    });
  });
}
