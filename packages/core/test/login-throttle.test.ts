import { describe, expect, it } from "vitest";
import {
  clientKeyOf, createLoginThrottle, createMemoryThrottleStore, throttleKeys,
  type CredentialProvider, type ThrottleDecision, type AuthenticationServiceOptions, type ThrottleEvent, type ThrottleStore,
} from "./internals.ts";
import { throttleStoreContract } from "../src/testing/index.ts";
import { seededPlatform } from "../src/testing/seeded-platform.ts";

const SECOND = 1000;

/** The decision of a store in memory, which must come without waiting. */
function admitNow(throttle: ReturnType<typeof createLoginThrottle>, login: string | undefined, client: string, now: number): ThrottleDecision {
  const decision = throttle.admit(login, client, now);
  if ("then" in decision) throw new Error("an in-memory throttle must decide synchronously");
  return decision;
}

/** Fails `count` times on a login from a client at `now`; answers the delays of the answers. */
async function failMany(throttle: ReturnType<typeof createLoginThrottle>, count: number, login: string | undefined, client: string, now: number) {
  const delays: number[] = [];
  for (let i = 0; i < count; i++) delays.push(await throttle.failed(throttleKeys(login, client), now));
  return delays;
}

describe("throttle keys", () => {
  it("count an attempt under its login (case-insensitive) and its client; a token attempt under its client alone", () => {
    expect(throttleKeys("Alice", "10.0.0.1")).toEqual({ account: "account:alice", client: "client:10.0.0.1" });
    expect(throttleKeys(undefined, "10.0.0.1")).toEqual({ account: undefined, client: "client:10.0.0.1" });
  });

  it("know an IPv6 client by its /64 (it may change addresses within it), and IPv4 written as IPv6 as IPv4", () => {
    expect(clientKeyOf("2001:db8:1:2:3:4:5:6")).toBe("2001:db8:1:2::/64");
    expect(clientKeyOf("2001:DB8:0001:0002:ffff::1")).toBe("2001:db8:1:2::/64");
    expect(clientKeyOf("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(clientKeyOf("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(clientKeyOf("64:ff9b::192.0.2.1")).toBe("64:ff9b:0:0::/64");
    expect(clientKeyOf("::ffff:192.0.2.1")).toBe("192.0.2.1");
    expect(clientKeyOf("192.0.2.1")).toBe("192.0.2.1");
    for (const odd of ["unknown", "1:2:3", "1::2::3", "g::1", "1:2:3:4:5:6:7:8:9"]) expect(clientKeyOf(odd)).toBe(odd);
  });
});

describe("login throttle", () => {
  it("locks a login past its free failures, for every client, for a time that doubles up to the cap", async () => {
    const throttle = createLoginThrottle({ freeFailures: 3, baseLockMs: SECOND, maxLockMs: 4 * SECOND });
    await failMany(throttle, 3, "alice", "10.0.0.9", 0);
    expect(admitNow(throttle, "alice", "10.0.0.9", 0).refused).toBe(false);
    const locks: number[] = [];
    let now = 0;
    for (let i = 0; i < 5; i++) {
      await throttle.failed(throttleKeys("alice", "10.0.0.9"), now);
      const decision = admitNow(throttle, "alice", "192.0.2.1", now);
      if (!decision.refused) throw new Error("not locked");
      expect(decision.reason).toBe("account-locked");
      locks.push(decision.retryAfterMs);
      expect(admitNow(throttle, "alice", "192.0.2.1", now + decision.retryAfterMs - 1).refused).toBe(true);
      now += decision.retryAfterMs;
      expect(admitNow(throttle, "alice", "192.0.2.1", now).refused).toBe(false);
    }
    expect(locks).toEqual([1, 2, 4, 4, 4].map((s) => s * SECOND));
    // Other logins are not touched, from the same client either.
    expect(admitNow(throttle, "bob", "10.0.0.9", 0).refused).toBe(false);
  });

  it("forgets a login's failures after a right password, but never a client's", async () => {
    const throttle = createLoginThrottle({ freeFailures: 1, clientFreeFailures: 1, baseDelayMs: 100 });
    await failMany(throttle, 1, "alice", "10.0.0.9", 0);
    const admitted = admitNow(throttle, "alice", "10.0.0.9", 0);
    expect(admitted).toMatchObject({ refused: false, accountFailures: 1 });
    await throttle.succeeded(admitted);
    expect(admitNow(throttle, "alice", "10.0.0.9", 0)).toMatchObject({ refused: false, accountFailures: 0 });
    // The client's one failure is still there: its next failure waits.
    expect(await throttle.failed(throttleKeys("bob", "10.0.0.9"), 0)).toBe(100);
  });

  it("slows a client's further failures, whatever logins, while its right passwords pass", async () => {
    const throttle = createLoginThrottle({ clientFreeFailures: 2, baseDelayMs: 100, maxDelayMs: 500, clientLimit: 1000 });
    const delays: number[] = [];
    for (const login of ["a", "b", "c", "d", "e", "f", "g"]) delays.push(...(await failMany(throttle, 1, login, "10.0.0.9", 0)));
    expect(delays).toEqual([0, 0, 100, 200, 400, 500, 500]);
    // A login the client has not failed on is admitted at once: the delay only ever follows a failure.
    expect(admitNow(throttle, "zoe", "10.0.0.9", 0).refused).toBe(false);
    // Another client's failures are its own.
    expect(await failMany(throttle, 1, "a", "10.0.0.10", 0)).toEqual([0]);
  });

  it("refuses every attempt of a client past the hard limit, until its failures are forgotten", async () => {
    const windowMs = 60 * SECOND;
    const throttle = createLoginThrottle({ clientLimit: 20, freeFailures: 1000, windowMs });
    for (let i = 0; i < 20; i++) await throttle.failed(throttleKeys(`user${i}`, "10.0.0.9"), 0);
    const blocked = admitNow(throttle, "fresh", "10.0.0.9", 1000);
    expect(blocked).toMatchObject({ refused: true, reason: "client-blocked", retryAfterMs: windowMs - 1000 });
    expect(admitNow(throttle, undefined, "10.0.0.9", 1000).refused).toBe(true);
    expect(admitNow(throttle, "fresh", "10.0.0.10", 1000).refused).toBe(false);
    expect(admitNow(throttle, "fresh", "10.0.0.9", windowMs + 1).refused).toBe(false);
  });

  it("answers with the later end when both the login and the client are held", async () => {
    const throttle = createLoginThrottle({ freeFailures: 0, baseLockMs: 5 * SECOND, clientLimit: 1, windowMs: 60 * SECOND });
    await throttle.failed(throttleKeys("alice", "10.0.0.9"), 0);
    expect(admitNow(throttle, "alice", "10.0.0.9", 0)).toMatchObject({ refused: true, reason: "client-blocked", retryAfterMs: 60 * SECOND });
    expect(admitNow(throttle, "alice", "10.0.0.10", 0)).toMatchObject({ refused: true, reason: "account-locked", retryAfterMs: 5 * SECOND });
  });

  it("forgets failures a window after the last one", async () => {
    const throttle = createLoginThrottle({ freeFailures: 5, windowMs: SECOND });
    await throttle.failed(throttleKeys("alice", "10.0.0.1"), 0);
    await throttle.failed(throttleKeys("alice", "10.0.0.1"), 900);
    expect(admitNow(throttle, "alice", "10.0.0.1", 1000)).toMatchObject({ refused: false, accountFailures: 2 });
    expect(admitNow(throttle, "alice", "10.0.0.1", 1901)).toMatchObject({ refused: false, accountFailures: 0 });
  });

  it("asks nothing of a store for a right password when nothing was counted, and awaits a store held elsewhere", async () => {
    const memory = createMemoryThrottleStore();
    const calls: string[] = [];
    const remote: ThrottleStore = {
      read: (keys, now, windowMs) => { calls.push(`read ${keys.join(" ")}`); return memory.read(keys, now, windowMs); },
      fail: (keys, now, windowMs) => { calls.push(`fail ${keys.join(" ")}`); return memory.fail(keys, now, windowMs); },
      forget: (keys) => { calls.push(`forget ${keys.join(" ")}`); return memory.forget(keys); },
    };
    const local = createLoginThrottle();
    expect(local.succeeded(admitNow(local, "alice", "10.0.0.1", 0))).toBeUndefined();

    const shared = createLoginThrottle({ store: remote });
    const pending = shared.admit("alice", "10.0.0.1", 0);
    expect("then" in pending).toBe(true);
    expect(shared.succeeded(await pending)).toBeUndefined();
    await shared.failed(throttleKeys("alice", "10.0.0.1"), 0);
    await shared.succeeded(await shared.admit("alice", "10.0.0.1", 0));
    expect(calls).toEqual(["read client:10.0.0.1 account:alice", "fail client:10.0.0.1 account:alice", "read client:10.0.0.1 account:alice", "forget account:alice"]);
  });

  it("keeps the default store's memory bounded, dropping the least recently failed keys", async () => {
    const store = createMemoryThrottleStore({ maxEntries: 100 });
    for (let i = 0; i < 1000; i++) await store.fail([`client:${i}`], i, 60_000);
    expect(store.size).toBe(100);
    expect(store.peek(["client:999", "client:0"], 1000, 60_000).map((record) => record?.failures)).toEqual([1, undefined]);
  });
});

throttleStoreContract("memory", async () => createMemoryThrottleStore());

describe("the authentication service under attack", () => {
  /** A service whose waits are recorded rather than slept, and whose throttle events are kept. */
  async function attacked(throttle: AuthenticationServiceOptions["throttle"], providers?: (platform: Awaited<ReturnType<typeof seededPlatform>>["platform"]) => CredentialProvider[]) {
    const seed = await seededPlatform();
    const waited: number[] = [];
    const events: ThrottleEvent[] = [];
    const auth = seed.platform.auth.service({
      throttle, wait: async (ms) => void waited.push(ms), onThrottled: (event) => void events.push(event),
      ...(providers ? { providers: providers(seed.platform) } : {}),
    });
    return { ...seed, auth, waited, events };
  }

  it("never delays a right password of a login not under attack, from an address that failed on others", async () => {
    const { auth, waited } = await attacked({ clientFreeFailures: 2, baseDelayMs: 100 });
    for (const login of ["admin", "bob", "ghost", "nobody", "carol"]) expect(await auth.verifyPassword(login, "wrong", "10.0.0.1")).toBeUndefined();
    expect(waited).toEqual([100, 200, 400]);
    expect((await auth.verifyPassword("alice", "alice-pw", "10.0.0.1"))?.account.login).toBe("alice");
    expect(waited).toEqual([100, 200, 400]);
  });

  it("refuses a locked login with 429 AUTH0429 and the time to wait, right password or not, and says so without the password", async () => {
    const { auth, clock, events } = await attacked({ freeFailures: 2, baseLockMs: 2 * SECOND });
    for (let i = 0; i < 3; i++) expect(await auth.verifyPassword("alice", `guess${i}`, "10.0.0.9")).toBeUndefined();
    const refused = auth.verifyPassword("alice", "alice-pw", "192.0.2.7");
    await expect(refused).rejects.toMatchObject({ code: "AUTH0429", status: 429, data: { retryAfter: 2 } });
    expect(events).toEqual([{ reason: "account-locked", login: "alice", clientAddress: "192.0.2.7", waitMs: 2 * SECOND }]);
    expect(JSON.stringify(events)).not.toMatch(/alice-pw|guess/);
    clock.advance(2 * SECOND);
    expect((await auth.verifyPassword("alice", "alice-pw", "192.0.2.7"))?.account.login).toBe("alice");
    // The right password forgave the login: the next failure is a free one again.
    expect(await auth.verifyPassword("alice", "wrong", "10.0.0.9")).toBeUndefined();
    expect((await auth.verifyPassword("alice", "alice-pw", "192.0.2.7"))?.account.login).toBe("alice");
  });

  it("lets a burst of guesses checked side by side learn no more once their failures lock the login", async () => {
    // A provider that answers only when told, so that every guess is admitted before any fails.
    const release: Array<() => void> = [];
    const slow: CredentialProvider = {
      id: "slow",
      validateCredential: (login, password) => new Promise((resolve) => {
        release.push(() => resolve(password === "right" ? { login } : undefined));
      }),
    };
    const { auth } = await attacked({ freeFailures: 2, clientFreeFailures: 1000 }, () => [slow]);
    const guesses = ["g1", "g2", "g3", "g4", "g5", "right"].map((password) =>
      auth.verifyPassword("alice", password, "10.0.0.9").then((principal) => (principal ? "granted" : "refused"), (error: { code?: string }) => error.code));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(release).toHaveLength(6);
    for (const answer of release) {
      answer();
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    // The third failure locks alice: the guesses checked after it, the right one too, are refused alike.
    expect(await Promise.all(guesses)).toEqual(["refused", "refused", "refused", "AUTH0429", "AUTH0429", "AUTH0429"]);
  });

  it("counts failed tokens against the client only, and refuses a blocked client's tokens", async () => {
    const { auth, events } = await attacked({ clientLimit: 3, clientFreeFailures: 1000 });
    for (let i = 0; i < 3; i++) expect(await auth.verifyToken(`forged${i}`, "GET", "/api/v2/smart-elements/", "10.0.0.9")).toEqual({ kind: "refused" });
    await expect(auth.verifyToken("another", "GET", "/api/v2/smart-elements/", "10.0.0.9")).rejects.toMatchObject({ code: "AUTH0429" });
    await expect(auth.verifyPassword("alice", "alice-pw", "10.0.0.9")).rejects.toMatchObject({ code: "AUTH0429" });
    expect(events.map((event) => [event.reason, event.login])).toEqual([["client-blocked", undefined], ["client-blocked", "alice"]]);
    expect((await auth.verifyPassword("alice", "alice-pw", "10.0.0.10"))?.account.login).toBe("alice");
  });
});
