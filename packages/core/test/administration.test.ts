import { describe, expect, it } from "vitest";
import { issueAccessToken, listAccountsAs, secretHash } from "./internals.ts";
import { seededPlatform } from "../src/testing/seeded-platform.ts";

describe("administration by a person", () => {
  it("lists the accounts with their roles and groups for an administrator only", async () => {
    const { store, principal } = await seededPlatform();
    const accounts = await listAccountsAs(store, await principal("admin"));
    expect(accounts.map((account) => [account.login, account.roles, account.groups])).toEqual([
      ["admin", ["admin"], []], ["alice", [], ["newsroom"]], ["bob", ["reader"], []], ["carol", [], []],
    ]);
    await expect(listAccountsAs(store, await principal("alice"))).rejects.toMatchObject({ code: "ROUTES0131", status: 403 });
  });

  it("issues a token for an administrator only, its secret stored hashed", async () => {
    const { store, clock, principal } = await seededPlatform();
    const secret = await issueAccessToken(store, clock, await principal("admin"), { login: "bob", routes: ["GET /api/v2/*"], expiration: 60, description: "report" });
    const [stored] = await store.tokens.list();
    expect(stored).toMatchObject({ hash: secretHash(secret), description: "report", expiresAt: "2026-01-01T10:01:02.000Z" });
    await expect(issueAccessToken(store, clock, await principal("bob"), { login: "bob", routes: ["GET /api/v2/*"] })).rejects.toMatchObject({ code: "ROUTES0131" });
    expect(await store.tokens.list()).toHaveLength(1);
  });
});

