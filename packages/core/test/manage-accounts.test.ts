import { describe, expect, it } from "vitest";
import { accountProblems } from "./internals.ts";
import { seededPlatform } from "../src/testing/seeded-platform.ts";

const noThrottle = { throttle: { freeFailures: 1000, clientFreeFailures: 1000 } };

describe("account values, checked as a bundle's user entry", () => {
  it("refuses unknown roles and groups, bad locales, logins and rights, naming the key", async () => {
    const { platform, store } = await seededPlatform();
    expect(await accountProblems(store, { login: "dora", roles: ["editor", "admin"], groups: ["newsroom"], locale: "pt-BR", rights: ["GET"] })).toEqual([]);
    expect(await accountProblems(store, { login: "dora", roles: ["editor", "nosuch"] })).toEqual([{ path: "roles[1]", message: 'unknown role "nosuch"' }]);
    expect(await accountProblems(store, { login: "dora", groups: ["ghosts"] })).toEqual([{ path: "groups[0]", message: 'unknown group "ghosts"' }]);
    expect((await accountProblems(store, { login: "dora", locale: "bad locale!" }))[0]?.path).toBe("locale");
    expect((await accountProblems(store, { login: "bad login" }))[0]?.path).toBe("login");
    expect((await accountProblems(store, { login: "dora", rights: ["FLY" as never] }))[0]?.path).toBe("rights[0]");
    expect((await accountProblems(store, { login: "dora", password: "" }))[0]?.path).toBe("password");
    await expect(platform.accounts.add({ login: "dora", roles: ["nosuch"] })).rejects.toMatchObject({ code: "ACCOUNT0002", message: 'Invalid account: roles[0]: unknown role "nosuch"' });
    expect(await store.accounts.byLogin("dora")).toBeUndefined();
  });
});

describe("a disabled account", () => {
  it("logs in by no method: password, its sessions (ended), its tokens; enabled again, it does", async () => {
    const { platform, store, principal } = await seededPlatform();
    const auth = platform.auth.service({ ...noThrottle });
    const { secret: session } = await auth.openSession(await principal("bob"));
    const token = await platform.tokens.create("bob", ["GET /api/v2/*"]);
    expect(await auth.verifyPassword("bob", "bob-pw", "10.0.0.1")).toBeDefined();

    const { sessionsEnded } = await platform.accounts.setDisabled("bob", true);
    expect(sessionsEnded).toBe(1);
    expect(await platform.accounts.authenticate("bob", "bob-pw")).toBeUndefined();
    expect(await auth.verifyPassword("bob", "bob-pw", "10.0.0.1")).toBeUndefined();
    expect(await platform.accounts.principal("bob")).toBeUndefined();
    expect(await auth.resumeSession(session)).toBeUndefined();
    expect(await auth.verifyToken(token, "GET", "/api/v2/smart-elements/", "10.0.0.1")).toEqual({ kind: "refused" });
    await expect(platform.tokens.create("bob", ["GET /api/v2/*"])).rejects.toMatchObject({ code: "AUTH0410" });
    expect((await store.accounts.byLogin("bob"))?.disabled).toBe(true);

    await platform.accounts.setDisabled("bob", false);
    expect(await auth.verifyPassword("bob", "bob-pw", "10.0.0.1")).toBeDefined();
    expect((await auth.verifyToken(token, "GET", "/api/v2/smart-elements/", "10.0.0.1")).kind).toBe("granted");
  });

  it("can be created disabled", async () => {
    const { platform } = await seededPlatform();
    await platform.accounts.add({ login: "dora", password: "dora-pw", disabled: true });
    expect(await platform.accounts.authenticate("dora", "dora-pw")).toBeUndefined();
  });
});

describe("password changes and removals", () => {
  it("sets a new password and ends the account's sessions", async () => {
    const { platform, principal } = await seededPlatform();
    const auth = platform.auth.service({ ...noThrottle });
    const { secret } = await auth.openSession(await principal("alice"));
    expect((await platform.accounts.setPassword("alice", "new-pw")).sessionsEnded).toBe(1);
    expect(await auth.resumeSession(secret)).toBeUndefined();
    expect(await platform.accounts.authenticate("alice", "alice-pw")).toBeUndefined();
    expect(await platform.accounts.authenticate("alice", "new-pw")).toBeDefined();
    await expect(platform.accounts.setPassword("alice", "")).rejects.toMatchObject({ code: "ACCOUNT0002" });
    await expect(platform.accounts.setPassword("ghost", "pw")).rejects.toMatchObject({ code: "ACCOUNT0003" });
  });

  it("refuses to remove an account that owns elements, saying how many", async () => {
    const { platform, store } = await seededPlatform();
    const admin = (await store.accounts.byLogin("admin"))!;
    const owned = await store.elements.countOwnedBy(admin.id);
    expect(owned).toBeGreaterThan(0);
    await expect(platform.accounts.remove("admin")).rejects.toMatchObject({ code: "ACCOUNT0004", status: 409, message: `Account "admin" owns ${owned} element(s): it cannot be removed (disable it instead)` });
    expect(await store.accounts.byLogin("admin")).toBeDefined();
  });

  it("removes an account with its sessions and tokens; the login may come back as a new account", async () => {
    const { platform, store, principal } = await seededPlatform();
    const auth = platform.auth.service({ ...noThrottle });
    const { secret } = await auth.openSession(await principal("carol"));
    const token = await platform.tokens.create("carol", ["GET /api/v2/*"]);
    await platform.tokens.create("bob", ["GET /api/v2/*"]);
    const carol = (await store.accounts.byLogin("carol"))!;
    expect(await platform.accounts.remove("carol")).toEqual({ account: carol, sessionsEnded: 1, tokensRevoked: 1, owned: 0 });
    expect(await store.accounts.byLogin("carol")).toBeUndefined();
    expect(await auth.resumeSession(secret)).toBeUndefined();
    expect(await auth.verifyToken(token, "GET", "/api/v2/smart-elements/", "10.0.0.1")).toEqual({ kind: "refused" });
    expect((await store.tokens.list()).map((t) => t.accountId)).toEqual([(await store.accounts.byLogin("bob"))!.id]);
    expect((await platform.accounts.list()).map((a) => a.login)).toEqual(["admin", "alice", "bob"]);
    await expect(platform.accounts.remove("carol")).rejects.toMatchObject({ code: "ACCOUNT0003" });
    expect((await platform.accounts.add({ login: "carol", password: "again" })).id).toBeGreaterThan(carol.id);
  });
});
