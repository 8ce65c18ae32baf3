import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lifecyclePlatform } from "@lineage/core/testing";
import { createRequestLogger, type Logger } from "@lineage/adapter-http";
import { startLiveServer, type LiveServer } from "../src/live-server.ts";

/*
 * X-Request-Id and X-HTTP-Method-Override over a real server (docs/limits.md, api-v2.md General
 * conventions): which incoming ids are kept, that every kind of answer carries one (including
 * those made outside a route: the timeout's 503, a refused override, alt=html), and that only a
 * POST may be handled as a PUT or a DELETE, logged once as the method it was handled as.
 */

type Seed = Awaited<ReturnType<typeof lifecyclePlatform>>;
const lines: string[] = [];
const logger: Logger = createRequestLogger({ level: "info", destination: { write: (line: string) => lines.push(line) } });
const logged = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.msg === "request");
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
let live: LiveServer<Seed>;

beforeAll(async () => {
  live = await startLiveServer(async (store) => {
    const seed = await lifecyclePlatform(store);
    // The trash listing outlasts the request timeout, to see the timeout's own answer.
    const slow = (platform: Seed["platform"]) => ({ ...platform, trash: { ...platform.trash, list: async () => new Promise<never>(() => {}) } });
    return { ...seed, platform: slow(seed.platform), twin: (other) => slow(seed.twin(other)) };
  }, {
    logger,
    limits: { requestTimeoutMs: 2000 },
    // The login throttle relaxed: after the wrong password below, the default one would hold every
    // later request of this client for 250 ms (login-throttle.e2e.test.ts tests it).
    auth: { throttle: { baseDelayMs: 1, maxDelayMs: 2 } },
  });
});
afterAll(() => live.close());

describe("X-Request-Id", () => {
  it("keeps an incoming id of 1 to 128 characters among A-Z a-z 0-9 . _ : - starting with a letter or digit, else makes a UUID", async () => {
    const kept = ["trace-42", "lb1.node-2:7f3a_0", "A", "x".repeat(128)];
    const replaced = ["", "bad id", "-leading-dash", ".dot", "_under", "x".repeat(129), "a=b", "a/b", "{\"level\":60}"];
    for (const id of kept) {
      const answer = await live.api.call("GET", "/api/v2/smart-elements/ART_HELLO", { headers: { "x-request-id": id } });
      expect([answer.status, answer.headers.get("x-request-id")]).toEqual([200, id]);
    }
    for (const id of replaced) {
      const answer = await fetch(`${live.url}/health`, { headers: { "x-request-id": id } });
      expect(answer.headers.get("x-request-id"), id).toMatch(UUID);
    }
  });

  it("is on every kind of answer: success, 304, errors, refusals before any route, the timeout's 503, alt=html, pages", async () => {
    const element = await live.api.call("GET", "/api/v2/smart-elements/ART_HELLO");
    const etag = element.headers.get("etag") ?? "";
    const answers = [
      element,
      await live.api.call("GET", "/api/v2/smart-elements/ART_HELLO", { headers: { "if-none-match": etag } }),
      await live.api.call("GET", "/api/v2/smart-elements/NO_SUCH"),
      await live.api.call("GET", "/api/v2/no-such-route"),
      await live.api.call("GET", "/api/v2/smart-elements/ART_HELLO", { as: ["admin", "wrong"] }),
      await live.api.call("GET", "/api/v2/smart-elements/ART_HELLO", { headers: { accept: "text/csv" } }),
      await live.api.call("POST", "/api/v2/smart-elements/ART_HELLO", { headers: { "x-http-method-override": "PATCH" } }),
      await live.api.call("GET", "/api/v2/trash/"),
      await live.api.call("GET", "/api/v2/smart-elements/ART_HELLO?alt=html"),
      await live.api.call("GET", "/health", { as: null }),
      await live.api.call("GET", "/login", { as: null, headers: { accept: "text/html" } }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 304, 404, 404, 401, 400, 400, 503, 200, 200, 200]);
    for (const answer of answers) expect(answer.headers.get("x-request-id") ?? "none", String(answer.status)).toMatch(UUID);
  });
});

describe("X-HTTP-Method-Override", () => {
  it("handles a POST as the PUT or DELETE it names (any case), body and all, logged once as that method", async () => {
    lines.length = 0;
    const body = { document: { attributes: { ar_title: { value: "Overridden" } } } };
    const put = await live.api.call("POST", "/api/v2/smart-elements/ART_HELLO", { headers: { "x-http-method-override": "put", "x-request-id": "put-1" }, json: body });
    expect([put.status, put.json.data.document.attributes.ar_title.value, put.headers.get("x-request-id")]).toEqual([200, "Overridden", "put-1"]);
    expect(logged()).toMatchObject([{ reqId: "put-1", method: "PUT", status: 200 }]);
    expect(logged()).toHaveLength(1);

    const deleted = await live.api.call("POST", "/api/v2/smart-elements/ART_HELLO", { headers: { "x-http-method-override": "DELETE" } });
    expect([deleted.status, deleted.json.data.document.properties.status]).toEqual([200, "deleted"]);
    const restored = await live.api.call("PUT", "/api/v2/trash/ART_HELLO", { json: { document: { properties: { status: "alive" } } } });
    expect(restored.status).toBe(200);
  });

  it("refuses any other method on a POST with 400 API0008, and ignores the header on other methods", async () => {
    for (const method of ["PATCH", "GET", "HEAD", "OPTIONS", "POST", "x"]) {
      const refused = await live.api.call("POST", "/api/v2/smart-elements/ART_HELLO", { headers: { "x-http-method-override": method } });
      expect([refused.status, refused.json.messages[0].code], method).toEqual([400, "API0008"]);
    }
    const read = await live.api.call("GET", "/api/v2/smart-elements/ART_HELLO", { headers: { "x-http-method-override": "DELETE" } });
    expect([read.status, read.json.data.document.properties.status]).toEqual([200, "alive"]);
    // A PUT stays a PUT: only a POST may be handled as another method.
    const put = await live.api.call("PUT", "/api/v2/smart-elements/ART_HELLO", {
      headers: { "x-http-method-override": "DELETE" }, json: { document: { attributes: { ar_title: { value: "Still here" } } } },
    });
    expect([put.status, put.json.data.document.properties.status]).toEqual([200, "alive"]);
  });
});
