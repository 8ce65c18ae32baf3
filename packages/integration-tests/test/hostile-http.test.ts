import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lifecyclePlatform } from "@lineage/core/testing";
import { createHttpApp } from "@lineage/adapter-http";
import { startLiveServer, type LiveServer } from "../src/live-server.ts";
import { expectSoundAnswer, hostileRequests, withinTime, type HostileRequest } from "./hostile-requests.ts";

/*
 * Hostile requests against the whole app: first in process (memory store, many runs),
 * then over a real listening server on SQLite (fewer runs). No unexpected error may be reported.
 */

/** The login throttle (tested with the authentication) would slow these runs down to seconds per request. */
const NO_THROTTLE = { throttle: { freeFailures: 1_000_000_000, clientFreeFailures: 1_000_000_000, clientLimit: 1_000_000_000 } };

const init = (request: HostileRequest): RequestInit => ({
  method: request.method,
  headers: request.headers,
  ...(request.body === undefined ? {} : { body: request.body }),
});

describe("hostile requests, in process", () => {
  it("always answer, with the envelope and no unprescribed 5xx", async () => {
    const seed = await lifecyclePlatform();
    const unexpected: unknown[] = [];
    const app = createHttpApp({ platform: seed.platform, auth: NO_THROTTLE, onUnexpectedError: (error) => unexpected.push(error) });
    await fc.assert(fc.asyncProperty(hostileRequests, async (request) => {
      unexpected.length = 0;
      const response = await withinTime(Promise.resolve(app.request(`http://localhost${request.path}`, init(request))), 5_000, request.path);
      expectSoundAnswer(request, response.status, response.headers.get("content-type"), await response.text());
      expect(unexpected.map(String), `${request.method} ${request.path}`).toEqual([]);
    }), { numRuns: 600 });
  }, 300_000);
});

describe("hostile requests, over a real server", () => {
  let live: LiveServer<Awaited<ReturnType<typeof lifecyclePlatform>>>;
  const unexpected: unknown[] = [];

  beforeAll(async () => {
    live = await startLiveServer((store) => lifecyclePlatform(store), { auth: NO_THROTTLE, onUnexpectedError: (error) => unexpected.push(error) });
  });
  afterAll(() => live.close());

  it("always answer, with the envelope and no unprescribed 5xx", async () => {
    await fc.assert(fc.asyncProperty(hostileRequests, async (request) => {
      unexpected.length = 0;
      const response = await withinTime(live.api.call(request.method, request.path, { as: null, headers: request.headers, redirect: "manual", ...(request.body === undefined ? {} : { body: request.body }) }), 10_000, request.path);
      expectSoundAnswer(request, response.status, response.headers.get("content-type"), response.text);
      expect(unexpected.map(String), `${request.method} ${request.path}`).toEqual([]);
    }), {
      numRuns: 200,
      // A logout that succeeds is a 303 to the login page: the answer checked is the request's own, not the page it leads to.
      examples: [[{ method: "POST", path: "/logout", headers: { "content-type": "application/json" }, body: "null" }]],
    });
  }, 300_000);
});
