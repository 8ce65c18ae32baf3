import { describe, expect, it } from "vitest";
import { createAuthenticationService, secretHash } from "../src/index.ts";
import { seededPlatform } from "./fixture.ts";

describe("sessions (fake clock)", () => {
  const policy = { idleSeconds: 600, absoluteSeconds: 1800 };

  it("stores only the hash of the cookie value and resumes as the account", async () => {
    const { platform, store, principal } = await seededPlatform();
    const auth = createAuthenticationService({ platform, sessionPolicy: policy });
    const { secret, session } = auth.openSession(principal("alice"));
    expect(session.id).toBe(secretHash(secret));
    expect(store.sessions.byId(secret)).toBeUndefined();
    expect(auth.resumeSession(secret)?.principal.account.login).toBe("alice");
    expect(auth.resumeSession(`${secret}x`)).toBeUndefined();
  });

  it("expires when idle, is renewed by use, and never outlives its absolute limit", async () => {
    const { platform, clock, principal } = await seededPlatform();
    const auth = createAuthenticationService({ platform, sessionPolicy: policy });
    const idle = auth.openSession(principal("alice")).secret;
    clock.advance(600_000);
    expect(auth.resumeSession(idle)).toBeUndefined();

    const used = auth.openSession(principal("alice")).secret;
    const first = auth.resumeSession(used)!.session.expiresAt;
    clock.advance(200_000);
    // Less than half the idle life gone: nothing to write yet.
    expect(auth.resumeSession(used)!.session.expiresAt).toBe(first);
    clock.advance(200_000);
    expect(auth.resumeSession(used)!.session.expiresAt > first).toBe(true);
    for (let i = 0; i < 3; i++) {
      clock.advance(400_000);
      expect(auth.resumeSession(used)).toBeDefined();
    }
    clock.advance(200_000);
    expect(auth.resumeSession(used)).toBeUndefined();
  });

  it("ends on logout", async () => {
    const { platform, principal } = await seededPlatform();
    const auth = createAuthenticationService({ platform });
    const { secret } = auth.openSession(principal("bob"));
    auth.closeSession(secret);
    expect(auth.resumeSession(secret)).toBeUndefined();
  });
});
