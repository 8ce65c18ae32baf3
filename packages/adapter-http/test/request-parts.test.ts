import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { headerOf } from "../src/request-header.ts";
import { pathnameOf } from "../src/request-path.ts";

describe("pathnameOf", () => {
  it("gives what URL.pathname gives, still percent-encoded", () => {
    for (const url of [
      "http://127.0.0.1:8080/api/v2/smart-elements/12",
      "http://localhost/api/v2/smart-elements/?slice=10&offset=2",
      "http://localhost/api/v2/smart-elements/ART%2Ejson?x=/y#z",
      "http://localhost/a%20b/c#frag?not-a-query",
      "http://localhost/",
      "http://[::1]:8080/api?",
    ]) {
      expect(pathnameOf(url), url).toBe(new URL(url).pathname);
    }
  });
});

describe("headerOf", () => {
  const app = new Hono().get("/", (c) => c.json({ id: headerOf(c, "X-Request-Id") ?? null, auth: headerOf(c, "authorization") ?? null, fetch: c.req.header("authorization") ?? null }));
  const rawHeaders = ["Host", "x", "authorization", "Basic A", "X-Request-ID", "abc", "Authorization", "Basic B"];

  it("reads Node's raw headers as Headers.get would: any case, every occurrence joined", async () => {
    const answer = await (await app.request("/", { headers: { authorization: "Basic A, Basic B", "x-request-id": "abc" } }, { incoming: { rawHeaders } })).json();
    expect(answer).toEqual({ id: "abc", auth: "Basic A, Basic B", fetch: "Basic A, Basic B" });
  });

  it("falls back on the fetch request's headers outside Node", async () => {
    const answer = await (await app.request("/", { headers: { authorization: "Basic C" } })).json();
    expect(answer).toEqual({ id: null, auth: "Basic C", fetch: "Basic C" });
  });
});
