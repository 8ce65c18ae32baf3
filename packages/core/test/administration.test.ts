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
