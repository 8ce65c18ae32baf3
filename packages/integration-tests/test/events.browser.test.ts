import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHttpApp, startServer, type RunningServer } from "@lineage/adapter-http";
import { lifecyclePlatform } from "@lineage/core/testing";
import { startAlternatingProxy, type AlternatingProxy } from "../src/alternating-proxy.ts";
import { openSharedStores, type SharedStores } from "../src/test-stores.ts";

// A browser's own EventSource on the live stream (docs/events.md), logged in with the form's
// session, behind a load balancer in front of two nodes: changes show as they commit, and when the
// node serving the stream stops, EventSource reconnects by itself (to the other node, with
// Last-Event-ID) and gets every event after the last one it saw, none twice.

let shared: SharedStores;
let nodes: RunningServer[];
let proxy: AlternatingProxy;
let browser: Browser;

beforeAll(async () => {
  shared = await openSharedStores(2);
  const seed = await lifecyclePlatform(shared.stores[0]!);
  const platforms = [seed.platform, seed.twin(shared.stores[1]!)];
  const options = { onUnexpectedError: () => {}, auth: { throttle: { baseDelayMs: 1, maxDelayMs: 2 } } };
  nodes = [];
  for (const platform of platforms) nodes.push(await startServer(createHttpApp({ platform, ...options })));
  proxy = await startAlternatingProxy(nodes.map((node) => node.url), { failover: true });
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
});

afterAll(async () => {
  await browser?.close();
  await proxy?.close();
  for (const node of nodes ?? []) await node.close().catch(() => {});
  await shared?.dispose();
});

const basic = `Basic ${Buffer.from("alice:alice-pw").toString("base64")}`;

/** Creates an article through one node; answers its initid. */
async function create(node: string, title: string): Promise<number> {
  const response = await fetch(`${node}/api/v2/smart-structures/ARTICLE/smart-elements/`, {
    method: "POST", headers: { authorization: basic, "content-type": "application/json" },
    body: JSON.stringify({ document: { attributes: { ar_title: { value: title } } } }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as any).data.document.properties.initid as number;
}

/** The events the page's EventSource received: seq (its lastEventId) and initid. */
function received(page: Page): Promise<{ seq: number; initid: number }[]> {
  return page.evaluate("window.received");
}

/** The last seq of the log, read in the page with its session. */
const LAST_SEQ = `(async () => {
  let after = 0;
  for (;;) {
    const page = (await (await fetch("/api/v2/events/?after=" + after + "&slice=1000")).json()).data;
    if (page.last === after) return after;
    after = page.last;
  }
})()`;

/** Opens an EventSource after a seq, counting its opens and keeping what it receives, and its errors (with its state then). */
const follow = (after: number) => `(() => {
  window.received = [];
  window.opened = 0;
  window.errors = [];
  const started = Date.now();
  const source = new EventSource("/api/v2/events/stream?after=${after}&types=element.created");
  source.onopen = () => window.opened++;
  source.onerror = () => window.errors.push({ readyState: source.readyState, ms: Date.now() - started });
  source.addEventListener("element.created", (message) => {
    window.received.push({ seq: Number(message.lastEventId), initid: JSON.parse(message.data).initid });
  });
})()`;

describe("a browser's EventSource on the live stream", () => {
  it("shows changes as they commit, and resumes after its node stops: every event once, in order", async () => {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${proxy.url}/login`);
    await page.getByLabel("Login").fill("admin");
    await page.getByLabel("Password").fill("admin-pw");
    await page.getByRole("button", { name: "Log in" }).click();
    await page.waitForURL((url) => url.pathname !== "/login");
    // A page of the origin whose scripts may connect to it (the login and console pages forbid any
    // connection in their Content-Security-Policy): an answer of the API itself.
    await page.goto(`${proxy.url}/api/v2/events/?slice=1`);

    // From now on: the events the log holds up to here are not asked for.
    const start = await page.evaluate<number>(LAST_SEQ);
    expect(start).toBeGreaterThan(0);
    await page.evaluate(follow(start));
    await page.waitForFunction("window.opened === 1");

    const first = [await create(nodes[0]!.url, "Live 1"), await create(nodes[1]!.url, "Live 2")];
    await page.waitForFunction(`window.received.length === ${first.length}`, undefined, { timeout: 5000 });
    expect((await received(page)).map((e) => e.initid)).toEqual(first);

    // The node serving the stream (the balancer's first) stops; the writes go on through the other.
    await nodes[0]!.close();
    const second = [await create(nodes[1]!.url, "While away 1"), await create(nodes[1]!.url, "While away 2")];
    // EventSource waits its reconnection time (3 s in Chromium) after each failed attempt, then tries again.
    await page.waitForFunction("window.opened === 2", undefined, { timeout: 30_000 }).catch(async (error: unknown) => {
      // What the page saw, for a run that fails here: a readyState of 2 means EventSource gave up (an answer other than 200).
      throw new Error(`${String(error)}; the page: ${await page.evaluate<string>("JSON.stringify({ opened: window.opened, errors: window.errors, received: window.received })")}`);
    });
    const third = [await create(nodes[1]!.url, "After 1")];
    const all = [...first, ...second, ...third];
    await page.waitForFunction(`window.received.length >= ${all.length}`, undefined, { timeout: 5000 });
    const events = await received(page);
    expect(events.map((e) => e.initid)).toEqual(all);
    const seqs = events.map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
  });
});
