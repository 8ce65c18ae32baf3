import { Hono } from "hono";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import type { HttpEnv } from "../src/http-env.ts";
import { requestTimeout } from "../src/request-timeout.ts";

/*
 * One timer serves every request in flight: each must still expire at its own
 * deadline, neither earlier with an older one nor later.
 */

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
});
afterEach(() => {
  vi.useRealTimers();
});

function slowApp(seen: string[]) {
  const app = new Hono<HttpEnv>();
  app.use("*", requestTimeout(1000));
  app.get("/wait/:name/:ms", async (c) => {
    await new Promise((resolve) => setTimeout(resolve, Number(c.req.param("ms"))));
    seen.push(`${c.req.param("name")} ${c.get("deadline").aborted ? "aborted" : "in time"}`);
    return c.text("done");
  });
  return app;
}

function track(response: Promise<Response>) {
  const state: { status?: number; body?: string; retryAfter?: string | null } = {};
  void response.then(async (answer) => {
    state.retryAfter = answer.headers.get("retry-after");
    state.body = await answer.text();
    state.status = answer.status;
  });
  return state;
}

it("answers each request 503 at its own deadline, and lets the others finish", async () => {
  const seen: string[] = [];
  const app = slowApp(seen);
  const a = track(Promise.resolve(app.request("/wait/a/5000")));
  await vi.advanceTimersByTimeAsync(400);
  const b = track(Promise.resolve(app.request("/wait/b/800")));
  const c = track(Promise.resolve(app.request("/wait/c/5000")));

  await vi.advanceTimersByTimeAsync(650);
  expect(a.status).toBe(503);
  expect(a.retryAfter).toBe("5");
  expect(JSON.parse(a.body!).messages[0]).toMatchObject({ code: "API0101" });
  expect(c.status).toBeUndefined();

  await vi.advanceTimersByTimeAsync(200);
  expect(b.status).toBe(200);
  expect(c.status).toBeUndefined();

  await vi.advanceTimersByTimeAsync(200);
  expect(c.status).toBe(503);

  await vi.advanceTimersByTimeAsync(4000);
  expect(seen).toEqual(["b in time", "a aborted", "c aborted"]);
});

it("still keeps time after it has been idle", async () => {
  const app = slowApp([]);
  const first = track(Promise.resolve(app.request("/wait/a/10")));
  await vi.advanceTimersByTimeAsync(5000);
  expect(first.status).toBe(200);
  const late = track(Promise.resolve(app.request("/wait/b/3000")));
  await vi.advanceTimersByTimeAsync(990);
  expect(late.status).toBeUndefined();
  await vi.advanceTimersByTimeAsync(20);
  expect(late.status).toBe(503);
});

it("lets a request go whose rest throws before its first await: its deadline is not aborted later", async () => {
  const timeout = requestTimeout(1000);
  const app = new Hono<HttpEnv>();
  let deadline: { aborted: boolean } | undefined;
  let caught: unknown;
  app.get("/refused", async (c) => {
    try {
      await timeout(c, () => { throw new Error("refused at once"); });
    } catch (error) {
      caught = error;
    }
    deadline = c.get("deadline");
    return c.text("answered");
  });
  expect((await app.request("/refused")).status).toBe(200);
  expect(caught).toMatchObject({ message: "refused at once" });
  await vi.advanceTimersByTimeAsync(2000);
  expect(deadline?.aborted).toBe(false);
});
