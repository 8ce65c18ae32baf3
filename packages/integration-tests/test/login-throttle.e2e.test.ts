import { createMemoryThrottleStore } from "@lineage/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seededPlatform } from "@lineage/core/testing";
import { createRequestLogger } from "@lineage/adapter-http";
import type { AlternatingProxy } from "../src/alternating-proxy.ts";
import { getFrom, startForwardingProxy, type TimedAnswer } from "../src/forwarding-proxy.ts";
import { startLiveServer, type LiveServer } from "../src/live-server.ts";
import { documentedFetch } from "../src/openapi-answers.ts";
import { E2E_STORE } from "../src/test-stores.ts";

type Seed = Awaited<ReturnType<typeof seededPlatform>>;

const ATTACKER = "127.0.0.2";
const COLLEAGUE = "127.0.0.3";
const ELEMENT = "/api/v2/smart-elements/ART_HELLO.json";
/** Well below any delay the throttle imposes here (2 s and more), well above a plain answer on a busy machine. */
const UNDELAYED_MS = 1500;

const basic = (login: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${login}:${password}`).toString("base64")}` });
const code = (answer: TimedAnswer) => answer.json?.messages?.[0]?.code as string | undefined;

/**
 * Two clients behind one reverse proxy: an attacker guessing passwords and a colleague working
 * with her own account. The server trusts the proxy (127.0.0.1) and knows each by the address
 * the proxy forwards; the nodes count failures in one store (shared by both nodes on PostgreSQL).
 */
describe("brute force behind a trusted reverse proxy", () => {
  let live: LiveServer<Seed>;
  let proxy: AlternatingProxy;
  const warnings: Array<Record<string, unknown>> = [];
  const rawWarnings: string[] = [];
  const through = (from: string, headers: Record<string, string>) => getFrom(from, `${proxy.url}${ELEMENT}`, headers);

  beforeAll(async () => {
    const logger = createRequestLogger({
      level: "warn",
      destination: { write: (line: string) => void (rawWarnings.push(line), warnings.push(JSON.parse(line) as Record<string, unknown>)) },
    });
    live = await startLiveServer(seededPlatform, {
      logger,
      auth: {
        trustedProxies: ["127.0.0.1"],
        throttle: {
          store: createMemoryThrottleStore(),
          freeFailures: 3, baseLockMs: 60_000,
          clientFreeFailures: 6, baseDelayMs: 2000, maxDelayMs: 5000, clientLimit: 7,
        },
      },
    });
    proxy = await startForwardingProxy(live.url);
  });
  afterAll(async () => {
    await proxy?.close();
    await live?.close();
  });

  it("slows the attacked login and the attacker, never the colleague, and says so", async () => {
    const colleague = async () => {
      const answer = await through(COLLEAGUE, basic("bob", "bob-pw"));
      expect(answer.status).toBe(200);
      expect(answer.ms).toBeLessThan(UNDELAYED_MS);
    };

    // Four wrong passwords for alice: answered at once, and the fourth locks her login.
    for (let i = 0; i < 4; i++) {
      const guess = await through(ATTACKER, basic("alice", `guess-${i}`));
      expect([guess.status, code(guess)]).toEqual([401, "AUTH0401"]);
      expect(guess.ms).toBeLessThan(UNDELAYED_MS);
      await colleague();
    }
    // Alice is locked, for every client: the answer says so and when to come back, and checks no password.
    const locked = await through(ATTACKER, basic("alice", "alice-pw"));
    expect([locked.status, code(locked)]).toEqual([429, "AUTH0429"]);
    expect(locked.json).toMatchObject({ success: false, data: null, messages: [{ type: "error", code: "AUTH0429", data: { retryAfter: 60 } }] });
    expect(locked.headers["retry-after"]).toBe("60");
    const owner = await through(COLLEAGUE, basic("alice", "alice-pw"));
    expect([owner.status, owner.headers["retry-after"]]).toEqual([429, "60"]);
    await colleague();

    // The attacker tries other logins, forging X-Forwarded-For to look like new clients: the proxy
    // appends the real address, which is what counts. Its two free failures left cost nothing...
    for (const [login, forged] of [["carol", "10.0.0.1"], ["admin", "10.0.0.2"]] as const) {
      const guess = await through(ATTACKER, { ...basic(login, "guess"), "x-forwarded-for": forged });
      expect([guess.status, guess.ms < UNDELAYED_MS]).toEqual([401, true]);
    }
    // ... and the address that failed six times still gets a right password for bob answered at once:
    // only failures are slowed.
    const ownAccount = await through(ATTACKER, basic("bob", "bob-pw"));
    expect([ownAccount.status, ownAccount.ms < UNDELAYED_MS]).toEqual([200, true]);
    // The seventh failure is answered two seconds late, and reaches the hard limit.
    const slowed = await through(ATTACKER, { ...basic("ghost", "guess"), "x-forwarded-for": "10.0.0.3" });
    expect(slowed.status).toBe(401);
    expect(slowed.ms).toBeGreaterThanOrEqual(2000);
    // From now on every attempt from the attacker's address is refused unchecked, a right password too.
    const blocked = await through(ATTACKER, { ...basic("bob", "bob-pw"), "x-forwarded-for": "10.0.0.4" });
    expect([blocked.status, code(blocked), blocked.headers["retry-after"]]).toEqual([429, "AUTH0429", String(15 * 60)]);
    await colleague();

    // The lock ends by itself (the platform's clock is moved past it): alice works again.
    live.seed.clock.advance(60_000);
    const back = await through(COLLEAGUE, basic("alice", "alice-pw"));
    expect(back.status).toBe(200);

    // Every refusal and every slowed failure was logged as a warning: login and client address, never a password.
    expect(warnings.map(({ reason, login, clientAddress }) => [reason, login, clientAddress])).toEqual([
      ["account-locked", "alice", ATTACKER],
      ["account-locked", "alice", COLLEAGUE],
      ["failure-delayed", "ghost", ATTACKER],
      ["client-blocked", "bob", ATTACKER],
    ]);
    expect(warnings.every((line) => line.level === 40 && line.msg === "authentication throttled")).toBe(true);
    expect(rawWarnings.join("")).not.toMatch(/guess|alice-pw|bob-pw/);
  });

  it("believes X-Forwarded-For only from the trusted proxy", async () => {
    // Straight to the node from another address, not through the proxy: the forged header is not believed.
    const direct = (password: string) => getFrom("127.0.0.4", `${live.nodeUrl}${ELEMENT}`, { ...basic("ghost", password), "x-forwarded-for": COLLEAGUE });
    // ghost failed once through the proxy; three more failures lock it.
    for (let i = 0; i < 3; i++) expect((await direct(`guess-${i}`)).status).toBe(401);
    expect((await direct("guess")).status).toBe(429);
    expect(warnings.at(-1)).toMatchObject({ reason: "account-locked", login: "ghost", clientAddress: "127.0.0.4" });
  });
});

