import { describe, expect, it } from "vitest";
import { secretHash, systemPrincipal } from "./internals.ts";
import { seededPlatform } from "../src/testing/seeded-platform.ts";

const noWait = async () => {};

describe("access tokens (fake clock)", () => {
  it("creates a 40-hex token stored only as its hash", async () => {
    const { platform, store } = await seededPlatform();
    const secret = await platform.tokens.create("bob", ["GET /api/v2/*"], { expiration: 60, oneshot: false, description: "ci" });
    expect(secret).toMatch(/^[0-9a-f]{40}$/);
    const [stored] = await store.tokens.list();
    expect(stored).toMatchObject({ hash: secretHash(secret), oneshot: false, description: "ci", routes: [{ pattern: "/api/v2/*", methods: ["GET"] }] });
    expect(JSON.stringify(await store.tokens.list())).not.toContain(secret);
  });

  it("grants its routes as its user, until it expires", async () => {
    const { platform, clock, store } = await seededPlatform();
    const auth = platform.auth.service({ wait: noWait });
    const bob = (await store.accounts.byLogin("bob"))!;
    const secret = await platform.tokens.create(bob, [{ pattern: "/api/v2/smart-elements/{id}", methods: ["GET"] }], { expiration: 60 });
    const granted = await auth.verifyToken(secret, "GET", "/api/v2/smart-elements/12", "10.0.0.1");
    expect(granted.kind === "granted" && granted.principal.account.login).toBe("bob");
    expect((await auth.verifyToken(secret, "PUT", "/api/v2/smart-elements/12", "10.0.0.1")).kind).toBe("out-of-routes");
    clock.advance(59_000);
    expect((await auth.verifyToken(secret, "GET", "/api/v2/smart-elements/12", "10.0.0.1")).kind).toBe("granted");
    clock.advance(1_000);
    expect((await auth.verifyToken(secret, "GET", "/api/v2/smart-elements/12", "10.0.0.1")).kind).toBe("refused");
    expect(await store.tokens.list()).toEqual([]);
  });

  it("takes an expiry date, or never expires with -1 and false", async () => {
    const { platform, clock } = await seededPlatform();
    const dated = await platform.tokens.create("bob", ["/api/v2/*"], { expiration: new Date(clock.now().getTime() + 3_600_000) });
    await platform.tokens.create("bob", ["/api/v2/*"], { expiration: -1 });
    await platform.tokens.create("bob", ["/api/v2/*"], { expiration: false });
    const list = await platform.tokens.list(systemPrincipal());
    expect(list.map((t) => t.expiresAt)).toEqual(["2026-01-01T11:00:02.000Z", null, null]);
    clock.advance(365 * 24 * 3_600_000);
    expect((await platform.tokens.list(systemPrincipal())).map((t) => t.expired)).toEqual([true, false, false]);
    const auth = platform.auth.service({ wait: noWait });
    expect((await auth.verifyToken(dated, "GET", "/api/v2/x", "a")).kind).toBe("refused");
  });

  it("refuses bad expirations, unknown users and bad routes", async () => {
    const { platform, clock, store } = await seededPlatform();
    await expect(platform.tokens.create("bob", ["/api/v2/*"], { expiration: 0 })).rejects.toThrow(/positive number of seconds/);
    await expect(platform.tokens.create("bob", ["/api/v2/*"], { expiration: new Date(clock.now().getTime() - 1) })).rejects.toThrow(/already past/);
    await expect(platform.tokens.create("bob", ["/api/v2/*"], { expiration: Number.MAX_SAFE_INTEGER })).rejects.toMatchObject({ code: "AUTH0410", message: expect.stringMatching(/too far/) });
    await expect(platform.tokens.create("ghost", ["/api/v2/*"])).rejects.toThrow(/no account "ghost"/);
    await expect(platform.tokens.create("bob", [])).rejects.toThrow(expect.objectContaining({ code: "ROUTER0105" }));
    expect(await store.tokens.list()).toEqual([]);
  });

  it("consumes a oneshot token on its first granted use only", async () => {
    const { platform } = await seededPlatform();
    const auth = platform.auth.service({ wait: noWait });
    const secret = await platform.tokens.create("bob", ["GET /api/v2/*"], { expiration: -1, oneshot: true });
    // A use outside its routes does not spend it.
    expect((await auth.verifyToken(secret, "DELETE", "/api/v2/x", "a")).kind).toBe("out-of-routes");
    const uses = await Promise.all([1, 2, 3].map(() => auth.verifyToken(secret, "GET", "/api/v2/x", "a")));
    expect(uses.map((u) => u.kind).sort()).toEqual(["granted", "refused", "refused"]);
  });

  it("lists without secrets and revokes, for administrators only", async () => {
    const { platform, principal } = await seededPlatform();
    const [admin, bob] = [await principal("admin"), await principal("bob")];
    const secret = await platform.tokens.create("bob", ["GET /api/v2/*"], { expiration: -1, oneshot: false, description: "nightly export" });
    const [listed] = await platform.tokens.list(admin);
    expect(listed).toMatchObject({ login: "bob", description: "nightly export", oneshot: false, expired: false });
    expect(Object.keys(listed!)).not.toContain("hash");
    await expect(platform.tokens.list(bob)).rejects.toThrow(expect.objectContaining({ code: "ROUTES0131", status: 403 }));
    await expect(platform.tokens.revoke(bob, listed!.id)).rejects.toThrow(expect.objectContaining({ code: "ROUTES0131" }));
    await platform.tokens.revoke(admin, listed!.id);
    await expect(platform.tokens.revoke(admin, listed!.id)).rejects.toThrow(expect.objectContaining({ code: "AUTH0404", status: 404 }));
    const second = await platform.tokens.create("bob", ["GET /api/v2/*"]);
    await platform.tokens.revoke(admin, second);
    expect(await platform.tokens.list(admin)).toEqual([]);
    expect(secret).not.toBe(second);
  });

  it("runs as the token user's current rights: a later role change applies at once", async () => {
    const { platform, store } = await seededPlatform();
    const auth = platform.auth.service({ wait: noWait });
    const secret = await platform.tokens.create("bob", ["* /api/*"]);
    await store.accounts.saveAccount({ ...(await store.accounts.byLogin("bob"))!, roles: ["editor"] });
    const use = await auth.verifyToken(secret, "GET", "/api/v2/x", "a", await store.changes.read());
    expect(use.kind === "granted" && [...use.principal.roles]).toEqual(["editor"]);
  });
});
