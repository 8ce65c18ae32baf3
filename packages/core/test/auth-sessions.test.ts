import { describe, expect, it } from "vitest";
import { secretHash } from "./internals.ts";
import { seededPlatform } from "../src/testing/seeded-platform.ts";

describe("sessions (fake clock)", () => {
  const policy = { idleSeconds: 600, absoluteSeconds: 1800 };

  it("stores only the hash of the cookie value and resumes as the account", async () => {
    const { platform, store, principal } = await seededPlatform();
    const auth = platform.auth.service({ sessionPolicy: policy });
    const { secret, session } = await auth.openSession(await principal("alice"));
    expect(session.id).toBe(secretHash(secret));
    expect(await store.sessions.byId(secret)).toBeUndefined();
    expect((await auth.resumeSession(secret))?.principal.account.login).toBe("alice");
    expect(await auth.resumeSession(`${secret}x`)).toBeUndefined();
  });

  it("expires when idle, is renewed by use, and never outlives its absolute limit", async () => {
    const { platform, clock, principal } = await seededPlatform();
    const auth = platform.auth.service({ sessionPolicy: policy });
    const alice = await principal("alice");
    const idle = (await auth.openSession(alice)).secret;
    clock.advance(600_000);
    expect(await auth.resumeSession(idle)).toBeUndefined();

    const used = (await auth.openSession(alice)).secret;
    const first = (await auth.resumeSession(used))!.session.expiresAt;
    clock.advance(200_000);
    // Less than half the idle life gone: nothing to write yet.
    expect((await auth.resumeSession(used))!.session.expiresAt).toBe(first);
    clock.advance(200_000);
    expect((await auth.resumeSession(used))!.session.expiresAt > first).toBe(true);
    for (let i = 0; i < 3; i++) {
      clock.advance(400_000);
      expect(await auth.resumeSession(used)).toBeDefined();
    }
    clock.advance(200_000);
    expect(await auth.resumeSession(used)).toBeUndefined();
  });

  it("ends on logout", async () => {
    const { platform, principal } = await seededPlatform();
    const auth = platform.auth.service();
    const { secret } = await auth.openSession(await principal("bob"));
    await auth.closeSession(secret);
    expect(await auth.resumeSession(secret)).toBeUndefined();
  });

  it("resumes as the account's current principal at the request's stamp", async () => {
    const { platform, store, principal } = await seededPlatform();
    const auth = platform.auth.service();
    const { secret } = await auth.openSession(await principal("bob"));
    const bob = (await store.accounts.byLogin("bob"))!;
    await store.accounts.saveAccount({ ...bob, roles: ["editor"] });
    const resumed = await auth.resumeSession(secret, await store.changes.read());
    expect([...(resumed?.principal.roles ?? [])]).toEqual(["editor"]);
  });
});
