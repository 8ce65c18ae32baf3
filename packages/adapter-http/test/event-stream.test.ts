import { afterEach, describe, expect, it } from "vitest";
import type { Store } from "@lineage/core";
import { createMemoryStore, seededPlatform } from "@lineage/core/testing";
import { createHttpApp, createReadiness, startServer, type Readiness, type RunningServer } from "../src/index.ts";

/*
 * The live stream of events over a real server, for what the end-to-end suites do not reach: the
 * request timeout does not cut it, a shutdown ends it at once, and a client that leaves releases
 * what its stream held (its wait, and with the last one the store's watch).
 */

/** A store whose event watches are counted while they last. */
function watchCounting(store: Store): { store: Store; watching(): number } {
  let watching = 0;
  return {
    store: {
      ...store,
      watchEvents(listener) {
        watching++;
        const stop = store.watchEvents!(listener);
        return () => {
          watching--;
          stop();
        };
      },
    },
    watching: () => watching,
  };
}

const servers: RunningServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function serve(options: { requestTimeoutMs?: number; readiness?: Readiness } = {}) {
  const counted = watchCounting(createMemoryStore());
  const world = await seededPlatform(counted.store);
  const readiness = options.readiness ?? createReadiness();
  const app = createHttpApp({ platform: world.platform, readiness, limits: { requestTimeoutMs: options.requestTimeoutMs ?? 30_000 }, eventKeepAliveMs: 200 });
  const server = await startServer(app, { readiness });
  servers.push(server);
  const admin = await world.principal("admin");
  return { ...world, server, readiness, admin, watching: counted.watching };
}

/** Reads a stream's text as it comes; `until` waits for a piece of it. */
async function follow(url: string, init: RequestInit = {}) {
  const controller = new AbortController();
  const response = await fetch(url, { ...init, headers: { accept: "text/event-stream", authorization: `Basic ${btoa("admin:admin-pw")}` }, signal: controller.signal });
  let text = "";
  let ended = false;
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  void (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
    } catch {
      // Aborted by the test.
    } finally {
      ended = true;
    }
  })();
  const until = async (test: () => boolean, ms = 3000) => {
    for (const giveUp = Date.now() + ms; !test(); await new Promise((resolve) => setTimeout(resolve, 10))) {
      if (Date.now() > giveUp) throw new Error(`not within ${ms} ms; received: ${text}`);
    }
  };
  return { response, text: () => text, ended: () => ended, until, close: () => controller.abort() };
}

describe("GET /api/v2/events/stream", () => {
  it("outlives the request timeout, and keeps sending what commits", async () => {
    const { server, platform, admin } = await serve({ requestTimeoutMs: 300 });
    const { last } = await platform.events.read(admin, {});
    const stream = await follow(`${server.url}/api/v2/events/stream?after=${last}`);
    expect(stream.response.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 900));
    await platform.elements.update(admin, "ART_HELLO", { values: { ar_title: "Later" } });
    await stream.until(() => stream.text().includes("event: element.updated"));
    expect(stream.text()).not.toContain("API0101");
    expect(stream.text().match(/^: keep-alive$/gm)?.length).toBeGreaterThanOrEqual(3);
    stream.close();
  });

  it("ends when the server starts shutting down, so that the shutdown need not wait for it", async () => {
    const { server } = await serve();
    const stream = await follow(`${server.url}/api/v2/events/stream`);
    await stream.until(() => stream.text().includes("keep-alive"));
    const started = Date.now();
    const outcome = await server.shutdown(10_000);
    expect(outcome.unfinished).toBe(0);
    expect(Date.now() - started).toBeLessThan(3000);
    await stream.until(() => stream.ended());
  });

  it("releases its wait, and the store's watch with the last stream, when its client leaves", async () => {
    const { server, watching } = await serve();
    const streams = await Promise.all([1, 2, 3].map(() => follow(`${server.url}/api/v2/events/stream`)));
    await Promise.all(streams.map((stream) => stream.until(() => stream.text().includes("keep-alive"))));
    await streams[0]!.until(() => watching() === 1);
    for (const stream of streams) stream.close();
    await streams[0]!.until(() => watching() === 0, 3000);
  });
});