describe("accounts administered by a person", () => {
  it("adds, edits, disables, enables and resets an account for an administrator only", async () => {
    const { platform, principal } = await seededPlatform();
    const admin = await principal("admin");
    const added = await platform.accounts.addAs(admin, { login: "dora", password: "dora-pw", displayName: "Dora", roles: ["reader"], locale: "fr" });
    expect(added).toMatchObject({ login: "dora", displayName: "Dora", roles: ["reader"], groups: [], locale: "fr", disabled: false });
    expect(await platform.accounts.authenticate("dora", "dora-pw")).toBeDefined();

    const edited = await platform.accounts.editAs(admin, "dora", { displayName: "Dora Maar", roles: ["editor"], groups: ["newsroom"], locale: "en" });
    expect(edited).toMatchObject({ id: added.id, displayName: "Dora Maar", roles: ["editor"], groups: ["newsroom"], locale: "en" });
    expect([...(await platform.accounts.principal("dora"))!.roles].sort()).toEqual(["editor"]);
    // Undefined keys stay as they are.
    expect(await platform.accounts.editAs(admin, "dora", { roles: [] })).toMatchObject({ displayName: "Dora Maar", roles: [], groups: ["newsroom"] });

    expect((await platform.accounts.setDisabledAs(admin, "dora", true)).account.disabled).toBe(true);
    expect(await platform.accounts.authenticate("dora", "dora-pw")).toBeUndefined();
    await platform.accounts.setDisabledAs(admin, "dora", false);
    await platform.accounts.setPasswordAs(admin, "dora", "new-pw");
    expect(await platform.accounts.authenticate("dora", "dora-pw")).toBeUndefined();
    expect(await platform.accounts.authenticate("dora", "new-pw")).toBeDefined();
    expect((await platform.accounts.membershipsAs(admin)).groups.map((group) => group.id)).toEqual(["newsroom"]);
    expect((await platform.accounts.readAs(admin, "dora")).displayName).toBe("Dora Maar");

    const alice = await principal("alice");
    for (const refused of [
      platform.accounts.addAs(alice, { login: "eve" }), platform.accounts.editAs(alice, "dora", { roles: ["admin"] }),
      platform.accounts.setDisabledAs(alice, "dora", true), platform.accounts.setPasswordAs(alice, "dora", "x"),
      platform.accounts.membershipsAs(alice), platform.accounts.readAs(alice, "dora"),
    ]) await expect(refused).rejects.toMatchObject({ code: "ROUTES0131", status: 403 });
    expect(await platform.accounts.find("eve")).toBeUndefined();
    expect((await platform.accounts.find("dora"))?.roles).toEqual([]);
  });

  it("refuses unknown roles and groups, an unknown login, and an administrator locking themselves out", async () => {
    const { platform, principal } = await seededPlatform();
    const admin = await principal("admin");
    await expect(platform.accounts.editAs(admin, "bob", { groups: ["ghosts"] })).rejects.toMatchObject({ code: "ACCOUNT0002", data: { problems: [{ path: "groups[0]" }] } });
    await expect(platform.accounts.editAs(admin, "nobody", { roles: [] })).rejects.toMatchObject({ code: "ACCOUNT0003", status: 404 });
    await expect(platform.accounts.editAs(admin, "bob", { displayName: " " })).rejects.toMatchObject({ code: "ACCOUNT0002", data: { problems: [{ path: "displayName" }] } });
    await expect(platform.accounts.editAs(admin, "admin", { roles: ["editor"] })).rejects.toMatchObject({ code: "ACCOUNT0002", data: { problems: [{ path: "roles" }] } });
    await expect(platform.accounts.setDisabledAs(admin, "admin", true)).rejects.toMatchObject({ code: "ACCOUNT0002", data: { problems: [{ path: "disabled" }] } });
    await expect(platform.accounts.addAs(admin, { login: "bob" })).rejects.toMatchObject({ code: "ACCOUNT0001" });
    expect(await platform.accounts.find("admin")).toMatchObject({ roles: ["admin"], disabled: false });
    expect((await platform.accounts.find("bob"))?.groups).toEqual([]);
  });

  it("deletes an account keeping the elements it owns, never the administrator's own nor the last administrator", async () => {
    const { platform, principal } = await seededPlatform();
    const admin = await principal("admin");
    const alice = await principal("alice");
    const owned = [
      await platform.elements.createByApi(alice, "ARTICLE", { values: { ar_title: "Alice's first" } }),
      await platform.elements.createByApi(alice, "ARTICLE", { values: { ar_title: "Alice's second" } }),
    ];
    await expect(platform.accounts.remove("alice")).rejects.toMatchObject({ code: "ACCOUNT0004" });
    await expect(platform.accounts.removeAs(await principal("bob"), "alice")).rejects.toMatchObject({ code: "ROUTES0131" });

    const removed = await platform.accounts.removeAs(admin, "alice");
    expect(removed).toMatchObject({ account: { login: "alice" }, owned: owned.length });
    expect(await platform.accounts.find("alice")).toBeUndefined();
    expect(await platform.accounts.authenticate("alice", "alice-pw")).toBeUndefined();
    // Her elements stay, for whoever may view them.
    for (const created of owned) await expect(platform.elements.read(admin, String(created.revision.initid))).resolves.toBeDefined();

    await expect(platform.accounts.removeAs(admin, "admin")).rejects.toMatchObject({ code: "ACCOUNT0002", data: { problems: [{ path: "remove" }] } });
    await expect(platform.accounts.removeAs(admin, "nobody")).rejects.toMatchObject({ code: "ACCOUNT0003" });
    // Another administrator may go while one stays enabled; not the last one.
    await platform.accounts.addAs(admin, { login: "dora", password: "dora-pw", roles: ["admin"] });
    await platform.accounts.addAs(admin, { login: "eve", password: "eve-pw", roles: ["admin"] });
    await platform.accounts.removeAs(admin, "eve");
    await platform.accounts.setDisabled("admin", true);
    await expect(platform.accounts.removeAs(admin, "dora")).rejects.toMatchObject({ code: "ACCOUNT0002", data: { problems: [{ path: "remove", message: "you cannot delete the last administrator" }] } });
    expect(await platform.accounts.find("dora")).toBeDefined();
  });
});