describe("brute force behind a proxy nobody said to trust", () => {
  it("counts every client as the proxy, and says once how to fix it", async () => {
    const lines: Array<Record<string, unknown>> = [];
    const logger = createRequestLogger({ level: "warn", destination: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) } });
    const live = await startLiveServer(seededPlatform, { logger, auth: { throttle: { store: createMemoryThrottleStore(), freeFailures: 0, baseLockMs: 60_000 } } });
    const proxy = await startForwardingProxy(live.url);
    try {
      expect((await getFrom(ATTACKER, `${proxy.url}${ELEMENT}`, basic("alice", "guess"))).status).toBe(401);
      for (let i = 0; i < 3; i++) expect((await getFrom(COLLEAGUE, `${proxy.url}${ELEMENT}`, basic("alice", "alice-pw"))).status).toBe(429);
      const locked = lines.filter((line) => line.reason === "account-locked");
      expect(locked.map((line) => line.clientAddress)).toEqual(["127.0.0.1", "127.0.0.1", "127.0.0.1"]);
      // Once per node (the requests alternate between two nodes on PostgreSQL).
      const hints = lines.filter((line) => line.reason === "untrusted-proxy");
      expect(hints).toHaveLength(E2E_STORE === "postgres" ? 2 : 1);
      expect(hints[0]?.msg).toMatch(/trustedProxies is not set/);

      // The login form says so too, with the form again.
      const form = await documentedFetch(`${proxy.url}/login`);
      const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? "";
      const cookie = form.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ");
      const posted = await documentedFetch(`${proxy.url}/login`, {
        method: "POST", redirect: "manual", headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ login: "alice", password: "alice-pw", csrf }).toString(),
      });
      expect([posted.status, posted.headers.get("retry-after")]).toEqual([429, "60"]);
      expect(await posted.text()).toContain("Too many failed attempts. Please try again in 60 s.");
      // And a page outside /api/ asked for with Basic.
      const home = await getFrom(COLLEAGUE, `${proxy.url}/`, { ...basic("alice", "alice-pw"), accept: "text/html" });
      expect([home.status, home.headers["retry-after"], home.headers["content-type"]]).toEqual([429, "60", expect.stringMatching(/^text\/html/)]);
    } finally {
      await proxy.close();
      await live.close();
    }
  });
});
