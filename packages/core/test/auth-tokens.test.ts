import { describe, expect, it } from "vitest";
import { createAuthenticationService, secretHash, systemPrincipal } from "../src/index.ts";
import { seededPlatform } from "./fixture.ts";

const noWait = async () => {};

describe("access tokens (fake clock)", () => {
  it("creates a 40-hex token stored only as its hash", async () => {
    const { platform, store } = await seededPlatform();
    const secret = platform.getAuthorizationToken("bob", ["GET /api/v2/*"], 60, false, "ci");
    expect(secret).toMatch(/^[0-9a-f]{40}$/);
    const [stored] = store.tokens.list();
    expect(stored).toMatchObject({ hash: secretHash(secret), oneshot: false, description: "ci", routes: [{ pattern: "/api/v2/*", methods: ["GET"] }] });
    expect(JSON.stringify(store.tokens.list())).not.toContain(secret);
  });

  it("grants its routes as its user, until it expires", async () => {
    const { platform, clock } = await seededPlatform();
    const auth = createAuthenticationService({ platform, wait: noWait });
    const secret = platform.getAuthorizationToken(platform.store.accounts.byLogin("bob")!, [{ pattern: "/api/v2/smart-elements/{id}", methods: ["GET"] }], 60);
    const granted = await auth.verifyToken(secret, "GET", "/api/v2/smart-elements/12", "10.0.0.1");
    expect(granted.kind === "granted" && granted.principal.account.login).toBe("bob");
    expect((await auth.verifyToken(secret, "PUT", "/api/v2/smart-elements/12", "10.0.0.1")).kind).toBe("out-of-routes");
    clock.advance(59_000);
    expect((await auth.verifyToken(secret, "GET", "/api/v2/smart-elements/12", "10.0.0.1")).kind).toBe("granted");
    clock.advance(1_000);
    expect((await auth.verifyToken(secret, "GET", "/api/v2/smart-elements/12", "10.0.0.1")).kind).toBe("refused");
    expect(platform.store.tokens.list()).toEqual([]);
  });

  it("takes an expiry date, or never expires with -1 and false", async () => {
    const { platform, clock } = await seededPlatform();
    const dated = platform.getAuthorizationToken("bob", ["/api/v2/*"], new Date(clock.now().getTime() + 3_600_000));
    platform.getAuthorizationToken("bob", ["/api/v2/*"], -1);
    platform.getAuthorizationToken("bob", ["/api/v2/*"], false);
    const list = platform.listAuthorizationTokens(systemPrincipal());
    expect(list.map((t) => t.expiresAt)).toEqual(["2026-01-01T11:00:02.000Z", null, null]);
    clock.advance(365 * 24 * 3_600_000);
    expect(platform.listAuthorizationTokens(systemPrincipal()).map((t) => t.expired)).toEqual([true, false, false]);
    const auth = createAuthenticationService({ platform, wait: noWait });
    expect((await auth.verifyToken(dated, "GET", "/api/v2/x", "a")).kind).toBe("refused");
  });

  it("refuses bad expirations, unknown users and bad routes", async () => {
    const { platform, clock } = await seededPlatform();
    expect(() => platform.getAuthorizationToken("bob", ["/api/v2/*"], 0)).toThrow(/positive number of seconds/);
    expect(() => platform.getAuthorizationToken("bob", ["/api/v2/*"], new Date(clock.now().getTime() - 1))).toThrow(/already past/);
    expect(() => platform.getAuthorizationToken("ghost", ["/api/v2/*"])).toThrow(/no account "ghost"/);
    expect(() => platform.getAuthorizationToken("bob", [])).toThrow(expect.objectContaining({ code: "ROUTER0105" }));
  });

  it("consumes a oneshot token on its first granted use only", async () => {
    const { platform } = await seededPlatform();
    const auth = createAuthenticationService({ platform, wait: noWait });
    const secret = platform.getAuthorizationToken("bob", ["GET /api/v2/*"], -1, true);
    // A use outside its routes does not spend it.
    expect((await auth.verifyToken(secret, "DELETE", "/api/v2/x", "a")).kind).toBe("out-of-routes");
    const uses = await Promise.all([1, 2, 3].map(() => auth.verifyToken(secret, "GET", "/api/v2/x", "a")));
    expect(uses.map((u) => u.kind).sort()).toEqual(["granted", "refused", "refused"]);
  });

  it("lists without secrets and revokes, for administrators only", async () => {
    const { platform, principal } = await seededPlatform();
    const secret = platform.getAuthorizationToken("bob", ["GET /api/v2/*"], -1, false, "nightly export");
    const [listed] = platform.listAuthorizationTokens(principal("admin"));
    expect(listed).toMatchObject({ login: "bob", description: "nightly export", oneshot: false, expired: false });
    expect(Object.keys(listed!)).not.toContain("hash");
    expect(() => platform.listAuthorizationTokens(principal("bob"))).toThrow(expect.objectContaining({ code: "ROUTES0131", status: 403 }));
    expect(() => platform.revokeAuthorizationToken(principal("bob"), listed!.id)).toThrow(expect.objectContaining({ code: "ROUTES0131" }));
    platform.revokeAuthorizationToken(principal("admin"), listed!.id);
    expect(() => platform.revokeAuthorizationToken(principal("admin"), listed!.id)).toThrow(expect.objectContaining({ code: "AUTH0404", status: 404 }));
    const second = platform.getAuthorizationToken("bob", ["GET /api/v2/*"]);
    platform.revokeAuthorizationToken(principal("admin"), second);
    expect(platform.listAuthorizationTokens(principal("admin"))).toEqual([]);
    expect(secret).not.toBe(second);
  });

  it("runs as the token user's current rights: a later role change applies at once", async () => {
    const { platform, store } = await seededPlatform();
    const auth = createAuthenticationService({ platform, wait: noWait });
    const secret = platform.getAuthorizationToken("bob", ["* /api/*"]);
    store.accounts.saveAccount({ ...store.accounts.byLogin("bob")!, roles: ["editor"] });
    const use = await auth.verifyToken(secret, "GET", "/api/v2/x", "a");
    expect(use.kind === "granted" && [...use.principal.roles]).toEqual(["editor"]);
  });
});
